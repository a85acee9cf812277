"""The `q` grammar of files.list."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from .errors import invalid

_TOKEN = re.compile(
    r"""\s*(?:(?P<str>'(?:[^'\\]|\\.)*')|(?P<op><=|>=|!=|=|<|>)|(?P<paren>[()])|(?P<word>[A-Za-z_]\w*))"""
)
_Pred = Callable[[dict[str, Any]], bool]


def _tokens(q: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while pos < len(q.rstrip()):
        m = _TOKEN.match(q, pos)
        if not m:
            raise invalid("q")
        pos = m.end()
        kind = m.lastgroup or ""
        val = m.group(kind)
        if kind == "str":
            val = re.sub(r"\\(.)", r"\1", val[1:-1])
        out.append((kind, val))
    return out


def parse_query(q: str) -> _Pred:
    """Drive's search grammar, the part a folder sync uses: `'<id>' in parents`, `trashed = bool`,
    `mimeType`/`name` with = and != (name also `contains`, a prefix match as in Drive), `modifiedTime`
    /`createdTime` compared with RFC 3339 strings; `and`, `or`, `not`, parentheses. Anything else is 400."""
    toks = _tokens(q)
    pos = 0

    def peek(kind: str, val: str | None = None) -> bool:
        return pos < len(toks) and toks[pos][0] == kind and (val is None or toks[pos][1].lower() == val)

    def take(kind: str, val: str | None = None) -> str:
        nonlocal pos
        if not peek(kind, val):
            raise invalid("q")
        pos += 1
        return toks[pos - 1][1]

    def expr() -> _Pred:
        parts = [conj()]
        while peek("word", "or"):
            take("word")
            parts.append(conj())
        return parts[0] if len(parts) == 1 else (lambda f, ps=tuple(parts): any(p(f) for p in ps))

    def conj() -> _Pred:
        parts = [unary()]
        while peek("word", "and"):
            take("word")
            parts.append(unary())
        return parts[0] if len(parts) == 1 else (lambda f, ps=tuple(parts): all(p(f) for p in ps))

    def unary() -> _Pred:
        if peek("word", "not"):
            take("word")
            inner = unary()
            return lambda f: not inner(f)
        if peek("paren", "("):
            take("paren")
            inner = expr()
            take("paren", ")")
            return inner
        return term()

    def term() -> _Pred:
        if peek("str"):
            value = take("str")
            take("word", "in")
            collection = take("word")
            if collection != "parents":
                raise invalid("q")
            return lambda f: value in f["parents"] or (value == "root" and f["_in_root"])
        name = take("word")
        if peek("word", "contains"):
            take("word")
            op = "contains"
        else:
            op = take("op")
        if name == "trashed":
            want = take("word").lower()
            if want not in ("true", "false") or op not in ("=", "!="):
                raise invalid("q")
            return lambda f: (f["trashed"] == (want == "true")) == (op == "=")
        value = take("str")
        if name in ("mimeType", "name") and op in ("=", "!="):
            return lambda f: (f[name] == value) == (op == "=")
        if name == "name" and op == "contains":
            return lambda f: any(w.lower().startswith(value.lower()) for w in [f["name"], *f["name"].split()])
        if name in ("modifiedTime", "createdTime") and op != "contains":
            when = parse_time(value)
            cmp = {"=": "__eq__", "!=": "__ne__", "<": "__lt__", "<=": "__le__", ">": "__gt__", ">=": "__ge__"}[op]
            return lambda f: getattr(parse_time(f[name]), cmp)(when)
        raise invalid("q")

    pred = expr()
    if pos != len(toks):
        raise invalid("q")
    return pred


def parse_time(text: str, location: str = "q") -> datetime:
    """An RFC 3339 time as Drive takes it in a parameter; a malformed one is a 400 on `location`."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise invalid(location) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)
