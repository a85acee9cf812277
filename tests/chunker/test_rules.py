"""Each packing rule, on small documents built to exercise it, and token counts on real files."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ingest import ChunkOptions, chunk, load_file
from ingest.blocks import Block, Chunk, Citation, Document, Loaded
from ingest.chunker import tokens
from ingest.chunker.tokens import get_tokenizer
from ingest.errors import ChunkerError
from ingest.loaders.markdown.loader import parse

DOC = Document(id="d", uri="d", name="d.md", mime_type="text/markdown", title="d")


def md(text: str) -> Loaded:
    return parse(text, DOC)


def test_table_over_budget_splits_between_rows_repeating_the_header():
    rows = "\n".join(f"| drug {i} | {i} mg/kg | every {i} h |" for i in range(40))
    loaded = md(f"# Doses\n\n| Drug | Dose | Interval |\n|---|---|---|\n{rows}\n")
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=80, min_tokens=0, overlap_tokens=0)))
    assert len(chunks) > 3
    body_lines = []
    for c in chunks:
        lines = c.text.split("\n")
        assert lines[:2] == ["| Drug | Dose | Interval |", "|---|---|---|"]
        assert c.token_count <= 80
        body_lines += lines[2:]
    assert body_lines == rows.split("\n")  # every row once, whole, in order


def test_code_over_budget_splits_only_between_lines():
    code_lines = [f"value_{i} = compute({i}, factor={i * 3})" for i in range(60)]
    loaded = md("# Code\n\n```python\n" + "\n".join(code_lines) + "\n```\n")
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=60, min_tokens=0, overlap_tokens=30)))
    seen = []
    for c in chunks:
        assert c.overlap_tokens == 0  # overlap never enters code
        seen += [line for line in c.text.split("\n") if line.startswith("value_")]
    assert seen == code_lines


def test_long_sentence_falls_back_to_words_then_the_hard_cap():
    words = " ".join(f"word{i}" for i in range(400))
    blob = "x" * 3000
    loaded = md(f"# W\n\n{words}.\n\n{blob}\n")
    tok = get_tokenizer("cl100k_base")
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=50, min_tokens=0, overlap_tokens=0)))
    assert all(c.token_count <= 50 for c in chunks)
    assert all(c.token_count == tok.count(c.text) for c in chunks)
    word_chunks = [c for c in chunks if "word" in c.text]
    assert all(not c.text.endswith(("word", "wor")) or c.text.split()[-1].startswith("word") for c in word_chunks)
    assert " ".join(c.text for c in word_chunks).split() == (words + ".").split()  # cut at spaces only
    assert "".join(c.text for c in chunks if c.text.startswith("x")) == blob


def _cjk_chunks(clause: str) -> tuple[str, list]:
    """A Chinese sentence of 40 clauses (`clause` formatted with i), chunked at 60 tokens."""
    sentence = "，".join(clause.format(i=i) for i in range(40)) + "。"
    loaded = md(f"# 调查\n\n{sentence}\n")
    return sentence, list(chunk(loaded, ChunkOptions(max_tokens=60, min_tokens=0, overlap_tokens=0)))


def test_a_long_cjk_sentence_is_cut_after_its_commas_not_inside_a_clause():
    # Chinese sets no spaces: a sentence over budget is cut where a clause ends ("，"), as a
    # Latin one is cut between words.
    sentence, chunks = _cjk_chunks("第{i}项调查在北方地区的水井中进行")
    assert len(chunks) > 3 and all(c.token_count <= 60 for c in chunks)
    assert all(c.text.endswith(("，", "。")) for c in chunks), [c.text[-5:] for c in chunks]
    assert "".join(c.text for c in chunks) == sentence


def test_a_long_cjk_sentence_with_latin_words_is_still_cut_after_its_commas():
    # The spaces beside "GPS" stand inside a clause: the clause's comma is the place to cut.
    _, chunks = _cjk_chunks("第{i}项调查使用 GPS 设备在北方地区的水井中进行")
    assert len(chunks) > 3 and all(c.token_count <= 60 for c in chunks)
    assert all(c.text.endswith(("，", "。")) for c in chunks), [c.text[-5:] for c in chunks]


def test_sections_over_min_tokens_never_share_a_chunk():
    """Was `test_a_chunk_never_spans_two_heading_paths` (min_tokens 100 on sections of 2-3 tokens):
    since #25 a section under min_tokens joins the next, so each section here is over min_tokens."""
    loaded = md("# A\n\nShort.\n\n## B\n\nAlso short.\n\n## C\n\nTiny.\n")
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=500, min_tokens=2, overlap_tokens=0)))
    assert [c.heading_path for c in chunks] == [("A",), ("A", "B"), ("A", "C")]


