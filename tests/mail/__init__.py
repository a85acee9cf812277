"""ingest/loaders/mail/ and the mail_quotes cleaner: .eml and .mbox."""
