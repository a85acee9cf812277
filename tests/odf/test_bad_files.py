"""Files that are not readable OpenDocument: each a LoaderError naming the file and what is wrong."""

from __future__ import annotations

import io
import zipfile

import pytest

from ingest.blocks import Document
from ingest.config import LimitsConfig
from ingest.errors import LoaderError
from ingest.loaders import ODS, ODT, load_bytes
from ingest.runner.input_limits import check_input
from tests.fixtures.make_odf import content, package

URI = "file:///docs/minutes.odt"


def load(data: bytes, mime: str = ODT):
    return load_bytes(data, Document(id="m", uri=URI, name="minutes.odt", mime_type=mime, title="minutes"))


def zipped(entries: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, text in entries.items():
            zf.writestr(name, text)
    return buf.getvalue()


def error_of(data: bytes, mime: str = ODT) -> str:
    with pytest.raises(LoaderError) as info:
        load(data, mime)
    assert info.value.subject == URI
    return str(info.value)


def test_not_a_zip():
    assert "not a ZIP archive" in error_of(b"This is plain text saved as .odt")


def test_a_legacy_ole_file():
    assert "legacy .doc/.xls" in error_of(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)


def test_zip_without_content_xml():
    message = error_of(zipped({"mimetype": ODT, "styles.xml": "<x/>"}))
    assert "no content.xml" in message


def test_malformed_content_xml():
    message = error_of(zipped({"mimetype": ODT, "content.xml": "<office:document-content><unclosed>"}))
    assert "malformed XML in content.xml" in message


def test_encrypted_document():
    manifest = (
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">'
        '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="abc=">'
        '<manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="x="/>'
        "</manifest:encryption-data></manifest:file-entry></manifest:manifest>"
    )
    data = zipped({"mimetype": ODT, "META-INF/manifest.xml": manifest, "content.xml": "\x00\x13binary"})
    assert "password-protected" in error_of(data)


def test_a_presentation_is_named_as_such(tmp_path):
    path = tmp_path / "deck.odp"
    package(path, "application/vnd.oasis.opendocument.presentation", content("", kind="presentation"))
    assert "OpenDocument presentation" in error_of(path.read_bytes())


def test_an_ods_renamed_odt_reads_as_the_spreadsheet_it_is(tmp_path):
    path = tmp_path / "sheet.ods"
    rows = '<table:table table:name="S"><table:table-row><table:table-cell><text:p>Hi</text:p></table:table-cell></table:table-row></table:table>'
    package(path, ODS, content(rows, kind="spreadsheet"))
    loaded = load(path.read_bytes(), ODT)
    assert [b.text for b in loaded.blocks] == ["S", "Hi"]


def test_a_zip_bomb_is_refused_before_the_parser(tmp_path):
    path = tmp_path / "bomb.odt"
    package(path, ODT, content("<text:p>" + " " * (3 * 1024 * 1024) + "</text:p>"))
    assert path.stat().st_size < 64 * 1024  # three megabytes of spaces deflate to a few kilobytes
    with pytest.raises(LoaderError, match="unzip"):
        check_input(path.read_bytes(), ODT, LimitsConfig(max_unzipped_mb=1))
