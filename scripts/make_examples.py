"""Regenerate the binary samples in examples/ (a Word file, a PDF, a workbook).

They are committed; run this only to change them: `.venv/bin/python scripts/make_examples.py`.
"""

from __future__ import annotations

from pathlib import Path

import docx
import openpyxl
import pymupdf as fitz

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def word() -> None:
    doc = docx.Document()
    doc.core_properties.title = "Travel policy"
    doc.add_heading("Travel policy", level=0)
    doc.add_heading("Booking", level=1)
    doc.add_paragraph(
        "Book flights through the travel desk at least 14 days ahead. Economy class is the default "
        "for flights under six hours; business class needs a director's approval."
    )
    doc.add_paragraph("Reimbursable without receipts:")
    for item in ("Local transport under $20.", "Tips up to 15% of a meal.", "Laundry on trips over five nights."):
        doc.add_paragraph(item, style="List Bullet")
    doc.add_heading("Daily allowances", level=1)
    table = doc.add_table(rows=1, cols=3)
    table.rows[0].cells[0].text, table.rows[0].cells[1].text, table.rows[0].cells[2].text = "City", "Hotel", "Meals"
    for city, hotel, meals in (("London", "£180", "£60"), ("New York", "$260", "$85"), ("Berlin", "€150", "€55")):
        cells = table.add_row().cells
        cells[0].text, cells[1].text, cells[2].text = city, hotel, meals
    doc.sections[0].footer.paragraphs[0].text = "Internal - do not forward"
    doc.save(EXAMPLES / "travel-policy.docx")


def pdf() -> None:
    pages = [
        (
            "Incident review: storage outage",
            [
                "On 3 March the primary storage cluster stopped accepting writes for 42 minutes.",
                "Summary",
                "A certificate on the metadata service expired at 09:14 UTC. Clients retried, the retry "
                "storm filled the queue, and writes failed until the certificate was replaced at 09:56.",
            ],
        ),
        (
            None,
            [
                "Actions",
                "Certificates are now renewed 30 days before expiry, and an alert fires 14 days before. "
                "Client retries back off exponentially with jitter, capped at 60 seconds.",
            ],
        ),
    ]
    doc = fitz.open()
    for number, (title, lines) in enumerate(pages, 1):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 40), "ACME Corp - Engineering - Confidential", fontsize=8)
        y = 90
        if title:
            page.insert_text((72, y), title, fontsize=18, fontname="hebo")
            y += 40
        for line in lines:
            heading = len(line) < 20
            box = fitz.Rect(72, y, 523, y + (30 if heading else 120))
            page.insert_textbox(box, line, fontsize=14 if heading else 11, fontname="hebo" if heading else "helv")
            y += 34 if heading else 80
        page.insert_text((280, 810), f"Page {number} of {len(pages)}", fontsize=8)
    doc.set_metadata({"title": "Incident review: storage outage"})
    doc.save(EXAMPLES / "incident-review.pdf")


def workbook() -> None:
    wb = openpyxl.Workbook()
    sheet = wb.active
    sheet.title = "Headcount"
    sheet.append(["Team", "Engineers", "Open roles"])
    for row in (("Platform", 14, 2), ("Data", 9, 3), ("Mobile", 6, 1)):
        sheet.append(row)
    budget = wb.create_sheet("Budget")
    budget.append(["Quarter", "Spend", "Forecast"])
    for row in (("Q1", 1.2e6, 1.25e6), ("Q2", 1.31e6, 1.3e6)):
        budget.append(row)
    wb.save(EXAMPLES / "planning.xlsx")


if __name__ == "__main__":
    word()
    pdf()
    workbook()
