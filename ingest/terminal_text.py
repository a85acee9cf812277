"""Text from strangers (file names, parser messages) made safe to print on a terminal."""

from __future__ import annotations

import re

from rich.markup import escape

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""C0 and C1 controls (ESC starts every terminal escape sequence) and bidi overrides."""


def printable(text: str) -> str:
    """`text` with control characters escaped (`\\x1b`), so a file name cannot drive the terminal."""
    return _UNSAFE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), str(text))


def shown(text: str) -> str:
    """`printable`, and safe inside rich markup (a file named `[red]x.md` is not a colour)."""
    return escape(printable(text))
