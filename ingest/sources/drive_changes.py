"""Drive's changes feed: a start token per change log (the user's, "", or a shared drive's), and
every change since a token, each file once at its latest state, with the token for next time."""

from __future__ import annotations

from ..errors import SourceError
from .drive_calls import GoogleCalls
from .drive_errors import status_of


class Expired(Exception):
    """A stored changes token is no longer accepted."""


def start_token(calls: GoogleCalls, drive: str) -> str:
    kwargs = {"driveId": drive, "supportsAllDrives": True} if drive else {}
    return calls.call(calls.changes().getStartPageToken(**kwargs), "the Drive changes feed")["startPageToken"]


def read_changes(calls: GoogleCalls, tokens: dict[str, str], fields: str) -> tuple[dict[str, dict], dict[str, str]]:
    """The last change of each file since `tokens` in every log (file metadata with `fields`),
    and the tokens to start from next time. Raises `Expired` for a token Drive refuses."""
    latest: dict[str, dict] = {}
    new_tokens: dict[str, str] = {}
    for drive, token in tokens.items():
        changes, new_tokens[drive] = _log_changes(calls, drive, token, fields)
        for file_id, change in changes.items():
            latest.pop(file_id, None)
            latest[file_id] = change
    return latest, new_tokens


def _log_changes(calls: GoogleCalls, drive: str, token: str, fields: str) -> tuple[dict[str, dict], str]:
    latest: dict[str, dict] = {}
    page = token
    scope = {"driveId": drive, "supportsAllDrives": True, "includeItemsFromAllDrives": True} if drive else {}
    while True:
        request = calls.changes().list(
            pageToken=page,
            pageSize=1000,
            includeRemoved=True,
            spaces="drive",
            fields=f"nextPageToken,newStartPageToken,changes(fileId,removed,changeType,file({fields}))",
            **scope,
        )
        try:
            listing = calls.call(request, "the Drive changes feed")
        except SourceError as exc:
            if status_of(exc) in (400, 404, 410):
                raise Expired from exc  # Drive's answers to a token it no longer accepts
            raise
        for change in listing.get("changes", ()):
            if change.get("changeType", "file") == "file" and change.get("fileId"):
                latest.pop(change["fileId"], None)
                latest[change["fileId"]] = change
        if listing.get("newStartPageToken"):
            return latest, listing["newStartPageToken"]
        page = listing.get("nextPageToken")
        if not page:
            raise SourceError("the changes feed ended without a new start token", subject="the Drive changes feed")
