"""List and note numbers as a word processor shows them ("iv", "b", "02", "3rd"): Word's number
formats, which Google Docs' glyph types map onto, so both loaders number lists alike."""

from __future__ import annotations

import re

from ...blocks import ListNumber

_LEVEL_REF = re.compile(r"%([1-9])")


class Counters:
    """List counters as a word processor keeps them reading the document in order: counting at a
    level restarts every deeper one. The loaders count with it, and `track_changes` again after
    resolving, so both give a paragraph the same number where nothing changed."""

    def __init__(self) -> None:
        self._counts: dict[str, list[int | None]] = {}

    def next(self, n: ListNumber) -> str:
        """Count `n` and return the number (or bullet) shown before it."""
        count = self._counts.setdefault(n.counter, [None] * 9)
        level = min(max(n.level, 0), 8)
        current = count[level]
        count[level] = _first(n, level) if current is None else current + 1
        count[level + 1 :] = [None] * (8 - level)
        if n.bullet:
            return n.bullet

        def number(m: re.Match) -> str:
            k = int(m.group(1)) - 1
            value = count[k]
            fmt = n.formats[k][1] if k < len(n.formats) else "decimal"
            return format_number(_first(n, k) if value is None else value, fmt)

        return _LEVEL_REF.sub(number, n.template)


def _first(n: ListNumber, level: int) -> int:
    return n.formats[level][0] if level < len(n.formats) else 1


def format_number(n: int, fmt: str) -> str:
    """`n` in a Word number format ("lowerRoman", "upperLetter", "decimalZero"...)."""
    if fmt in ("lowerLetter", "upperLetter"):
        s = _letters(n)
        return s.upper() if fmt == "upperLetter" else s
    if fmt in ("lowerRoman", "upperRoman"):
        s = roman(n)
        return s.lower() if fmt == "lowerRoman" else s
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt == "none":
        return ""
    if fmt == "ordinal":
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    return str(n)


def _letters(n: int) -> str:
    # Word repeats the letter past z: 27 -> "aa", 28 -> "bb".
    if n <= 0:
        return str(n)
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)


def roman(n: int) -> str:
    if n <= 0:
        return str(n)
    out = []
    for value, digits in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        while n >= value:
            out.append(digits)
            n -= value
    return "".join(out)
