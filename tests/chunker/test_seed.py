"""The seed article's published result, reproduced on its own test document."""

from __future__ import annotations

import pytest

from ingest import ChunkOptions, chunk, clean_blocks, load_file
from ingest.chunker.metrics import defects

ROOT = "Paediatric fever"


@pytest.fixture(scope="module")
def fever(seeds):
    loaded = load_file(seeds / "paediatric-fever.md")
    assert len(loaded.text) == 1549  # the article's document, byte for byte
    return loaded, clean_blocks(loaded)


def test_700_characters_gives_the_four_sections(fever):
    loaded, blocks = fever
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=700, tokenizer="chars"), blocks))
    assert [(c.heading_path, len(c.text)) for c in chunks] == [
        ((ROOT, "When to seek help the same day"), 512),
        ((ROOT, "Antipyretic dosing"), 481),
        ((ROOT, "Antipyretic dosing", "Contraindications"), 135),
        ((ROOT, "Recording a reading"), 289),
    ]
    assert "table" in chunks[1].kinds and "code" in chunks[3].kinds
    assert set(chunks[0].kinds) == set(chunks[2].kinds) == {"paragraph"}
    d = defects(loaded.text, blocks, chunks)
    assert (d.end_mid_sentence, d.orphaned_table_rows, d.headerless_table_pieces) == (0, 0, 0)


def test_fixed_400_character_cuts_are_seen_as_defects(fever):
    """The metric must catch what the article's fixed-size splitter gets wrong (3 and 1)."""
    from dataclasses import replace

    loaded, blocks = fever
    template = next(chunk(loaded, ChunkOptions(max_tokens=700, tokenizer="chars"), blocks))
    text = loaded.text
    fixed = [
        replace(template, text=text[i : i + 400], start=i, end=min(i + 400, len(text)))
        for i in range(0, len(text), 400)
    ]
    d = defects(text, blocks, fixed)
    assert d.end_mid_sentence == 3
    assert d.orphaned_table_rows == 1


def test_260_characters_overlap_repairs_the_separated_pair(fever):
    loaded, blocks = fever
    plain = list(chunk(loaded, ChunkOptions(260, 64, 0, "chars"), blocks))
    carried = list(chunk(loaded, ChunkOptions(260, 64, 120, "chars"), blocks))
    before, after = defects(loaded.text, blocks, plain), defects(loaded.text, blocks, carried)
    assert (before.sentence_pairs, before.separated_pairs) == (8, 1)
    assert after.separated_pairs == 0
    assert any(c.overlap_tokens > 0 for c in carried)
    assert after.end_mid_sentence == 0 and after.orphaned_table_rows == 0
