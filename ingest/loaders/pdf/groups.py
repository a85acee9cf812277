"""Items joined into groups, transitively: table cells that share a corner, a drawing's marks
that come close. A union-find with path halving, so a page of a thousand marks stays cheap."""

from __future__ import annotations

from collections.abc import Iterable


class Groups:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def root(self, i: int) -> int:
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def attach(self, i: int, root: int) -> None:
        """Put i's group under `root`, which must be a group's root: the item being placed, which
        nothing was put under yet but by this call, costs one walk instead of two."""
        self.attach_all((i,), root)

    def attach_all(self, items: Iterable[int], root: int) -> None:
        """`attach` for each item, in one call: a dense chart attaches thousands of pairs."""
        parent = self.parent
        for i in items:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            if i != root:
                parent[i] = root

    def members(self) -> list[list[int]]:
        """Each group's items, in the order their first item comes."""
        groups: dict[int, list[int]] = {}
        for i in range(len(self.parent)):
            groups.setdefault(self.root(i), []).append(i)
        return list(groups.values())