def test_a_run_in_label_travels_with_the_paragraph_it_introduces():
    first = " ".join(f"Sales rose in region {i} as prices went up." for i in range(9))
    second = " ".join(f"Costs of line {i} grew with the prices of steel." for i in range(9))
    loaded = md(f"# A\n\n{first}\n\nCost of Sales:\n\n{second}\n")
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=120, min_tokens=0, overlap_tokens=0)))
    assert [c.text.startswith("Cost of Sales:") for c in chunks] == [False, True]
    assert chunks[0].text.endswith("went up.")
    # a lead-in of several sentences is no label: it stays where the packing put it
    lead = "Costs grew. The reasons were these:"
    loaded = md(f"# A\n\n{first}\n\n{lead}\n\n{second}\n")
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=120, min_tokens=0, overlap_tokens=0)))
    assert chunks[0].text.endswith(lead)


def test_small_chunk_merges_with_a_neighbour_of_the_same_path():
    para = " ".join(f"Sentence {i} carries some words." for i in range(12))
    loaded = md(f"# A\n\n{para}\n\nTail.\n")
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=200, min_tokens=30, overlap_tokens=0)))
    assert len(chunks) == 1 and chunks[0].text.endswith("Tail.")
    unmerged = list(chunk(loaded, ChunkOptions(max_tokens=200, min_tokens=0, overlap_tokens=0)))
    assert len(unmerged) == 1  # both fit anyway: merging must not change a fitting pack
    split = list(chunk(loaded, ChunkOptions(max_tokens=70, min_tokens=5, overlap_tokens=0)))
    assert split[-1].text.endswith("Tail.") and all(c.token_count <= 70 for c in split)


def test_overlap_is_whole_sentences_within_budget_and_section():
    para = " ".join(f"Point {i} is made clearly here." for i in range(30))
    loaded = md(f"# A\n\n{para}\n\n## B\n\n{para}\n")
    tok = get_tokenizer("cl100k_base")
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=60, min_tokens=0, overlap_tokens=20)))
    for prev, cur in zip(chunks, chunks[1:]):
        if cur.heading_path != prev.heading_path:
            assert cur.overlap_tokens == 0  # never across sections
            continue
        assert 0 < cur.overlap_tokens <= 20
        first_sentence = cur.text.split(". ")[0] + "."
        assert cur.text.startswith("Point")  # starts at a sentence, not mid-way
        assert first_sentence in prev.text  # ...that the previous chunk holds
    assert all(c.token_count == tok.count(c.text) <= 60 for c in chunks)


def test_no_overlap_into_or_out_of_a_table():
    para = " ".join(f"Claim {i} is stated." for i in range(25))
    loaded = md(f"# A\n\n{para}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n{para}\n")
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=60, min_tokens=0, overlap_tokens=25)))
    for prev, cur in zip(chunks, chunks[1:]):
        if "table" in prev.kinds[-1:] or cur.kinds[0] == "table":
            assert cur.overlap_tokens == 0


def test_options_are_checked():
    with pytest.raises(ChunkerError, match="overlap_tokens"):
        ChunkOptions(max_tokens=50, min_tokens=10, overlap_tokens=50)
    with pytest.raises(ChunkerError, match="min_tokens"):
        ChunkOptions(max_tokens=50, min_tokens=60)


