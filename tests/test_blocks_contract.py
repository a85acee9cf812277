"""The contract between stages: every `Block.meta` key a loader or cleaner writes is declared in
`BlockMeta`, furniture is said by the layer alone, and a chunk's citation is a `Citation`."""

from __future__ import annotations

from pathlib import Path

import pytest

import ingest
from ingest import ChunkOptions, chunk
from ingest.blocks import Block, BlockMeta, Citation, Document, Loaded
from ingest.chunk_json import chunk_to_dict
from ingest.cleaners import build_chain, clean
from ingest.loaders import load_file
from tests.paths import ROOT

# Every format the loaders read, and the Word and PDF features whose facts ride in `meta`:
# headers and footers, footnotes, text boxes, tracked changes, comments, merged cells, lists, bands.
CORPUS_FILES = (
    "python_docx/hdr-header-footer.docx",
    "unstructured/example-docs/docx-hdrftr.docx",
    "docling/docx/sources/word_sample.docx",
    "docling/docx/sources/unit_test_headers.docx",
    "unstructured/example-docs/example-list-items-multiple.docx",
)


def _loaded(corpus: Path) -> list[Loaded]:
    paths = sorted(p for p in (ROOT / "examples").rglob("*") if p.is_file())
    return [load_file(p) for p in (*paths, *(corpus / name for name in CORPUS_FILES))]


def test_every_meta_key_the_stages_write_is_declared(corpus):
    declared = BlockMeta.__optional_keys__
    chain = build_chain([("comments", {"keep_as_metadata": True}), ("furniture", False)])
    written: set[str] = set()
    for loaded in _loaded(corpus):
        cleaned, _ = clean(loaded.blocks, loaded.document, chain)
        for block in (*loaded.blocks, *cleaned):
            written |= set(block.meta)
    assert written <= declared, f"undeclared Block.meta keys: {sorted(written - declared)}"
    # The sample covers the keys every stage reads, so the check above is not vacuous.
    assert {"band", "segments", "font_size", "marker", "part", "style", "range", "header"} <= written


def test_headers_and_footers_are_paragraphs_of_the_furniture_layer(corpus):
    loaded = load_file(corpus / "python_docx/hdr-header-footer.docx")
    furniture = [b for b in loaded.blocks if b.layer == "furniture"]
    assert {b.meta["part"] for b in furniture} == {"header", "footer"}
    assert {b.kind for b in loaded.blocks} >= {"paragraph"} and "furniture" not in {b.kind for b in loaded.blocks}
    assert all(b.kind == "paragraph" for b in furniture)
    header = next(b.text for b in furniture if b.meta["part"] == "header")

    def texts(chain_config: list) -> list[tuple[str, tuple[str, ...]]]:
        blocks, _ = clean(loaded.blocks, loaded.document, build_chain(chain_config))
        return [(c.text, c.kinds) for c in chunk(loaded, ChunkOptions(), blocks)]

    assert not any(header in text for text, _ in texts([]))  # the furniture cleaner drops the layer
    kept = [kinds for text, kinds in texts([("furniture", False)]) if header in text]
    assert kept and all("furniture" not in kinds and "paragraph" in kinds for kinds in kept)


def test_pdf_band_lines_stay_in_the_body_layer_for_the_pdf_cleaners_to_judge():
    loaded = load_file(ROOT / "examples" / "incident-review.pdf")
    banded = [b for b in loaded.blocks if b.meta.get("band")]
    assert banded and all(b.layer == "body" for b in banded)
    assert {b.layer for b in loaded.blocks} == {"body"}


SENTENCES = " ".join(f"Sentence number {i} says a little more about the plan." for i in range(16))
OPTIONS = ChunkOptions(max_tokens=40, min_tokens=1, overlap_tokens=14)


@pytest.mark.parametrize("layer", ["body", "furniture"])
def test_only_body_prose_is_split_at_sentences_and_overlapped(layer):
    doc = Document("d", "file:///d.txt", "d.txt", "text/plain", title="d")
    block = Block("paragraph", SENTENCES, ("d",), layer=layer)
    chunks = list(chunk(Loaded(doc, (block,)), OPTIONS))
    assert len(chunks) > 2
    assert all(c.kinds == ("paragraph",) for c in chunks)
    if layer == "body":
        assert all(c.text.endswith(".") for c in chunks)  # cut between sentences
        assert all(c.overlap_tokens > 0 for c in chunks[1:])
    else:  # a kept header part is cut as lines are, words then tokens, and never overlapped
        assert not all(c.text.endswith(".") for c in chunks)
        assert all(c.overlap_tokens == 0 for c in chunks)


def test_a_chunk_cites_its_document_as_a_citation_stored_under_source(tmp_path):
    path = tmp_path / "note.md"
    path.write_text("# Note\n\nThe plan holds.\n", encoding="utf-8")
    loaded = load_file(path)
    (c,) = chunk(loaded)
    assert isinstance(c.source, Citation) and c.source == Citation.of(loaded.document)
    assert ingest.Citation is Citation and "Source" not in ingest.__all__  # the old name only warns (below)
    record = chunk_to_dict(c)["source"]
    assert record == {
        "uri": path.as_uri(),
        "name": "note.md",
        "mime_type": "text/markdown",
        "modified": loaded.document.modified,
        "version": loaded.document.version,
    }


def test_the_old_name_of_citation_still_works_and_says_its_new_name():
    import ingest.blocks

    with pytest.warns(DeprecationWarning, match=r"ingest\.Source is now ingest\.Citation"):
        assert ingest.Source is Citation
    with pytest.warns(DeprecationWarning, match=r"ingest\.blocks\.Source is now ingest\.blocks\.Citation"):
        assert ingest.blocks.Source is Citation
    with pytest.raises(AttributeError):
        ingest.blocks.Sauce  # noqa: B018


def test_a_plugin_loaders_furniture_kind_from_before_the_layer_is_still_dropped():
    document = Document(id="x.org", uri="file:///x.org", name="x.org", mime_type="text/x-org")
    blocks = (
        Block("furniture", "ACME Corp - Confidential"),  # as a plugin loader said furniture before
        Block("paragraph", "The plan holds."),
        Block("paragraph", "Page footer text", layer="furniture"),
    )
    kept, _ = clean(blocks, document, build_chain([]))
    assert [b.text for b in kept] == ["The plan holds."]
