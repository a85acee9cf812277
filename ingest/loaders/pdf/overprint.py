"""Text printed twice for a bold or shadow effect, read once.

A cover title set "bold" by drawing its glyphs a second time a little offset reaches MuPDF as
two copies; where the offset is too large for MuPDF to merge them, the copies interleave
("NEEBBR RA ASSK") or repeat the line. The page's own evidence: the same character at nearly the
same place, which no honest text has (two like letters side by side are a glyph's width apart).
"""

from __future__ import annotations

from .lines import RawText
from .thresholds import BASELINE_SLACK, FLAG_BOLD, OVERPRINT_OFFSET, OVERPRINT_SHIFT, OVERPRINT_WIDTH_SHARE, SAME_ROW


def single_printed(raw: RawText, blocks: list[dict]) -> list[dict]:
    """The text blocks ("dict" output) with each overprinted character kept once, as bold.

    Only a block whose lines overlap on one row (the mark of a second copy) pays for the
    character-level pass; a block that turns out to hold no copy is returned as it was.
    """
    suspects = [i for i, b in enumerate(blocks) if _overlapping_lines(b["lines"])]
    if not suspects:
        return blocks
    chars = raw()
    out = list(blocks)
    for i in suspects:
        if i < len(chars) and len(chars[i]["lines"]) == len(blocks[i]["lines"]):
            out[i] = _rebuilt(blocks[i], chars[i]) or blocks[i]
    return out


def _overlapping_lines(lines: list[dict]) -> bool:
    """Two lines of the block overlap on one row and the second opens on the letter or digit a span
    of the first opens on, at nearly the same place: the second is a copy (MuPDF starts a line
    where the pen jumps back; a formula's commas and brackets overlap without being one)."""
    for a, b in zip(lines, lines[1:]):
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = a["bbox"], b["bbox"]
        if min(ay1, by1) - max(ay0, by0) > SAME_ROW * min(ay1 - ay0, by1 - by0) and bx0 < ax1 - 1 and bx1 > ax0 + 1:
            span = next((s for s in b["spans"] if s["text"].strip()), None)
            c = span["text"].lstrip()[:1] if span else ""
            if (
                span is not None
                and c.isalnum()
                and any(
                    s["text"].lstrip()[:1] == c and abs(span["bbox"][0] - s["bbox"][0]) < OVERPRINT_SHIFT * s["size"]
                    for s in a["spans"]
                )
            ):
                return True
    return False


def _rebuilt(block: dict, raw: dict) -> dict | None:
    """The block with its second copies dropped and its lines set again, or None: no copies."""
    kept: list[tuple[dict, dict, bool]] = []  # (char, its span, printed twice)
    by_char: dict[str, list[int]] = {}
    dropped = False
    for line in raw["lines"]:
        for span in line["spans"]:
            for char in span["chars"]:
                c = char["c"]
                twin = next((k for k in by_char.get(c, ()) if _same_place(kept[k][0], char, span["size"])), None)
                if twin is not None:
                    if not c.isspace():
                        kept[twin] = (kept[twin][0], kept[twin][1], True)
                    dropped = True
                    continue
                by_char.setdefault(c, []).append(len(kept))
                kept.append((char, span, False))
    if not dropped:
        return None
    return {**block, "lines": _lines(kept, block["lines"][0]["dir"])}


def _same_place(a: dict, b: dict, size: float) -> bool:
    (ax, ay), (bx, by) = a["origin"], b["origin"]
    width = a["bbox"][2] - a["bbox"][0]
    return (
        abs(ax - bx) < min(OVERPRINT_WIDTH_SHARE * width, OVERPRINT_OFFSET * size)
        and abs(ay - by) < OVERPRINT_OFFSET * size
    )


def _lines(kept: list[tuple[dict, dict, bool]], direction: tuple[float, float]) -> list[dict]:
    """Characters in MuPDF's order grouped into lines (a new one where the baseline moves or the
    text runs back) and the lines into spans of one type."""
    rows: list[list[tuple[dict, dict, bool]]] = []
    for entry in kept:
        char, span, _ = entry
        if rows:
            last = rows[-1][-1][0]
            if abs(char["origin"][1] - last["origin"][1]) <= BASELINE_SLACK * span["size"] and (
                char["bbox"][0] >= last["bbox"][0] or char["c"].isspace()
            ):
                rows[-1].append(entry)
                continue
        rows.append([entry])
    return [
        {"spans": _spans(row), "bbox": _union([c["bbox"] for c, _, _ in row]), "dir": direction, "wmode": 0}
        for row in rows
    ]


def _spans(row: list[tuple[dict, dict, bool]]) -> list[dict]:
    spans: list[dict] = []
    for char, span, twice in row:
        flags = span["flags"] | FLAG_BOLD if twice else span["flags"]
        if spans and (spans[-1]["font"], spans[-1]["size"], spans[-1]["flags"]) == (span["font"], span["size"], flags):
            spans[-1]["text"] += char["c"]
            spans[-1]["bbox"] = _union([spans[-1]["bbox"], char["bbox"]])
            continue
        spans.append(
            {
                "text": char["c"],
                "bbox": tuple(char["bbox"]),
                "size": span["size"],
                "font": span["font"],
                "flags": flags,
                "origin": char["origin"],
            }
        )
    return spans


def _union(boxes: list) -> tuple[float, float, float, float]:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
