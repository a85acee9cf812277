"""Metadata filters on search: which documents, folders, sections, formats, dates and kinds of
chunk a search may answer from.

`Filters.where(first)` is one SQL condition over the index's `chunks AS c`, with its values bound
as parameters numbered from `?first` (never formatted into the SQL), so any query over the chunks
(bm25 here, vectors elsewhere) narrows the same way:

    clause, params = filters.where(5)
    conn.execute(f"SELECT ... WHERE chunks_fts MATCH ?1 ... AND {clause}", (a, b, c, d, *params))

Within one field any value may match (two documents, two types); the fields combine with AND.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from datetime import UTC, date, datetime
from typing import Any

from ..errors import ConfigError


def moment(value: datetime | date | str) -> datetime:
    """A point in time from an ISO-8601 date or date-time (`2024-03-01`, `2024-03-01T09:30`,
    `...Z`, `...+02:00`); a date is its first moment, and a time without an offset is UTC.
    ValueError says what is wrong in words for the person who typed it."""
    if isinstance(value, str):
        text = value.strip()
        try:
            value = datetime.fromisoformat(text) if "T" in text or " " in text else date.fromisoformat(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a date or time such as 2024-03-01 or 2024-03-01T09:30:00Z") from None
    if not isinstance(value, datetime):
        if not isinstance(value, date):
            raise ValueError(f"{value!r} is not a date or time")
        value = datetime(value.year, value.month, value.day)
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def heading_prefix(value: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """A heading path given as `"A > B"` or as its parts, blank parts dropped. TypeError for
    anything else."""
    parts = value.split(">") if isinstance(value, str) else tuple(value)
    if not all(isinstance(p, str) for p in parts):
        raise TypeError("a heading path holds text")
    return tuple(p.strip() for p in parts if p.strip())


@dataclass(frozen=True, slots=True)
class Filters:
    """What a search may answer from. Empty fields filter nothing."""

    docs: tuple[str, ...] = ()
    """Documents, each by its id, its uri, its name or its name without the extension."""
    paths: tuple[str, ...] = ()
    """Prefixes of a document's place: its path in the source (a local source's path under its
    folder, `handbook/`; a Drive file's folder path, `Policies/HR/`) or its uri. A trailing `/`
    keeps a prefix to one folder."""
    heading: tuple[str, ...] = ()
    """A heading path prefix: chunks in that section and the sections under it. The document's
    title, the path's first entry, may be left out. Letter case (A-Z) is ignored."""
    mime_types: tuple[str, ...] = ()
    """MIME types, as `ingest search --json` shows them (`application/pdf`), letter case aside."""
    modified_after: datetime | None = None
    """Documents modified at or after this moment (a date, or ISO-8601 text, is accepted)."""
    modified_before: datetime | None = None
    """Documents modified before this moment. A document without a modification time passes
    neither date filter."""
    exclude_kinds: tuple[str, ...] = ()
    """Leave out the chunks holding a block of any of these kinds: `("card",)` leaves out the
    documents' cards (`ingest.chunker.card`, `ingest search --no-cards`), `("figure",)` the
    figures' text (`ingest.chunker.figures`, `--no-figures`)."""

    def __post_init__(self) -> None:
        for name in ("docs", "paths", "mime_types", "exclude_kinds"):
            object.__setattr__(self, name, _strings(name, getattr(self, name)))
        object.__setattr__(self, "mime_types", tuple(m.lower() for m in self.mime_types))  # case-insensitive
        try:
            object.__setattr__(self, "heading", heading_prefix(self.heading))
        except TypeError:
            raise ConfigError(
                f"expected a heading path such as 'Policies > Travel', got {self.heading!r}", subject="filters.heading"
            ) from None
        for name in ("modified_after", "modified_before"):
            if getattr(self, name) is not None:
                try:
                    object.__setattr__(self, name, moment(getattr(self, name)))
                except ValueError as exc:
                    raise ConfigError(str(exc), subject=f"filters.{name}") from None
        if self.modified_after and self.modified_before and self.modified_after >= self.modified_before:
            raise ConfigError(
                f"modified_after ({self.modified_after:%Y-%m-%d %H:%M:%S}) is not before "
                f"modified_before ({self.modified_before:%Y-%m-%d %H:%M:%S}): nothing could match",
                subject="filters",
            )

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))

    def where(self, first: int = 1) -> tuple[str, tuple[Any, ...]]:
        """One SQL condition over `chunks AS c` and its parameters, numbered `?first`,
        `?first+1`, ...; `1` (true) and none when nothing is filtered."""
        documents: list[str] = []
        clauses: list[str] = []
        params: list[Any] = []

        def add(to: list[str], sql: str, value: Any) -> None:
            to.append(sql.replace("?p", f"?{first + len(params)}"))
            params.append(value)

        # Lists travel as one JSON parameter each, so the SQL does not change with their length.
        if self.docs:
            add(documents, _DOCS, json.dumps(self.docs))
        if self.paths:
            add(documents, _PATHS, json.dumps(self.paths))
        if self.mime_types:
            add(documents, "d.mime_type IN (SELECT value FROM json_each(?p))", json.dumps(self.mime_types))
        if self.modified_after is not None:
            add(documents, "julianday(d.modified) >= julianday(?p)", _sql_time(self.modified_after))
        if self.modified_before is not None:
            add(documents, "julianday(d.modified) < julianday(?p)", _sql_time(self.modified_before))
        if documents:
            # The documents that pass, found once per query (SQLite keeps an uncorrelated IN list),
            # rather than their conditions tested again on every matching chunk.
            clauses.append(f"c.doc_id IN (SELECT d.id FROM documents AS d WHERE {' AND '.join(documents)})")
        if self.heading:
            # A cheap test first: the joined path holds the prefix's last entry, or it cannot match.
            add(clauses, "instr(lower(c.heading), lower(?p)) > 0", self.heading[-1])
            add(clauses, _HEADING, json.dumps(self.heading))
        if self.exclude_kinds:
            add(clauses, _KINDS, json.dumps(self.exclude_kinds))
        return (" AND ".join(clauses) or "1"), tuple(params)


