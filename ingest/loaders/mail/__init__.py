"""E-mail: .eml messages and .mbox mailboxes, read with the standard library's `email` package.
The text part (or the HTML part, through the HTML loader) becomes the blocks; quoted replies,
their "On ... wrote:" lines and signatures are marked (`meta["mail"]`) for the `mail_quotes`
cleaner; attachments a loader reads become sections of the message."""
