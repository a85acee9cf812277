"""Properties over generated Markdown: nothing lost or reordered (headings included), a chunk spans
two heading paths only to join a section under `min_tokens` or headings with no body of their own,
no table row cut, budgets hold, counts exact."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ingest import ChunkOptions, chunk
from ingest.blocks import Document
from ingest.chunker.metrics import defects
from ingest.chunker.tokens import get_tokenizer
from ingest.loaders.markdown import tokens as markdown_tokens
from ingest.loaders.markdown.loader import parse

DOC = Document(id="p", uri="p", name="p.md", mime_type="text/markdown", title="p")

word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=9)
sentence = st.builds(
    lambda ws, end: " ".join(ws).capitalize() + end,
    st.lists(word, min_size=1, max_size=14),
    st.sampled_from([".", "!", "?", ".", ":"]),
)
paragraph = st.lists(sentence, min_size=1, max_size=8).map(" ".join)
heading = st.builds(
    lambda level, ws: "#" * level + " " + " ".join(ws).title(),
    st.integers(1, 3),
    st.lists(word, min_size=1, max_size=4),
)
bullets = st.lists(sentence, min_size=1, max_size=6).map(lambda items: "\n".join(f"- {s}" for s in items))
table = st.builds(
    lambda cols, rows: "\n".join(
        ["| " + " | ".join(f"h{c}" for c in range(cols)) + " |", "|" + "---|" * cols]
        + ["| " + " | ".join(f"{w}{r}" for w in row[:cols]) + " |" for r, row in enumerate(rows)]
    ),
    st.integers(1, 4),
    st.lists(st.lists(word, min_size=4, max_size=4), min_size=1, max_size=12),
)
code = st.lists(
    st.lists(word, min_size=1, max_size=6).map(lambda ws: "x = " + "_".join(ws)), min_size=1, max_size=15
).map(lambda lines: "```\n" + "\n".join(lines) + "\n```")
document = st.lists(st.one_of(heading, paragraph, paragraph, bullets, table, code), min_size=1, max_size=14).map(
    "\n\n".join
)
options = st.builds(
    lambda mx, mn, ov, tk: ChunkOptions(mx, min(mn, mx), min(ov, mx - 1), tk),
    st.integers(24, 300),
    st.integers(0, 80),
    st.integers(0, 60),
    st.sampled_from(["cl100k_base", "chars"]),
)


@settings(max_examples=80, deadline=None)
@given(text=document, opts=options)
def test_chunking_invariants(text, opts):
    loaded = parse(text, DOC)
    assert loaded == parse(text, DOC, parser=markdown_tokens.events)  # either parser, same blocks
    content = [b for b in loaded.blocks if b.kind != "heading"]
    chunks = list(chunk(loaded, opts))
    tok = get_tokenizer(opts.tokenizer)

    for c in chunks:
        assert c.token_count == tok.count(c.text)
        inside = [b for b in loaded.blocks if c.start <= b.start and b.end <= c.end]
        if "table" not in c.kinds:  # else the text is a source slice, a heading shown without its #s
            shown = loaded.text[c.start : c.end]
            for b in reversed([b for b in inside if b.kind == "heading"]):
                shown = shown[: b.start - c.start] + b.text + shown[b.end - c.start :]
            assert c.text == shown
        touched = [b for b in loaded.blocks if b.start < c.end and b.end > c.start]
        # the chunk's path is the path of a block it holds, or of the section the headings it
        # holds travel with (a run of them over budget is a chunk of its own)
        ahead = {b.path for b in loaded.blocks if b.end > c.start}
        assert touched and c.heading_path in ({b.path for b in touched} if c.kinds != ("heading",) else ahead)
        # content under two paths in one chunk: a section under min_tokens joined to the next,
        # and the heading that opens the next stands between them
        if len({b.path for b in touched if b.kind != "heading"}) > 1:
            assert opts.min_tokens > 0 and "heading" in c.kinds
        if c.kinds == ("heading",):  # headings close the document or go before the rest of their section
            after = chunks[c.chunk_index + 1 :]
            assert not after or after[0].heading_path == c.heading_path
        # budgets hold, except a single unit that cannot be split (a table row with its header,
        # a heading standing alone)
        if c.token_count > opts.max_tokens and c.kinds != ("heading",):
            assert (
                c.kinds == ("table",) and len([line for line in c.text.split("\n") if line.startswith("| ")]) <= 2 + 1
            )

    # no heading lost: each is in some chunk's path or shown in its text
    for b in loaded.blocks:
        if b.kind == "heading" and b.text.strip():
            assert any(b.text in c.heading_path for c in chunks) or any(
                c.start <= b.start and b.end <= c.end and "heading" in c.kinds for c in chunks
            ), b.text
    # nothing lost: every non-space character of every content block lies inside some chunk
    # (a split table's pieces span their rows only; its rows and header are checked below)
    covered = sorted((c.start, c.end) for c in chunks)
    for b in content:
        if b.kind == "table":
            continue
        for i in range(b.start, b.end):
            if not loaded.text[i].isspace():
                assert any(s <= i < e for s, e in covered), (b.kind, loaded.text[i - 5 : i + 5])
    # nothing reordered: chunks advance through the document
    starts = [c.start for c in chunks]
    ends = [c.end for c in chunks]
    assert starts == sorted(starts) and ends == sorted(ends)
    assert [c.chunk_index for c in chunks] == list(range(len(chunks)))

    d = defects(loaded.text, content, chunks)
    assert d.orphaned_table_rows == 0 and d.headerless_table_pieces == 0