# A name without its extension is the name up to a "." after which no other "." comes.
_DOCS = """EXISTS (SELECT 1 FROM json_each(?p) AS v
        WHERE v.value IN (d.id, d.name, d.uri)
           OR (substr(d.name, 1, length(v.value) + 1) = v.value || '.'
               AND instr(substr(d.name, length(v.value) + 2), '.') = 0))"""

# The source path: where a Drive file sits (its meta), else the id (a local file's path under
# its folder). substr rather than LIKE: `_` and `%` in a name are plain characters.
_PATHS = """EXISTS (SELECT 1 FROM json_each(?p) AS p
        WHERE substr(coalesce(json_extract(d.meta, '$.drive_path'), d.id), 1, length(p.value)) = p.value
           OR substr(d.uri, 1, length(p.value)) = p.value)"""

# No kind of the chunk's is among the ones left out.
_KINDS = """NOT EXISTS (SELECT 1 FROM json_each(c.kinds) AS k
        WHERE k.value IN (SELECT value FROM json_each(?p)))"""

# The prefix matches from the path's first entry (skip 0) or from its second (skip 1: under the
# document's title): no entry of the prefix may differ from the path's entry at its place.
_HEADING = """EXISTS (SELECT 1 FROM (SELECT 0 AS skip UNION ALL SELECT 1) AS s
        WHERE json_array_length(c.heading_path) >= json_array_length(?p) + s.skip
          AND NOT EXISTS (SELECT 1 FROM json_each(?p) AS h
                          WHERE lower(h.value) IS NOT
                                lower(json_extract(c.heading_path, '$[' || (h.key + s.skip) || ']'))))"""


def _strings(name: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):  # one value given bare: a tuple of its characters is never meant
        value = (value,)
    try:
        items = tuple(value)
    except TypeError:
        items = (value,)
    if not all(isinstance(v, str) for v in items):
        raise ConfigError(f"expected text or a list of texts, got {value!r}", subject=f"filters.{name}")
    return tuple(v.strip() for v in items if v.strip())


def _sql_time(when: datetime) -> str:
    return when.isoformat(timespec="milliseconds")  # UTC with its offset, which julianday() reads
