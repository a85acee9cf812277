"""Over-budget text with line breaks but no full stop splits at line ends before spaces; the
whitespace around a cut long line is kept as the source has it."""

from __future__ import annotations

from ingest import ChunkOptions, chunk, load_file
from ingest.blocks import Document
from ingest.chunker.tokens import get_tokenizer
from ingest.loaders.markdown.loader import parse

DOC = Document(id="d", uri="d", name="d.md", mime_type="text/markdown", title="d")
TOK = get_tokenizer("cl100k_base")


def _line_ends(text: str) -> set[int]:
    ends = {len(text.rstrip())}
    pos = text.find("\n")
    while pos != -1:
        ends.add(pos)
        pos = text.find("\n", pos + 1)
    return ends


def test_a_run_of_lines_without_a_full_stop_is_cut_at_line_ends():
    # Inline HTML as READMEs write it: one Markdown paragraph, many lines, no sentence end.
    lines = [
        f'<a href="https://example.org/sponsor/{i}"><img src="https://example.org/logo/{i}.svg" alt="sponsor {i}"></a>'
        for i in range(30)
    ]
    source = "# Sponsors\n\n" + "\n".join(lines) + "\n"
    loaded = parse(source, DOC)
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=120, min_tokens=0, overlap_tokens=0)))
    assert len(chunks) > 3
    ends = _line_ends(source)
    seen = []
    for c in chunks:
        assert c.token_count <= 120 and c.token_count == TOK.count(c.text)
        assert c.end in ends, c.text[-40:]  # never inside a tag or a URL
        assert c.text == source[c.start : c.end]
        seen += c.text.split("\n")
    assert seen == lines  # every line once, whole, in order


def test_a_line_over_budget_inside_such_a_run_still_falls_back_to_words():
    long_line = " ".join(f"item{i}" for i in range(200))
    source = "# L\n\nfirst short line\n" + long_line + "\nlast short line\n"
    loaded = parse(source, DOC)
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=60, min_tokens=0, overlap_tokens=0)))
    assert all(c.token_count <= 60 and c.token_count == TOK.count(c.text) for c in chunks)
    assert " ".join(c.text for c in chunks).split() == ("first short line " + long_line + " last short line").split()
    # the short lines are not split at their spaces
    assert any("first short line" in c.text for c in chunks) and any("last short line" in c.text for c in chunks)


def test_blank_lines_after_a_cut_long_code_line_are_kept():
    long_line = "x = [" + ", ".join(str(i) for i in range(70)) + "]"
    source = "# C\n\n```python\n" + long_line + "\n\n\ny = 1\nz = 2\n```\n"
    loaded = parse(source, DOC)
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=100, min_tokens=0, overlap_tokens=0)))
    assert len(chunks) >= 2
    for c in chunks:
        assert c.text == source[c.start : c.end]
        assert c.token_count == TOK.count(c.text)
    assert any("]\n\n\ny = 1" in c.text for c in chunks)  # the cut line's tail and what follows share a chunk


def test_hard_wrapped_license_is_cut_at_sentence_or_line_ends(corpus):
    # Plain-text licence, wrapped at 80 columns: its long sentences run over many lines.
    loaded = load_file(corpus / "unstructured" / "LICENSE.md")
    ends = _line_ends(loaded.text)
    for max_tokens in (64, 128):
        chunks = list(chunk(loaded, ChunkOptions(max_tokens=max_tokens, min_tokens=0, overlap_tokens=0)))
        assert all(c.token_count <= max_tokens and c.token_count == TOK.count(c.text) for c in chunks)
        mid_line = [c.text[-50:] for c in chunks if c.end not in ends and not c.text.rstrip().endswith((".", ";", ":"))]
        assert mid_line == []


def test_code_over_budget_splits_between_its_paragraphs():
    functions = [
        "\n".join(
            [
                f"def step_{i}(values):",
                f"    total = sum(v * {i} for v in values)",
                f"    scaled = total / {i + 1}",
                f"    print('step {i}', scaled)",
                "    return scaled",
            ]
        )
        for i in range(8)
    ]
    source = "# Steps\n\n```python\n" + "\n\n".join(functions) + "\n```\n"
    loaded = parse(source, DOC)
    chunks = list(chunk(loaded, ChunkOptions(max_tokens=100, min_tokens=0, overlap_tokens=0)))
    assert len(chunks) > 2
    for c in chunks:
        assert c.token_count <= 100 and c.token_count == TOK.count(c.text)
        assert c.text == source[c.start : c.end]
        body = [line for line in c.text.split("\n") if not line.startswith("```")]
        assert body[0].startswith("def ") and body[-1] == "    return scaled", c.text  # whole functions only
