"""Drive comments: the control API that adds, resolves and deletes them, and comments.list.

Drive behaviours mirrored (developers.google.com/workspace/drive/api/guides/manage-comments and
reference/rest/v3/comments, plus the client's discovery document):
- `fields` is mandatory on comments.list: without it Drive answers 400 "The 'fields' parameter is
  required for this method." (reason/location as Drive's other missing-parameter errors; unverified).
- pageSize defaults to 20, values above 100 are coerced to 100, below 1 are 400; `nextPageToken` pages.
- Deleted comments are left out unless includeDeleted=true, and then come without content/htmlContent
  ("Deleted comments will not include their original content").
- `startModifiedTime` keeps comments whose modifiedTime (the comment's or any reply's) is at or after it.
- The author carries no emailAddress ("The author's email address and permission ID will not be
  populated"); `add_comment(email=...)` adds one only for tests that want the other shape.
- A comment is resolved by a reply with action "resolve" (guides/manage-comments: "A comment can only
  be resolved by posting a reply"); `resolve_comment` and `add_comment(resolved=True)` post one.
- On the file: adding, resolving or deleting a comment bumps `version` ("reflects every change made to
  the file on the server") but not `modifiedTime`, and records a change in the changes feed. The change
  record is this fake's belief, not a documented fact: `FakeGoogle(comment_changes=False)` turns it off.
"""

from __future__ import annotations

import hashlib
import html
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import ApiError, invalid
from .query import parse_time

if TYPE_CHECKING:
    from .store import StoredFile


@dataclass(slots=True)
class StoredReply:
    id: str
    content: str
    author: str
    created: str
    action: str | None = None


@dataclass(slots=True)
class StoredComment:
    id: str
    content: str
    author: str
    email: str | None
    created: str
    modified: str
    quoted: str | None = None
    anchor: str | None = None
    resolved: bool = False
    deleted: bool = False
    replies: list[StoredReply] = field(default_factory=list)


class Comments:
    """Mixed into FakeGoogle next to DriveStore, whose files hold the comments."""

    _lock: threading.RLock
    page: Callable[..., tuple[list, str | None]]
    comment_changes: bool
    _get: Callable[[str], StoredFile]
    _tick: Callable[[], str]
    _record: Callable[..., None]
    _file_or_404: Callable[[str], StoredFile]

    # ------------------------------------------------------------ control API

    def add_comment(
        self,
        file_id: str,
        content: str,
        *,
        quoted: str | None = None,
        author: str = "Test User",
        email: str | None = None,
        resolved: bool = False,
        replies: list[str] | tuple[str, ...] = (),
    ) -> str:
        """A comment on `file_id` (anchored when `quoted` is given), with one reply per string in
        `replies` by the same author; returns the comment id."""
        with self._lock:
            f = self._get(file_id)
            now = self._tick()
            cid = _opaque_id(f"{f.id}/comment/{len(f.comments)}")
            c = StoredComment(cid, content, author, email, now, now)
            if quoted is not None:
                c.quoted, c.anchor = quoted, "kix." + hashlib.sha1(cid.encode()).hexdigest()[:12]
            f.comments.append(c)
            for text in replies:
                self._reply(c, text, author)
            if resolved:
                self._reply(c, None, author, action="resolve")
                c.resolved = True
            self._comment_changed(f)
            return cid

    def resolve_comment(self, file_id: str, comment_id: str) -> None:
        with self._lock:
            f = self._get(file_id)
            c = _comment(f, comment_id)
            self._reply(c, None, c.author, action="resolve")
            c.resolved = True
            self._comment_changed(f)

    def delete_comment(self, file_id: str, comment_id: str) -> None:
        with self._lock:
            f = self._get(file_id)
            c = _comment(f, comment_id)
            c.deleted = True
            c.modified = self._tick()
            self._comment_changed(f)

    def _reply(self, c: StoredComment, content: str | None, author: str, action: str | None = None) -> None:
        now = self._tick()
        rid = _opaque_id(f"{c.id}/reply/{len(c.replies)}")
        c.replies.append(StoredReply(rid, content or "", author, now, action))
        c.modified = now

    def _comment_changed(self, f: StoredFile) -> None:
        f.version += 1  # modifiedTime stays: a comment is not an edit of the file
        if self.comment_changes:
            self._record(f.id)

    # ------------------------------------------------------------ comments.list

    def _comments_list(self, file_id: str, p: dict[str, str]) -> dict[str, Any]:
        if "fields" not in p:
            raise ApiError(400, "The 'fields' parameter is required for this method.", "required", location="fields")
        raw = p.get("pageSize", "20")
        if not raw.isdigit() or int(raw) < 1:
            raise ApiError(
                400, f"Invalid value '{raw}'. Values must be within the range: [1, 100]", "invalid", location="pageSize"
            )
        size = min(int(raw), 100)
        include_deleted = _boolean(p, "includeDeleted")
        since = parse_time(p["startModifiedTime"], "startModifiedTime") if "startModifiedTime" in p else None
        with self._lock:
            f = self._file_or_404(file_id)
            hits = [
                c
                for c in f.comments
                if (include_deleted or not c.deleted) and (since is None or parse_time(c.modified) >= since)
            ]
            sig = "\x00".join(["comments", f.id, *(p.get(k, "") for k in ("includeDeleted", "startModifiedTime"))])
            page, token = self.page(p, sig, hits, size)
            out: dict[str, Any] = {"kind": "drive#commentList", "comments": [_resource(c) for c in page]}
            if token:
                out["nextPageToken"] = token
            return out


def _resource(c: StoredComment) -> dict[str, Any]:
    r: dict[str, Any] = {
        "kind": "drive#comment",
        "id": c.id,
        "createdTime": c.created,
        "modifiedTime": c.modified,
        "author": _user(c.author, c.email),
        "deleted": c.deleted,
        "resolved": c.resolved,
        "replies": [_reply(r) for r in c.replies],
    }
    if not c.deleted:
        r |= {"content": c.content, "htmlContent": html.escape(c.content)}
    if c.quoted is not None:
        r |= {"anchor": c.anchor, "quotedFileContent": {"mimeType": "text/html", "value": c.quoted}}
    return r


def _reply(r: StoredReply) -> dict[str, Any]:
    out: dict[str, Any] = {
        "kind": "drive#reply",
        "id": r.id,
        "createdTime": r.created,
        "modifiedTime": r.created,
        "author": _user(r.author, None),
        "deleted": False,
    }
    if r.content:  # a bare resolve reply has no text; Google leaves empty strings out of its JSON
        out |= {"content": r.content, "htmlContent": html.escape(r.content)}
    if r.action:
        out["action"] = r.action
    return out


def _user(name: str, email: str | None) -> dict[str, Any]:
    user: dict[str, Any] = {"kind": "drive#user", "displayName": name, "me": False}
    if email is not None:
        user["emailAddress"] = email
    return user


def _comment(f: StoredFile, comment_id: str) -> StoredComment:
    for c in f.comments:
        if c.id == comment_id:
            return c
    raise KeyError(f"no comment {comment_id!r} on {f.id!r}")


def _opaque_id(seed: str) -> str:
    return "AAAB" + hashlib.sha256(seed.encode()).hexdigest()[:16]


def _boolean(p: dict[str, str], name: str) -> bool:
    raw = p.get(name, "false").lower()
    if raw not in ("true", "false"):
        raise invalid(name)
    return raw == "true"
