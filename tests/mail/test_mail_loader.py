"""The mail loader and the mail_quotes cleaner on unstructured's .eml files and on the messages
tests/fixtures/make_mail.py writes (expected values from what that script puts in them)."""

from __future__ import annotations

import pytest

from ingest.blocks import Document
from ingest.cleaners import build_chain, clean_blocks
from ingest.errors import LoaderError
from ingest.loaders import load_bytes, load_file
from tests.fixtures import make_mail
from tests.paths import CORPUS, FIXTURES

EML = CORPUS / "formats/unstructured/example-docs/eml"


def test_subject_is_the_title_and_the_headers_are_metadata():
    loaded = load_file(EML / "fake-email.eml")
    doc = loaded.document
    assert doc.title == "Test Email"
    assert doc.meta["from"] == "Matthew Robinson <mrobinson@unstructured.io>"
    assert doc.meta["to"] == ["NotMatthew <NotMatthew@notunstructured.com>"]
    assert doc.meta["date"] == "2022-12-16T17:04:16-05:00"
    assert loaded.blocks[0].text == "This is a test email to use for unit tests."  # the text part, not the HTML


def test_cc_and_a_utf16_message_without_bom():
    assert load_file(FIXTURES / "mail/reply.eml").document.meta["cc"] == [
        "Carol <carol@example.com>",
        "dave@example.com",
    ]
    assert load_file(EML / "fake-email-utf-16-le.eml").document.title == "Test Email"


def test_the_html_part_goes_through_the_html_loader_when_there_is_no_text_part():
    loaded = load_file(FIXTURES / "mail/gmail_reply.eml")
    assert [(b.kind, b.text) for b in loaded.blocks[:3]] == [
        ("paragraph", "Lunch is booked for twelve."),
        ("list_item", "Room A"),
        ("list_item", "Room B"),
    ]
    marked = {b.text: b.meta.get("mail") for b in loaded.blocks}
    assert marked["Ann Lee\nOffice manager"] == "signature"
    assert marked["Where do we eat?"] == "quoted"
    assert marked["On Tue, Oct 7, 2025 at 4:00 PM Bob Baker <bob@example.com> wrote:"] == "attribution"
    assert [b.text for b in clean_blocks(loaded)] == ["Lunch is booked for twelve.", "Room A", "Room B"]


def test_quoted_reply_attribution_and_signature_are_marked_and_cleaned_by_default():
    loaded = load_file(FIXTURES / "mail/reply.eml")
    marks = [(b.kind, b.meta.get("mail")) for b in loaded.blocks[:4]]
    assert marks == [("paragraph", None), ("paragraph", "attribution"), ("quote", "quoted"), ("paragraph", "signature")]
    assert loaded.blocks[2].text == "\n\n".join(make_mail.REPLY_QUOTED)  # "> " taken off
    kept = [b.text for b in clean_blocks(loaded)]
    assert kept[0] == make_mail.REPLY_NEW
    assert make_mail.SIGNATURE not in kept and not any("wrote:" in t or "Q3 figures." in t for t in kept)
    keep_all = build_chain([("mail_quotes", {"keep_quotes": True, "keep_signatures": True})])
    assert len(clean_blocks(loaded, keep_all)) == len(loaded.blocks)


def test_an_attachment_is_a_named_section_of_its_message():
    blocks = load_file(FIXTURES / "mail/reply.eml").blocks
    heading = next(b for b in blocks if b.kind == "heading")
    assert heading.text == "Attachment: regions.txt" and heading.path == ("Re: Q3 figures", "Attachment: regions.txt")
    body = blocks[blocks.index(heading) + 1]
    assert body.text == make_mail.ATTACHMENT_TEXT and body.meta["attachment"] == "regions.txt"
    assert body.path == heading.path


def test_an_attachment_no_loader_reads_is_a_warning():
    loaded = load_file(EML / "mime-attach-mp3.eml")
    assert loaded.warnings == ("attachment 'sample-3s.mp3' (audio/mpeg) not read: no loader for it",)
    assert [b.text for b in loaded.blocks] == ["This is an email with an MP3 attachment."]


def test_a_digest_reads_each_attached_message():
    headings = [b.text for b in load_file(EML / "mime-multipart-digest.eml").blocks if b.kind == "heading"]
    assert headings == ["Attachment: First Message", "Attachment: Second Message", "Attachment: Third Message"]


def test_an_mbox_is_one_document_with_a_section_per_message():
    loaded = load_file(FIXTURES / "mail/thread.mbox")
    assert loaded.document.meta["messages"] == 2
    assert [b.text for b in loaded.blocks if b.kind == "heading"] == ["Build status", "Deploy day"]
    texts = [b.text for b in clean_blocks(loaded)]
    assert make_mail.MBOX_FIRST in texts and make_mail.MBOX_FROM_LINE in texts  # ">From " unescaped
    said = next(b for b in loaded.blocks if b.meta.get("mail") == "headers")
    assert said.text == "From: ci@example.com; To: team@example.com; Date: 2025-10-09T08:00:00+00:00"


@pytest.mark.parametrize(
    ("data", "mime", "said"),
    [
        (b"just some words\nwith no header\n", "message/rfc822", "no header lines"),
        (b"Subject: x\n\nno From line\n", "application/mbox", "not an mbox"),
    ],
)
def test_bad_messages_are_named(data, mime, said):  # (a blank file is a warning: tests/cli/test_folders.py)
    doc = Document(id="x", uri="file:///broken.eml", name="broken.eml", mime_type=mime)
    with pytest.raises(LoaderError) as err:
        load_bytes(data, doc)
    assert "broken.eml" in str(err.value) and said in str(err.value)


def test_a_signature_icon_is_not_ocred_and_a_warning_names_it():
    """A 16x16 logo inline in the signature holds no word: not OCRed, named in a warning, and no
    empty "Attachment:" section; the message and its other attachments are read as before."""
    import io
    from email.message import EmailMessage

    from PIL import Image

    icon = io.BytesIO()
    Image.new("RGB", (16, 16), (20, 60, 160)).save(icon, format="PNG")
    msg = EmailMessage()
    msg["Subject"], msg["From"], msg["To"] = "Offsite", "ann@example.com", "bob@example.com"
    msg.set_content("The offsite is on Friday.\n\n-- \nAnn Lee\n")
    msg.add_attachment(icon.getvalue(), maintype="image", subtype="png", filename="logo.png", disposition="inline")
    msg.add_attachment(b"Room A, 10:00", maintype="text", subtype="plain", filename="agenda.txt")
    doc = Document(id="m", uri="file:///offsite.eml", name="offsite.eml", mime_type="message/rfc822")
    loaded = load_bytes(msg.as_bytes(), doc)
    [warning] = loaded.warnings
    assert warning.startswith("attachment 'logo.png': not OCRed: 16x16 pixels is too small to hold readable text")
    assert [b.text for b in loaded.blocks if b.kind == "heading"] == ["Attachment: agenda.txt"]
    assert "The offsite is on Friday." in [b.text for b in loaded.blocks]
