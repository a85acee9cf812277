"""The two Markdown parsers (markdown-it-py, and the optional Rust markdown-it-pyrs) must give the
same blocks, so which one is installed never changes a chunk."""

from __future__ import annotations

from ingest.blocks import Document
from ingest.loaders.markdown import tokens as markdown_tokens
from ingest.loaders.markdown import tree as markdown_tree
from ingest.loaders.markdown.loader import _PARSER, parse
from tests.paths import CORPUS, SHARED

DOC = Document(id="x", uri="x", name="x.md", mime_type="text/markdown", title="x")
BENCH = SHARED / "bench" / "markdown-pypi" / "files"
# markdown-it-py's own parser test fixtures, where the two parsers' versions follow different
# CommonMark revisions (e.g. markdown-it-py 4 lets a lowercase <!doctype> interrupt a paragraph).
PARSER_FIXTURES = {
    "markdown_it_py-4.3.0/tests/test_cmark_spec/spec.md",
    "markdown_it_py-4.3.0/tests/test_port/fixtures/issue-fixes.md",
    "markdown_it_py-4.3.0/tests/test_port/fixtures/tables.md",
}


def test_rust_parser_is_the_default_when_installed():
    assert _PARSER is markdown_tree.events


def test_both_parsers_give_identical_blocks_on_real_markdown():
    files = sorted(BENCH.rglob("*.md")) + sorted(CORPUS.rglob("*.md"))
    assert len(files) > 600
    differ = set()
    for path in files:
        text = path.read_text(encoding="utf-8-sig")
        if parse(text, DOC, parser=markdown_tokens.events) != parse(text, DOC, parser=markdown_tree.events):
            differ.add(path.relative_to(BENCH).as_posix() if BENCH in path.parents else str(path))
    assert differ == PARSER_FIXTURES