def test_blocks_without_source_text_still_chunk():
    blocks = (
        Block("heading", "Intro", ("T", "Intro"), level=1),
        Block("paragraph", "First sentence. Second sentence.", ("T", "Intro"), page=2),
        Block("table", "| a |\n|---|\n| 1 |", ("T", "Intro"), rows=(("a",), ("1",)), header_rows=1, page=3),
    )
    loaded = Loaded(DOC, blocks)
    (c,) = chunk(loaded, ChunkOptions(max_tokens=100, min_tokens=0))
    assert c.text == "First sentence. Second sentence.\n\n| a |\n|---|\n| 1 |"
    assert (c.page_start, c.page_end, c.start, c.end) == (2, 3, None, None)


def test_ids_are_deterministic_and_embed_text_leads_with_the_path(seeds):
    a = list(chunk(load_file(seeds / "paediatric-fever.md")))
    b = list(chunk(load_file(seeds / "paediatric-fever.md")))
    assert [c.id for c in a] == [c.id for c in b] and len({c.id for c in a}) == len(a)
    assert a[1].heading_path == ("Paediatric fever", "Antipyretic dosing")
    # The root, the document's title, is every chunk's: it leads no chunk's embed_text.
    assert a[1].embed_text == "Antipyretic dosing\n\n" + a[1].text
    assert all("Paediatric fever" not in c.embed_text.partition("\n\n")[0] for c in a)


def test_embed_text_of_a_chunk_under_the_root_alone_is_its_text():
    c = Chunk("id", "doc", 0, "Body.", ("Title",), ("paragraph",), 2, 0, Citation("u", "n", "text/plain", "", ""))
    assert c.embed_text == "Body."
    assert replace(c, heading_path=()).embed_text == "Body."
    assert replace(c, heading_path=("Title", "A", "B")).embed_text == "A > B\n\nBody."


@pytest.mark.parametrize("tokenizer", ["cl100k_base", "o200k_base"])
def test_token_counts_are_exact_on_real_markdown(corpus, tokenizer):
    """Per-block counts joined at seams must equal tiktoken encoding each chunk's text directly."""
    encode = tokens.encoding(tokenizer).encode_ordinary
    files = sorted((corpus / "docling" / "md" / "sources").glob("*.md")) + sorted(
        (corpus / "unstructured" / "example-docs").glob("*.md")
    )
    files += sorted((corpus / "chunking_evaluation" / "corpora").glob("*.md"))
    assert len(files) >= 5
    checked = 0
    for path in files:
        loaded = load_file(path)
        for options in (ChunkOptions(512, 64, 48, tokenizer), ChunkOptions(96, 16, 24, tokenizer)):
            for c in chunk(loaded, options):
                assert c.token_count == len(encode(c.text)), (path.name, c.chunk_index)
                checked += 1
    assert checked > 200


def test_a_long_code_line_after_a_group_keeps_the_source_seam():
    """Found by the property test: the seam before a word-split line must be the text between it
    and the line before it, not reach back over lines already placed."""
    loaded = md("# A\n\n```\nx = a\nx = a_a_a_aaa_aaaa_aaaaaa\n```")
    chunks = list(chunk(loaded, ChunkOptions(24, 0, 0, "chars")))
    assert all(c.text == loaded.text[c.start : c.end] for c in chunks)
    assert sum(len(c.text) for c in chunks) <= len(loaded.text)  # nothing repeated


def test_list_items_without_source_text_get_their_markers_back(corpus):
    """Word and PDF list items keep the marker apart from the text; a chunk shows it again,
    indented by level, one item a line."""
    from ingest import clean_blocks

    loaded = load_file(corpus / "unstructured" / "example-docs" / "example-list-items-multiple.docx")
    text = "\n".join(c.text for c in chunk(loaded, ChunkOptions(max_tokens=512), clean_blocks(loaded)))
    assert "1) This is simply dummy text" in text
    assert "\n  a) The quick brown fox jumps over the lazy dog.\n  b) The quick brown fox" in text


