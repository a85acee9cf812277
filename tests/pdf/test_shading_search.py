"""`tables.shading_within` searches a fill's neighbours by place (squares of `_CELL` points), not
each fill against all: the answer must be the one the search of all gives, fills on the squares'
edges and half a point apart included."""

from __future__ import annotations

import random

import pytest

from ingest.loaders.pdf import tables


def _fills(seed: int) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for _ in range(12):  # cells, each shaded and again line by line, beside bands of other colours
        colour = rng.choice((0xDDDDDD, 0xFFFFFF, 0x3366AA))
        x, y = rng.choice((0.0, 31.7, 32.0, 63.9)) + rng.uniform(0, 300), rng.uniform(0, 600)
        w, h = rng.uniform(40, 160), rng.uniform(20, 90)
        out.append((colour, (x, y, x + w, y + h)))
        for k in range(rng.randint(0, 3)):
            out.append((colour, (x + 2, y + 2 + 12 * k, x + w - 2, y + 12 + 12 * k)))
        if rng.random() < 0.5:  # a neighbour meeting a side, or half a point short of it
            gap = rng.choice((0.0, 0.4, 0.6))
            out.append((rng.choice((0x112233, 0xDDDDDD)), (x + w + gap, y, x + w + gap + 30, y + h)))
    return [{"isrect": True, "stroked": False, "color": c, "bbox": b} for c, b in out]


@pytest.mark.parametrize("seed", range(40))
def test_the_search_by_place_finds_what_the_search_of_all_finds(seed, monkeypatch):
    vectors = _fills(seed)
    by_place = tables.shading_within(vectors)
    monkeypatch.setattr(tables, "_touching", lambda grid, box: {j for ids in grid.values() for j in ids})
    assert by_place == tables.shading_within(vectors)


def test_fills_found_by_place_are_hidden_as_before():
    # A shaded cell with two shaded lines inside it, inset by its padding: both lines draw nothing.
    cell = {"isrect": True, "stroked": False, "color": 0xDDDDDD, "bbox": (100.0, 100.0, 300.0, 140.0)}
    lines = [
        {"isrect": True, "stroked": False, "color": 0xDDDDDD, "bbox": (102.0, 102.0 + 14 * k, 298.0, 114.0 + 14 * k)}
        for k in range(2)
    ]
    hidden, shading = tables.shading_within([cell, *lines])
    assert hidden == {1, 2} and shading == {1, 2}


def test_a_neighbour_half_a_point_away_across_a_square_s_edge_is_found():
    # The line's fill ends at 63.8, another colour starts at 64.2, in the next square: it meets the
    # fill's side (within half a point), so the fill shows an edge and is not hidden.
    cell = {"isrect": True, "stroked": False, "color": 0xDDDDDD, "bbox": (10.0, 10.0, 200.0, 60.0)}
    line = {"isrect": True, "stroked": False, "color": 0xDDDDDD, "bbox": (12.0, 12.0, 63.8, 24.0)}
    other = {"isrect": True, "stroked": False, "color": 0x112233, "bbox": (64.2, 12.0, 90.0, 24.0)}
    hidden, _ = tables.shading_within([cell, line, other])
    assert 1 not in hidden
