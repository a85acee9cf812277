"""Chunk ids are content-addressed: a chunk inserted or removed leaves the others' ids alone, and
repeats of one text in a document still get ids of their own, the same on every run."""

from __future__ import annotations

from ingest import ChunkOptions, chunk, load_file
from ingest.blocks import Document
from ingest.loaders.markdown.loader import parse

DOC = Document(id="d", uri="d", name="d.md", mime_type="text/markdown", title="d")
OPTIONS = ChunkOptions(max_tokens=40, min_tokens=0, overlap_tokens=0)


def _sections(names: list[str]) -> str:
    return "".join(f"## {n}\n\nThe {n} section says something of its own about {n}.\n\n" for n in names)


def test_an_inserted_section_shifts_chunk_index_but_no_other_id():
    before = list(chunk(parse("# T\n\n" + _sections(["alpha", "beta", "gamma"]), DOC), OPTIONS))
    after = list(chunk(parse("# T\n\n" + _sections(["new", "alpha", "beta", "gamma"]), DOC), OPTIONS))
    assert [c.chunk_index for c in after if c.text in {b.text for b in before}] != [c.chunk_index for c in before]
    kept = {c.text: c.id for c in before}
    assert {c.text: c.id for c in after if c.text in kept} == kept
    assert len(after) == len(before) + 1  # the new section, with an id of its own
    assert len({c.id for c in after}) == len(after)


def test_repeated_text_gets_distinct_ids_deterministically():
    text = "# T\n\n" + "## Note\n\nSame words in every note, repeated.\n\n" * 3
    a, b = (list(chunk(parse(text, DOC), OPTIONS)) for _ in range(2))
    notes = [c for c in a if c.text.startswith("Same words")]
    assert len(notes) == 3 and len({c.id for c in notes}) == 3
    assert [c.id for c in a] == [c.id for c in b]


def test_the_same_text_under_another_heading_or_document_is_another_chunk():
    one = list(chunk(parse("# T\n\n## A\n\nShared sentence here.\n\n## B\n\nShared sentence here.\n", DOC), OPTIONS))
    shared = [c for c in one if c.text == "Shared sentence here."]
    assert len(shared) == 2 and shared[0].id != shared[1].id
    other = list(
        chunk(
            parse(
                "# T\n\n## A\n\nShared sentence here.\n",
                Document(id="e", uri="e", name="e.md", mime_type="text/markdown", title="d"),
            ),
            OPTIONS,
        )
    )
    assert shared[0].id not in {c.id for c in other}


def test_ids_are_unique_on_real_documents(corpus):
    for path in sorted(corpus.glob("**/*.md"))[:40]:
        chunks = list(chunk(load_file(path)))
        assert len({c.id for c in chunks}) == len(chunks), path
