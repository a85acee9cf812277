"""Questions on the bundled examples, each with the document, heading and words of the chunk that
answers it: (question, document name, end of its heading path, words of the answer)."""

QUESTIONS = [
    ("How many days ahead must flights be booked?", "travel-policy.docx", "Travel policy > Booking", "14 days ahead"),
    ("When is ibuprofen avoided?", "paediatric-fever.md", "Contraindications", "Ibuprofen is avoided in dehydration"),
    ("How long did the storage cluster stop accepting writes?", "incident-review.pdf", "Summary", "for 42 minutes"),
]
