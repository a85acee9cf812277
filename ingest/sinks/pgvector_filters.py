"""Metadata filters (`search_filters.Filters`) as one PostgreSQL condition over the pgvector sink's
`chunks AS c JOIN documents AS d`, so a search there narrows as it does in the SQLite index.

Values travel as named parameters (`%(f_docs)s`...), never formatted into the SQL; lists as one
`text[]` each. The conditions say what `Filters.where` says for SQLite, clause by clause, with one
difference: PostgreSQL's `lower()` folds the case of every letter, SQLite's of A-Z only.
"""

from __future__ import annotations

from typing import Any

from ..search.filters import Filters

# A name without its extension is the name up to a "." after which no other "." comes.
_DOCS = """EXISTS (SELECT 1 FROM unnest(%(f_docs)s::text[]) AS v(value)
        WHERE v.value IN (d.id, d.name, d.uri)
           OR (left(d.name, length(v.value) + 1) = v.value || '.'
               AND strpos(substr(d.name, length(v.value) + 2), '.') = 0))"""

# Where a Drive file sits (its meta), else the id (a local file's path under its folder), or the
# uri. left() rather than LIKE: `_` and `%` in a name are plain characters.
_PATHS = """EXISTS (SELECT 1 FROM unnest(%(f_paths)s::text[]) AS p(value)
        WHERE left(coalesce(d.meta->>'drive_path', d.id), length(p.value)) = p.value
           OR left(d.uri, length(p.value)) = p.value)"""

# The stored time is ISO-8601 text: a document without one ('', or text that is no date) passes
# neither date filter, and a time without an offset is UTC, as SQLite's julianday() reads them.
_WHEN = """(CASE WHEN d.modified !~ '^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' THEN NULL
              WHEN d.modified ~ '([+-][0-9][0-9](:?[0-9][0-9])?|Z)$' THEN d.modified::timestamptz
              ELSE d.modified::timestamp AT TIME ZONE 'UTC' END)"""

# The prefix matches from the path's first entry (skip 0) or from its second (skip 1: under the
# document's title): no entry of the prefix may differ from the path's entry at its place.
_HEADING = """EXISTS (SELECT 1 FROM (VALUES (0), (1)) AS s(skip)
        WHERE cardinality(c.heading_path) >= cardinality(%(f_heading)s::text[]) + s.skip
          AND NOT EXISTS (SELECT 1 FROM unnest(%(f_heading)s::text[]) WITH ORDINALITY AS h(value, n)
                          WHERE lower(h.value) IS DISTINCT FROM lower(c.heading_path[h.n + s.skip])))"""


def pg_where(filters: Filters | None) -> tuple[str, dict[str, Any]]:
    """One condition over `c` and `d` and its named parameters; `TRUE` and none when nothing is
    filtered."""
    if not filters:
        return "TRUE", {}
    clauses: list[str] = []
    params: dict[str, Any] = {}
    if filters.docs:
        clauses.append(_DOCS)
        params["f_docs"] = list(filters.docs)
    if filters.paths:
        clauses.append(_PATHS)
        params["f_paths"] = list(filters.paths)
    if filters.mime_types:
        clauses.append("d.mime_type = ANY(%(f_mime_types)s::text[])")
        params["f_mime_types"] = list(filters.mime_types)
    if filters.modified_after is not None:
        clauses.append(f"{_WHEN} >= %(f_after)s::timestamptz")
        params["f_after"] = filters.modified_after
    if filters.modified_before is not None:
        clauses.append(f"{_WHEN} < %(f_before)s::timestamptz")
        params["f_before"] = filters.modified_before
    if filters.heading:
        clauses.append(_HEADING)
        params["f_heading"] = list(filters.heading)
    if filters.exclude_kinds:
        clauses.append("NOT (c.kinds && %(f_exclude_kinds)s::text[])")
        params["f_exclude_kinds"] = list(filters.exclude_kinds)
    return " AND ".join(f"({c})" for c in clauses), params