def test_a_heading_with_only_subheadings_is_not_a_chunk_of_its_own():
    """A heading with no body that the next heading is not under ("Orphan") was a chunk of its
    own until #25; now it travels in the text of the section that follows."""
    blocks = (
        Block("heading", "Policy", ("Policy",), level=1),
        Block("heading", "Booking", ("Policy", "Booking"), level=1),  # a loader may level both 1
        Block("paragraph", "Book early.", ("Policy", "Booking")),
        Block("heading", "Orphan", ("Policy", "Orphan"), level=2),
        Block("heading", "Next", ("Policy", "Next"), level=2),
        Block("paragraph", "More.", ("Policy", "Next")),
    )
    chunks = list(chunk(Loaded(DOC, blocks), ChunkOptions(max_tokens=100, min_tokens=0)))
    assert [(c.heading_path, c.text) for c in chunks] == [
        (("Policy", "Booking"), "Book early."),
        (("Policy", "Next"), "Orphan\n\nNext\n\nMore."),
    ]


def test_a_split_nested_item_keeps_its_indent_in_the_text():
    """Found in review: the first piece of a split block dropped the indentation before it."""
    loaded = md("- top\n    - " + "nested item words. " * 20 + "\n")
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=64, min_tokens=0, overlap_tokens=0)))
    assert chunks[0].text.startswith("- top\n    - nested")
    assert all(c.text == loaded.text[c.start : c.end] for c in chunks)


def test_joining_onto_an_empty_side_counts_exactly():
    tok = get_tokenizer("cl100k_base")
    assert tok.join(":", 1, "\n", "", 0) == tok.count(":\n")
    assert tok.join("", 0, "\n\n", "x.", tok.count("x.")) == tok.count("\n\nx.")


def test_chunk_offsets_follow_the_documented_rule_on_real_markdown(corpus):
    """`text == source[start:end]`, but for dropped content joined over, a split table's repeated
    header, a heading standing alone, and headings shown in the text (since #25: a heading with
    no body, or one between a short introduction and its subsection), which show their text
    without the markup (see `Chunk.start`)."""
    files = sorted((corpus / "docling" / "md" / "sources").glob("*.md"))
    files += sorted((corpus / "unstructured" / "example-docs").glob("*.md"))
    checked = 0
    for path in files:
        loaded = load_file(path)
        headings = {b.text for b in loaded.blocks if b.kind == "heading"}
        for options in (ChunkOptions(512, 64, 48), ChunkOptions(48, 8, 16), ChunkOptions(200, 0, 0, "chars")):
            for c in chunk(loaded, options):
                piece = loaded.text[c.start : c.end]
                checked += 1
                if c.text == piece or "table" in c.kinds or c.kinds == ("heading",):
                    continue
                at = 0
                for part in c.text.split("\n\n"):  # joined over dropped content: parts in order
                    if part in headings and "heading" in c.kinds and part not in piece[at:]:
                        continue
                    at = piece.index(part, at) + len(part)
    assert checked > 100


def test_whole_section_shortcut_gives_the_packers_chunks(corpus, monkeypatch):
    """A section that fits is counted whole instead of block by block: the chunks must be the
    ones packing every block gives, field for field."""
    from ingest.chunker import pack

    files = sorted((corpus / "docling" / "md" / "sources").glob("*.md")) + sorted(
        (corpus / "unstructured" / "example-docs").glob("*.md")
    )
    files += sorted((corpus / "chunking_evaluation" / "corpora").glob("*.md"))
    settings = [
        ChunkOptions(512, 64, 48),
        ChunkOptions(96, 16, 24),
        ChunkOptions(300, 0, 0, "o200k_base"),
        ChunkOptions(700, 0, 120, "chars"),
    ]
    taken, whole = [], pack._whole
    monkeypatch.setattr(pack, "_whole", lambda *a: taken.append(whole(*a)) or taken[-1])
    shortcut = [[c for o in settings for c in chunk(load_file(p), o)] for p in files]
    assert sum(d is not None for d in taken) > 100 and None in taken  # taken often, not always
    monkeypatch.setattr(pack, "WHOLE_SECTION_CHARS", 0)
    taken.clear()
    packed = [[c for o in settings for c in chunk(load_file(p), o)] for p in files]
    assert set(taken) == {None}
    assert shortcut == packed
