"""Word tables as a grid of cell texts.

Merged cells follow the shared table convention: the merged value appears once, in the anchor
(top-left) cell, and the cells it covers are empty strings listed in `covered` (and `merges`), so a
cleaner can tell a merge shadow from a cell that is really empty.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from lxml import etree

from ...blocks import Mark
from .docx_inline import CHANGE_TAGS, MC, W, change_of
from .outline import Table

CellReader = Callable[[etree._Element], tuple[str, list[Mark]]]


def read_table(tbl: etree._Element, read_cell: CellReader) -> Table:
    grid = tbl.find(W + "tblGrid")
    width = len(grid.findall(W + "gridCol")) if grid is not None else 0
    rows: list[list[str]] = []
    covered: list[tuple[int, int]] = []
    cell_marks: list[tuple[int, int, Mark]] = []
    row_marks: list[tuple[int, Mark]] = []
    header_rows = 0
    counting_header = True
    merges: dict[tuple[int, int], list[int]] = {}
    open_v: dict[int, tuple[int, int]] = {}  # grid column -> anchor of the vertical merge running there
    for r, tr in enumerate(_table_children(tbl, W + "tr")):
        trpr = tr.find(W + "trPr")
        col = _table_int(trpr, "gridBefore")
        cells = [""] * col
        for child in trpr if trpr is not None else ():
            if child.tag in CHANGE_TAGS:
                kind, attrs = change_of(child)
                row_marks.append((r, Mark(kind, 0, 0, attrs)))
        is_header = trpr is not None and _on(trpr.find(W + "tblHeader"))
        counting_header = counting_header and is_header
        header_rows += counting_header
        for tc in _table_children(tr, W + "tc"):
            tcpr = tc.find(W + "tcPr")
            span = max(1, _table_int(tcpr, "gridSpan"))
            if _continues(tcpr):
                covered.extend((r, c) for c in range(col, col + span))
                cells.extend([""] * span)
                if col in open_v:
                    merges[open_v[col]][0] = r
            else:
                text, marks = read_cell(tc)
                cells.append(text)
                cell_marks.extend((r, col, m) for m in marks)
                covered.extend((r, c) for c in range(col + 1, col + span))
                cells.extend([""] * (span - 1))
                merges[(r, col)] = [r, col + span - 1]
                if _restarts(tcpr):
                    open_v[col] = (r, col)
                else:
                    open_v.pop(col, None)
            col += span
        cells.extend([""] * _table_int(trpr, "gridAfter"))
        rows.append(cells)
    width = max([width, *(len(r) for r in rows)])
    for cells in rows:  # rows with fewer cells than the grid ("incomplete rows") are padded
        cells.extend([""] * (width - len(cells)))
    guessed = header_rows == 0 and len(rows) > 1
    return Table(
        rows=tuple(tuple(r) for r in rows),
        header_rows=1 if guessed else header_rows,
        header_guessed=guessed,
        covered=tuple(covered),
        cell_marks=tuple(cell_marks),
        row_marks=tuple(row_marks),
        merges=tuple((r, c, r1, c1) for (r, c), (r1, c1) in merges.items() if (r1, c1) != (r, c)),
    )


def _table_children(parent: etree._Element, tag: str) -> Iterator[etree._Element]:
    """Rows of a table or cells of a row, also when a content control or custom XML wraps them."""
    for child in parent:
        if child.tag == tag:
            yield child
        elif child.tag == W + "sdt":
            content = child.find(W + "sdtContent")
            if content is not None:
                yield from _table_children(content, tag)
        elif child.tag == W + "customXml":
            yield from _table_children(child, tag)
        elif child.tag == MC + "AlternateContent":
            choice = child.find(MC + "Choice")
            if choice is not None:
                yield from _table_children(choice, tag)


def _continues(tcpr: etree._Element | None) -> bool:
    """The cell continues a vertical (or legacy horizontal) merge: it is covered by the cell above."""
    if tcpr is None:
        return False
    for tag in ("vMerge", "hMerge"):
        el = tcpr.find(W + tag)
        if el is not None and el.get(W + "val", "continue") == "continue":
            return True
    return False


def _restarts(tcpr: etree._Element | None) -> bool:
    el = tcpr.find(W + "vMerge") if tcpr is not None else None
    return el is not None and el.get(W + "val") == "restart"


def _table_int(parent: etree._Element | None, tag: str) -> int:
    el = parent.find(W + tag) if parent is not None else None
    try:
        return int(el.get(W + "val", "0")) if el is not None else 0
    except ValueError:
        return 0


def _on(el: etree._Element | None) -> bool:
    return el is not None and el.get(W + "val", "true") not in ("0", "false", "off")
