"""Figure callouts: a figure set large ("72%", "$575K", "3x") with its label in small type under it.

Designed reports set such callouts side by side, and MuPDF's blocks often cut across them (both
figures in one block, the labels in others), so read by block or by row the figures and labels
interleave ("72% 81% of employees of people leaders"). The evidence is the type and the place: a
line that is only a figure, in type at least half again the size of the lines right under it,
that stand within its width and open in words. Each figure and its labels become one paragraph
of their own.
"""

from __future__ import annotations

from collections.abc import Sequence

from .lines import FIGURE
from .model import Line
from .thresholds import CALLOUT_GAP, CALLOUT_SIZE_RATIO


def callouts(lines: Sequence[Line]) -> list[list[Line]]:
    """Groups of lines, each a figure and the labels stacked right under it (top to bottom)."""
    # One digit alone is a chapter's or a step's number more often than a figure.
    figures = [line for line in lines if len(line.text.strip()) > 1 and FIGURE.match(line.text.strip())]
    if not figures:
        return []
    taken: set[int] = set()
    groups = []
    below = sorted(lines, key=lambda line: line.bbox[1])
    for figure in sorted(figures, key=lambda line: line.bbox[1]):
        if id(figure) in taken:
            continue
        group = [figure]
        x0, x1 = figure.bbox[0], figure.bbox[2]
        for line in below:
            last = group[-1]
            if id(line) in taken or line is figure or line.bbox[1] < figure.bbox[1]:
                continue
            centre = (line.bbox[0] + line.bbox[2]) / 2
            if not x0 <= centre <= x1:
                continue
            if line.size * CALLOUT_SIZE_RATIO > figure.size or line.bbox[1] - last.bbox[3] > CALLOUT_GAP * line.height:
                break  # the labels stop at larger type or at a gap wider than their own lines
            if len(group) == 1 and not _words(line.text):
                break  # a row of a table's figures under a larger one, not a label
            group.append(line)
        if len(group) > 1:
            taken.update(id(line) for line in group)
            groups.append(group)
    return groups


def _words(text: str) -> bool:
    """Mostly letters: a label, not more figures."""
    letters = sum(c.isalpha() for c in text)
    return letters * 2 >= len(text) - text.count(" ")
