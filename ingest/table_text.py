"""The one pipe-table rendering every loader and cleaner uses, so a re-rendered table reads the same."""

from __future__ import annotations

import re
from collections.abc import Sequence

_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-{3,}")

_CURRENCY = r"(?:US\$|[$\u20ac\u00a3\u00a5])"
_LEADING = re.compile(rf"^(?:{_CURRENCY}\(?|\(|\({_CURRENCY})$")
"""A cell that only opens the figure to its right: a currency sign, an opening parenthesis."""
_TRAILING = re.compile(r"^(?:\)|%|%\)|\)%)$")
"""A cell that only closes the figure to its left: a closing parenthesis, a percent sign."""
_FIGURE = re.compile(rf"^[-+]?(?:{_CURRENCY}\s?)?\(?[-+]?\d[\d,.]*\)?%?\)?$|^(?:{_CURRENCY}\s?)?[\u2014\u2013-]$")
"""An amount, a percentage, a year, or a dash for nil: what a figure column holds."""
_SIGN_AT_END = re.compile(rf"^(.*\S)\s+({_CURRENCY})$")
"""A cell whose figure is followed by the next column's currency sign ("2,346,310 $")."""
_SIGN_SPACE = re.compile(rf"^({_CURRENCY})\s+(?=[\d(])")


def render_table(rows: Sequence[Sequence[str]], header_rows: int = 1) -> str:
    """Rows as a Markdown pipe table; a delimiter line follows the header rows (if any).

    A cell stands between its pipes without padding (`|Net income|$5,363|`, valid GFM, parsed to
    the same cells) and an empty cell is two bare pipes: the spaces around a pipe are a token each
    in cl100k, two to four a row of a statement, and tables read from PDFs are mostly short cells
    and empty ones (spacer and currency columns). The cells are shown as `table_cells` lays them
    out: signs with their figures, no column empty in every row, a figure column split in two put
    back together.
    """
    text = table_cells(rows, header_rows)
    width = max((len(r) for r in text), default=0)
    lines = []
    for i, row in enumerate(text):
        lines.append("|" + "|".join(row) + "|")
        if header_rows and i == header_rows - 1:
            lines.append("|" + "---|" * width)
    return "\n".join(lines)


def table_cells(rows: Sequence[Sequence[str]], header_rows: int = 0) -> list[list[str]]:
    """The cells a table shows, row by row, all rows as wide: each cell on one line, and three
    kinds of cell that hold nothing of their own put with what they belong to.

    Financial tables set in PDFs (and Word files converted from them) give a currency sign, the
    parentheses of a negative amount and a percent sign columns of their own, and spacer columns
    between the figures; about half their cells are empty, and every one costs a pipe. So:

    - a cell that is only a sign goes into the figure beside it (`$ | 1,577` reads `$1,577`,
      `(1,577 | )` reads `(1,577)`), and a sign at the end of a figure's cell that opens the next
      column's figure (`2,346,310 $ | 198.16`) moves to it;
    - a column empty in every row is left out: it holds nothing to read;
    - two neighbouring columns that never both hold a cell in one row, hold only figures below the
      header rows, and were split by a sign in a cell of its own, are one column of figures that the
      signs split (rows with a sign put their figure in one column, rows without it in the other).
      Without the sign, columns that never share a row (debit and credit) stay apart.

    The block's own rows keep every cell as read; this is only how they are shown.
    """
    text = [[_cell(c) for c in row] for row in rows]
    width = max((len(r) for r in text), default=0)
    text = [r + [""] * (width - len(r)) for r in text]
    # Where a sign stood in a cell of its own, its figure's column may have been split in two: an
    # opening sign's column and the one after it, a closing sign's column and the one before it.
    opens = [any(_LEADING.match(r[j]) for r in text) for j in range(width)]
    closes = [any(_TRAILING.match(r[j]) for r in text) for j in range(width)]
    for row in text:
        _attach_signs(row)
    columns = [([r[j] for r in text], opens[j], closes[j]) for j in range(width)]
    kept = [c for c in columns if any(c[0])] or columns
    merged: list[tuple[list[str], bool, bool]] = []
    for column, opening, closing in kept:
        if merged and (merged[-1][1] or closing) and _one_column(merged[-1][0], column, header_rows):
            merged[-1] = ([a or b for a, b in zip(merged[-1][0], column)], opening, merged[-1][2])
        else:
            merged.append((column, opening, closing))
    return [[c[i] for c, _, _ in merged] for i in range(len(text))]


def _attach_signs(row: list[str]) -> None:
    for j, cell in enumerate(row):
        if not cell:
            continue
        left, right = _next(row, j, -1), _next(row, j, 1)
        if _LEADING.match(cell) and right is not None and _FIGURE.match(cell + row[right]):
            row[right], row[j] = cell + row[right], ""
        elif _TRAILING.match(cell) and left is not None and _FIGURE.match(row[left] + cell):
            row[left], row[j] = row[left] + cell, ""
        elif (moved := _SIGN_AT_END.match(cell)) and right is not None:
            figure, sign = moved.groups()
            if _FIGURE.match(figure) and _FIGURE.match(sign + row[right]) and not _LEADING.match(row[right]):
                row[j], row[right] = figure, sign + row[right]
    for j, cell in enumerate(row):
        if _FIGURE.match(cell):
            row[j] = _SIGN_SPACE.sub(r"\1", cell)


def _next(row: list[str], j: int, step: int) -> int | None:
    """The nearest cell with text from `j` in direction `step`."""
    k = j + step
    while 0 <= k < len(row):
        if row[k]:
            return k
        k += step
    return None


def _one_column(a: list[str], b: list[str], header_rows: int) -> bool:
    if any(x and y for x, y in zip(a, b)):
        return False
    return all(_FIGURE.match(x or y or "0") for x, y in list(zip(a, b))[header_rows:])


def header_lines(lines: Sequence[str], header_rows: int) -> int:
    """How many leading lines of a rendered table are its header: the header rows plus the
    delimiter line under them, when there is one."""
    head = min(header_rows, len(lines))
    if head and head < len(lines) and _DELIMITER_ROW.match(lines[head]):
        head += 1
    return head


def _cell(value: str) -> str:
    # A cell is one line and a pipe inside it must not open a new column.
    return " ".join(str(value).split()).replace("|", "\\|")
