"""Issue #25 item 7: headings with no body of their own and sections under `min_tokens`.

Block streams written by hand; expected chunks follow from the rule: a heading with no body
(followed by a heading not under it) travels in the text of the section that follows, under that
section's path; a section that packs into one chunk under `min_tokens` joins the first chunk of the
next section when its path is an ancestor of the next one's and both fit, the next section's
headings standing between them, and the joined chunk keeps the deeper path (which names both).
Counts use the "chars" tokenizer so every budget here can be checked by hand.
"""

from __future__ import annotations

from ingest import ChunkOptions, chunk
from ingest.blocks import Block, Document, Loaded
from ingest.loaders.markdown.loader import parse

DOC = Document(id="d", uri="d", name="d.md", mime_type="text/markdown", title="d")
PARA = "Revenue grew in every region as prices rose."  # 44 characters


def h(text: str, *path: str) -> Block:
    return Block("heading", text, path, level=len(path))


def p(text: str, *path: str) -> Block:
    return Block("paragraph", text, path)


def chunks_of(blocks, max_tokens=200, min_tokens=0):
    options = ChunkOptions(max_tokens=max_tokens, min_tokens=min_tokens, overlap_tokens=0, tokenizer="chars")
    return [(c.heading_path, c.text) for c in chunk(Loaded(DOC, tuple(blocks)), options)]


def test_a_cover_page_of_headings_travels_with_the_section_that_follows():
    blocks = [
        h("Annual Report 2023", "Annual Report 2023"),
        h("Corporate Overview", "Corporate Overview"),
        h("By Revenue", "By Revenue"),
        p(PARA, "By Revenue"),
    ]
    # min_tokens 0: travelling is not a merge, it happens whatever the sizes
    assert chunks_of(blocks) == [
        (("By Revenue",), f"Annual Report 2023\n\nCorporate Overview\n\nBy Revenue\n\n{PARA}"),
    ]


def test_an_ancestor_heading_before_a_bare_one_travels_with_it():
    # "Part I" holds "Cover" (so is no bare heading itself), but "Cover" has no body: the run
    # since the last content goes to "Item 1"'s text, "Part I" with it (it is in no later path)
    blocks = [
        p("Preface.", "Front"),
        h("Part I", "Part I"),
        h("Cover", "Part I", "Cover"),
        h("Item 1", "Item 1"),
        p(PARA, "Item 1"),
    ]
    assert chunks_of(blocks) == [
        (("Front",), "Preface."),
        (("Item 1",), f"Part I\n\nCover\n\nItem 1\n\n{PARA}"),
    ]


def test_a_heading_over_a_deeper_one_stays_in_the_path_only():
    blocks = [h("Part I", "Part I"), h("Item 1", "Part I", "Item 1"), p(PARA, "Part I", "Item 1")]
    assert chunks_of(blocks, min_tokens=10) == [(("Part I", "Item 1"), PARA)]


def test_headings_closing_the_document_are_one_chunk():
    blocks = [p(PARA, "A"), h("Notes", "Notes"), h("Contact", "Contact")]
    assert chunks_of(blocks) == [(("A",), PARA), (("Contact",), "Notes\n\nContact")]


def test_a_short_introduction_joins_the_first_subsection_under_the_deeper_path():
    blocks = [
        h("Results", "Results"),
        p("In brief.", "Results"),  # 9 characters, under min_tokens 20
        h("Revenue", "Results", "Revenue"),
        p(PARA, "Results", "Revenue"),
    ]
    assert chunks_of(blocks, min_tokens=20) == [(("Results", "Revenue"), f"In brief.\n\nRevenue\n\n{PARA}")]
    # without min_tokens nothing is joined
    assert chunks_of(blocks) == [(("Results",), "In brief."), (("Results", "Revenue"), PARA)]


def test_a_short_section_does_not_join_a_sibling():
    # one of the two headings would be in no chunk's path: a heading filter could not find it
    blocks = [h("Costs", "Costs"), p("Flat.", "Costs"), h("Revenue", "Revenue"), p(PARA, "Revenue")]
    assert chunks_of(blocks, min_tokens=20) == [(("Costs",), "Flat."), (("Revenue",), PARA)]


def test_short_sections_join_in_a_chain_until_the_chunk_reaches_min_tokens():
    blocks = [
        h("A", "A"),
        p("One.", "A"),
        h("B", "A", "B"),
        p("Two.", "A", "B"),  # "One.\n\nB\n\nTwo." is 13 characters: still under 20, so it joins C
        h("C", "A", "B", "C"),
        p(PARA, "A", "B", "C"),
        h("D", "D"),
        p("Four.", "D"),  # the last section: no next section to join
    ]
    assert chunks_of(blocks, min_tokens=20) == [
        (("A", "B", "C"), f"One.\n\nB\n\nTwo.\n\nC\n\n{PARA}"),
        (("D",), "Four."),
    ]


def test_a_short_section_stays_alone_when_the_join_is_over_budget():
    # 5 + 2 + 1 + 2 + 44 = 54 characters joined, over a budget of 50: no join, nothing cut
    blocks = [h("A", "A"), p("Flat.", "A"), h("B", "A", "B"), p(PARA, "A", "B")]
    assert chunks_of(blocks, max_tokens=50, min_tokens=20) == [(("A",), "Flat."), (("A", "B"), PARA)]


def test_a_table_is_never_cut_to_make_room_for_a_join():
    table = "|Drug|Dose|\n|---|---|\n|A|1 mg|\n|B|2 mg|"  # 39 characters
    blocks = [
        h("Notes", "Notes"),
        p("See below.", "Notes"),
        h("Doses", "Notes", "Doses"),
        Block("table", table, ("Notes", "Doses"), rows=(("Drug", "Dose"), ("A", "1 mg"), ("B", "2 mg")), header_rows=1),
    ]
    # joined: 10 + 2 + 5 + 2 + 39 = 58 characters
    joined = [(("Notes", "Doses"), f"See below.\n\nDoses\n\n{table}")]
    assert chunks_of(blocks, max_tokens=58, min_tokens=20) == joined
    assert chunks_of(blocks, max_tokens=57, min_tokens=20) == [(("Notes",), "See below."), (("Notes", "Doses"), table)]


def test_a_section_of_several_chunks_is_not_joined_to_the_next():
    # "A" packs into two chunks: a section that is not alone in its chunks never joins the next,
    # so A's last chunk stays apart from B; B, alone and small, joins its subsection C
    long = " ".join(["Sales rose."] * 8)  # 95 characters
    blocks = [h("A", "A"), p(long, "A"), p(long, "A"), h("B", "A", "B"), p("Tiny.", "A", "B")]
    blocks += [h("C", "A", "B", "C"), p(PARA, "A", "B", "C")]
    got = chunks_of(blocks, max_tokens=100, min_tokens=10)
    assert got == [(("A",), long), (("A",), long), (("A", "B", "C"), f"Tiny.\n\nC\n\n{PARA}")]


def test_markdown_cover_headings_keep_their_words_in_the_chunk():
    loaded = parse(f"# Annual Report\n\n# Overview\n\n## Revenue\n\n{PARA}\n", DOC)
    (c,) = chunk(loaded, ChunkOptions(max_tokens=200, min_tokens=0, overlap_tokens=0))
    assert c.heading_path == ("d", "Overview", "Revenue")
    assert c.text == f"Annual Report\n\nOverview\n\nRevenue\n\n{PARA}"
    assert (c.start, c.end) == (0, len(loaded.text.rstrip()))
    assert c.kinds == ("heading", "paragraph")
