"""The body's type size: the size most characters are set in.

One definition for the PDF loader and the `running_headers` cleaner, fed different evidence,
each what it can see:

- the loader (`pdf/loader.py`, `pdf/figures.py`) counts its lines, table cells included, before
  headings are decided: a form that is mostly tables would otherwise take its few headings for
  the body;
- the cleaner counts the blocks a loader gave (`meta["font_size"]`, a block's first line's size),
  headings and band lines left out, as it runs after loading on blocks alone.

The two give a different size on 8 of the 109 shared PDFs (a tenth of a point mostly; none where
a document has no body blocks); the cleaner reading the loader's size instead moves one file's
chunks (corpus/docling/pdf/sources/right_to_left_03.pdf), so each keeps its own evidence.
"""

from __future__ import annotations

from collections.abc import Iterable


def body_size(sized: Iterable[tuple[float, int]]) -> float:
    """The size with the most characters over (size, characters) pairs; 0.0 for none. A tie goes
    to the size met first, in reading order."""
    chars: dict[float, int] = {}
    for size, n in sized:
        chars[size] = chars.get(size, 0) + n
    return max(chars, key=chars.__getitem__) if chars else 0.0
