"""Who a search answers for: one person's e-mail address (and groups) as the readers they match,
checked so that a search for someone can only ever narrow what is shown, never widen it.

Every search path (SQLite bm25, vector, hybrid, pgvector, the Python API, the CLI) passes its
`readers` through `checked_readers` before they reach a query: `None` is an administrator's search
(no filter), a tuple is what one caller matches, and `()` is a caller who matches nothing, who sees
only documents without recorded readers (local files), never everything.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..errors import ConfigError

# One address, in printable ASCII (Google's addresses are; an IDN domain is written in its
# xn-- form): a local part without the characters that join several addresses in one string
# (commas, semicolons, spaces, angle brackets, a second "@"), and a domain of dotted DNS labels.
# ASCII only, because a control character cuts a value short in SQL (a NUL in json_each) and
# Unicode case folding maps other letters onto ASCII ones (the Kelvin sign onto "k").
_LOCAL = r"""(?:(?![@,;<>()\[\]":])[\x21-\x7e])+"""
_DOMAIN = r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*"
_EMAIL = re.compile(rf"{_LOCAL}@{_DOMAIN}")
_DOMAIN_ONLY = re.compile(_DOMAIN)
ANYONE = "anyone"
"""The reader of a document anyone with the link may open."""


def email_address(value: object, what: str = "--as") -> str:
    """`value` as one e-mail address, lower-cased; a `ConfigError` naming it when it is not exactly one."""
    if not isinstance(value, str) or not _EMAIL.fullmatch(value):
        raise ConfigError(f"{value!r} is not one e-mail address (like ann@example.com)", subject=what)
    return value.lower()


def principals(email: str, groups: Iterable[str] = ()) -> tuple[str, ...]:
    """The readers a person matches: themselves, their groups, their e-mail domain, and anyone.

    `email` and each group must be exactly one e-mail address (a `ConfigError` names the value
    otherwise): an empty or joined value must never be read as nobody's, or as someone else's."""
    if isinstance(groups, str):  # a string's characters are no groups
        raise ConfigError(f"expected a list of group addresses, got one string {groups!r}", subject="--groups")
    person = email_address(email)
    found = [f"user:{person}", *(f"group:{email_address(g, '--groups')}" for g in groups), ANYONE]
    found.append(f"domain:{person.rsplit('@', 1)[1]}")
    return tuple(dict.fromkeys(found))


def checked_readers(readers: object) -> tuple[str, ...] | None:
    """`readers` as the tuple a query filters on, or None for no filter; a `ConfigError` for
    anything that is not principals (one string, an empty or unknown reader), so a malformed
    value can never match documents it should not (the stored "" marks unreadable permissions)."""
    if readers is None:
        return None
    if isinstance(readers, str | bytes) or not isinstance(readers, Iterable):
        raise ConfigError(
            f"expected a tuple of readers such as principals('ann@example.com'), got {readers!r}", subject="readers"
        )
    found = []
    for reader in readers:
        if not _is_principal(reader):
            raise ConfigError(
                f"{reader!r} is not a reader (user:EMAIL, group:EMAIL, domain:DOMAIN or anyone)", subject="readers"
            )
        found.append(reader.lower())  # stored readers are case-folded (sources/drive_permissions.py)
    return tuple(found)


def _is_principal(reader: object) -> bool:
    """`user:EMAIL`, `group:EMAIL`, `domain:DOMAIN` or `anyone`, as sources/drive_permissions.py writes them."""
    if not isinstance(reader, str):
        return False
    if reader == ANYONE:
        return True
    kind, _, rest = reader.partition(":")
    if kind in ("user", "group"):
        return _EMAIL.fullmatch(rest) is not None
    return kind == "domain" and _DOMAIN_ONLY.fullmatch(rest) is not None
