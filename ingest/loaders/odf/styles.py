"""What the styles say that the text needs: a paragraph style's outline level and name (through
its parents), a list style's levels (numbered or bulleted, and how numbers are written), and
which sheets a table style hides."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from lxml import etree

from .package import OFFICE, STYLE, TABLE, TEXT

_TITLE_STYLES = frozenset({"title"})


@dataclass(frozen=True, slots=True)
class ListLevel:
    ordered: bool
    num_format: str = "1"
    prefix: str = ""
    suffix: str = ""
    start: int = 1
    bullet: str = "-"


_BULLET = ListLevel(False)


class Styles:
    """Paragraph, list and table styles of content.xml and styles.xml, by name."""

    def __init__(self, roots: Iterable[etree._Element | None]):
        self._parent: dict[str, str] = {}
        self._display: dict[str, str] = {}
        self._outline: dict[str, int] = {}
        self._lists: dict[str, dict[int, ListLevel]] = {}
        self.hidden_tables: set[str] = set()
        for root in roots:
            if root is None:
                continue
            for group in (OFFICE + "styles", OFFICE + "automatic-styles"):
                for holder in root.iterfind(group):
                    self._read(holder)

    def _read(self, holder: etree._Element) -> None:
        for st in holder.iterfind(STYLE + "style"):
            name = st.get(STYLE + "name", "")
            family = st.get(STYLE + "family", "")
            if family == "paragraph":
                if st.get(STYLE + "parent-style-name"):
                    self._parent[name] = st.get(STYLE + "parent-style-name", "")
                self._display[name] = st.get(STYLE + "display-name") or name.replace("_20_", " ")
                level = _int(st.get(STYLE + "default-outline-level"))
                if level is not None:
                    self._outline[name] = level
            elif family == "table":
                props = st.find(STYLE + "table-properties")
                if props is not None and props.get(TABLE + "display") == "false":
                    self.hidden_tables.add(name)
        for ls in holder.iterfind(TEXT + "list-style"):
            levels: dict[int, ListLevel] = {}
            for el in ls:
                level = _int(el.get(TEXT + "level")) or 1
                if el.tag == TEXT + "list-level-style-number":
                    levels[level] = ListLevel(
                        ordered=True,
                        num_format=el.get(STYLE + "num-format", "1"),
                        prefix=el.get(STYLE + "num-prefix", ""),
                        suffix=el.get(STYLE + "num-suffix", ""),
                        start=_int(el.get(TEXT + "start-value")) or 1,
                    )
                elif el.tag == TEXT + "list-level-style-bullet":
                    levels[level] = ListLevel(False, bullet=el.get(TEXT + "bullet-char", "-") or "-")
            self._lists[ls.get(STYLE + "name", "")] = levels

    def chain(self, name: str) -> Iterable[str]:
        """The style and its parents, nearest first (a loop in a broken file ends the walk)."""
        seen: set[str] = set()
        while name and name not in seen:
            seen.add(name)
            yield name
            name = self._parent.get(name, "")

    def name(self, style: str) -> str:
        """The first style in the chain with a name a user gave it (not an automatic "P3")."""
        for s in self.chain(style):
            if s in self._display and not _automatic(s):
                return self._display[s]
        return ""

    def outline_level(self, style: str) -> int | None:
        return next((self._outline[s] for s in self.chain(style) if s in self._outline), None)

    def is_title(self, style: str) -> bool:
        return self.name(style).lower() in _TITLE_STYLES

    def list_level(self, list_style: str, level: int) -> ListLevel:
        """Level `level` (1-based) of a list style; a list without a style reads as bullets."""
        levels = self._lists.get(list_style, {})
        return levels.get(level) or _BULLET


def _automatic(name: str) -> bool:
    """LibreOffice's automatic paragraph styles are "P" and a number."""
    return name[:1] == "P" and name[1:].isdigit()


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
