"""Review: the whole-section shortcut and the fast counter on adversarial Markdown (the corpus
test covers ordinary files), and lone surrogates end to end. Tests for the bugs it found failed before their fixes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest import ChunkOptions, chunk, clean_blocks
from ingest.blocks import Document
from ingest.chunker import pack
from ingest.chunker.tokens import encoding
from ingest.loaders import GOOGLE_DOC, load_bytes, local_document

ADVERSARIAL = {
    "empty_headings": "#\n\n##   \n\ntext under nothing.\n\n###\n",
    "front_matter_only": "---\ntitle: Only front matter\ntags: [a, b]\n---\n",
    "html_block": '# H\n\n<div class="x">\n<p>inside: html</p>\n</div>\n\nAfter the block.\n\n<!-- a comment -->\n',
    "table": "# T\n\nLead in:\n\n| a | b |\n|---|---|\n" + "".join(f"| r{i} | v{i}. |\n" for i in range(40)),
    "zero_width": "# Z\u200b\n\nword\u200bword \u200d\ufeffjoin\u2060ed.\n\n- \u200bitem\n- item\u200b\n",
    "crlf": "# Title\r\n\r\nFirst para.\r\nSame para.\r\n\r\n- a\r\n- b:\r\n\r\n```\r\ncode\r\n```\r\n",
    "huge_line": "# Huge\n\n" + "averyveryverylongwordwithoutspaces" * 300 + "\n\nshort after.\n",
    "huge_sentence_line": "# S\n\n" + ("Word, " * 2500) + "end.\n",
    "unicode_spaces": "# U\n\npara one.\u2028para two.\u00a0\u3000x\n\n\u0085\n\n\x1c\n\nend.\n",
    "punctuation_seams": "# P\n\nends with a colon:\n\n|x|\n\n(paren)\n\n...\n\n's\n\n/slash\n",
}
SETTINGS = [
    ChunkOptions(512, 64, 48),
    ChunkOptions(24, 0, 8),
    ChunkOptions(60, 10, 0, "o200k_base"),
    ChunkOptions(80, 10, 20, "chars"),
]


def chunks_of(text: str, options: ChunkOptions):
    data = text.encode("utf-8")
    loaded = load_bytes(data, local_document(Path("/review/adversarial.md"), data, 0.0))
    return list(chunk(loaded, options, clean_blocks(loaded)))


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_whole_sections_match_block_packing_and_counts_are_tiktokens(name, monkeypatch):
    text = ADVERSARIAL[name]
    shortcut = [c for o in SETTINGS for c in chunks_of(text, o)]
    monkeypatch.setattr(pack, "WHOLE_SECTION_CHARS", 0)  # every section packed block by block
    packed = [c for o in SETTINGS for c in chunks_of(text, o)]
    assert shortcut == packed
    for options in SETTINGS:
        for c in chunks_of(text, options):
            expected = (
                len(c.text)
                if options.tokenizer == "chars"
                else len(encoding(options.tokenizer).encode_ordinary(c.text))
            )
            assert c.token_count == expected, (options, c.text[:80])


def test_a_lone_surrogate_from_a_google_doc_is_chunked(corpus):
    doc = json.loads((corpus / "encoda_gdoc" / "__fixtures__" / "test-fixture-1.gdoc").read_text(encoding="utf-8"))
    doc["body"]["content"].append(
        {
            "paragraph": {
                "elements": [{"textRun": {"content": "Broken emoji \ud83d here.\n", "textStyle": {}}}],
                "paragraphStyle": {"namedStyleType": "NORMAL_TEXT"},
            }
        }
    )
    data = json.dumps(doc).encode()  # ASCII JSON with a "\\ud83d" escape, as a server may send
    loaded = load_bytes(
        data, Document(id="d", uri="https://docs.google.com/document/d/d", name="d", mime_type=GOOGLE_DOC)
    )
    chunks = list(chunk(loaded, ChunkOptions(), clean_blocks(loaded)))
    last = chunks[-1]
    assert "here." in last.text
    assert last.token_count == len(encoding("cl100k_base").encode_ordinary(last.text))
