"""Who may open a Drive file, from its permissions: the readers stored with the document so that
search can show a person only what they could open.

A reader is one string: `user:alice@example.com`, `group:eng@example.com`, `domain:example.com`
or `anyone` (anyone with the link, or public on the web). Every role opens the file (reader,
commenter, writer, organizer, owner); a permission whose account was deleted, or that has expired,
opens nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime

from ..errors import LoaderError
from .drive_calls import GoogleCalls

PERMISSION_FIELDS = "id,type,role,emailAddress,domain,allowFileDiscovery,deleted,expirationTime"
"""Asked for with every file listed (`permissions(...)`), so My Drive files cost no extra call."""


def readers_of(permissions: list[dict]) -> tuple[str, ...]:
    out: set[str] = set()
    now = datetime.now(UTC)
    for p in permissions:
        if p.get("deleted") or _expired(p.get("expirationTime"), now):
            continue
        kind = p.get("type")
        if kind in ("user", "group") and p.get("emailAddress"):
            out.add(f"{kind}:{p['emailAddress'].casefold()}")
        elif kind == "domain" and p.get("domain"):
            out.add(f"domain:{p['domain'].casefold()}")
        elif kind == "anyone":
            out.add("anyone")
    return tuple(sorted(out))


def listed_readers(meta: dict) -> tuple[str, ...] | None:
    """The readers the listing gave (None: Drive left `permissions` out, as it does for shared
    drive items and for files the caller cannot share)."""
    permissions = meta.get("permissions")
    return None if permissions is None else readers_of(permissions)


def fetch_readers(calls: GoogleCalls, meta: dict, name: str) -> tuple[str, ...]:
    """The readers from permissions.list (a shared drive item: its own and the drive's members).
    A file whose permissions we may not see gets none: better hidden from everyone than shown to
    someone who may not open it."""
    permissions: list[dict] = []
    page = None
    while True:
        request = calls.permissions().list(
            fileId=meta["id"],
            supportsAllDrives=True,
            pageSize=100,
            pageToken=page,
            fields=f"nextPageToken,permissions({PERMISSION_FIELDS})",
        )
        try:
            listing = calls.call(request, f"{name} (permissions)")
        except LoaderError:  # 403: not allowed to see who may read it
            return ()
        permissions += listing.get("permissions", ())
        page = listing.get("nextPageToken")
        if not page:
            return readers_of(permissions)


def _expired(value: str | None, now: datetime) -> bool:
    if not value:
        return False
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")) <= now
    except ValueError:
        return False
