"""The one pipe-table rendering every loader and cleaner uses, so a re-rendered table reads the same."""

from __future__ import annotations

from typing import Sequence


def render_table(rows: Sequence[Sequence[str]], header_rows: int = 1) -> str:
    """Rows as a Markdown pipe table; a delimiter line follows the header rows (if any)."""
    width = max((len(r) for r in rows), default=0)
    lines = []
    for i, row in enumerate(rows):
        cells = [_cell(c) for c in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if header_rows and i == header_rows - 1:
            lines.append("|" + "---|" * width)
    return "\n".join(lines)


def _cell(value: str) -> str:
    # A cell is one line and a pipe inside it must not open a new column.
    return " ".join(str(value).split()).replace("|", "\\|")
