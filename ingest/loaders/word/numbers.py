"""List and note numbers as a word processor shows them ("iv", "b", "02", "3rd"): Word's number
formats, which Google Docs' glyph types map onto, so both loaders number lists alike."""

from __future__ import annotations


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
