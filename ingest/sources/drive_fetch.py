"""Reading one Drive file's content: a Google Doc through the Docs API with its comments from the
Drive API, Sheets and Slides as exports, everything else downloaded in ranged pieces. Safe to call
from several threads at once (each uses its own client, see `drive_calls`)."""

from __future__ import annotations

import io
import json

from .drive_calls import GoogleCalls

GOOGLE_DOC = "application/vnd.google-apps.document"
GOOGLE_SHEET = "application/vnd.google-apps.spreadsheet"
GOOGLE_SLIDES = "application/vnd.google-apps.presentation"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
EXPORTS = {GOOGLE_SHEET: XLSX, GOOGLE_SLIDES: PPTX}
"""Google formats read as an export (a deck as .pptx: slide titles, lists, tables, speaker notes
and the slides' ids survive, which a PDF export flattens); Google Docs go through the Docs API."""
CHUNK_BYTES = 8 * 1024 * 1024
"""A download is asked for in ranged pieces of this size, each retried on its own."""
_COMMENT_FIELDS = (
    "id,content,author(displayName,emailAddress),createdTime,resolved,deleted,"
    "quotedFileContent(mimeType,value),replies(id,content,author(displayName,emailAddress),createdTime,deleted)"
)


def resource_key_header(meta: dict) -> dict[str, str]:
    """The header that opens a file shared by link with a resource key (a shortcut's target may
    need it: Drive answers 404 without it)."""
    key = meta.get("resourceKey")
    return {"X-Goog-Drive-Resource-Keys": f"{meta['id']}/{key}"} if key else {}


def _keyed(request, meta: dict):
    request.headers.update(resource_key_header(meta))
    return request


def read_content(calls: GoogleCalls, meta: dict, name: str) -> bytes:
    """The bytes the loader for `meta`'s type reads (a Google Doc as the Docs API's JSON)."""
    mime = meta.get("mimeType", "")
    file_id = meta["id"]
    if mime == GOOGLE_DOC:
        doc = calls.call(
            _keyed(
                calls.documents().get(
                    documentId=file_id, suggestionsViewMode="SUGGESTIONS_INLINE", includeTabsContent=True
                ),
                meta,
            ),
            name,
        )
        doc["comments"] = _comments(calls, meta, name)  # the Docs API has none; the loader places them
        return json.dumps(doc, ensure_ascii=False, sort_keys=True).encode("utf-8")
    if mime in EXPORTS:
        return calls.call(_keyed(calls.files().export_media(fileId=file_id, mimeType=EXPORTS[mime]), meta), name)
    return _download(calls, meta, name)


def _comments(calls: GoogleCalls, meta: dict, name: str) -> list[dict]:
    comments: list[dict] = []
    page = None
    while True:
        listing = calls.call(
            _keyed(
                calls.comments().list(
                    fileId=meta["id"],
                    fields=f"nextPageToken,comments({_COMMENT_FIELDS})",
                    pageSize=100,
                    pageToken=page,
                    includeDeleted=False,
                ),
                meta,
            ),
            f"{name} (comments)",
        )
        comments += listing.get("comments", ())
        page = listing.get("nextPageToken")
        if not page:
            return comments


def _download(calls: GoogleCalls, meta: dict, name: str) -> bytes:
    from googleapiclient.http import MediaIoBaseDownload

    buffer = io.BytesIO()
    request = _keyed(calls.files().get_media(fileId=meta["id"], supportsAllDrives=True), meta)
    request.http = calls.http()  # the download keeps the request's connection: this thread's
    download = MediaIoBaseDownload(buffer, request, chunksize=CHUNK_BYTES)
    done = False
    while not done:  # piece by piece: a failure costs one piece, not the whole file
        _, done = calls.call(_Piece(download), name)
    return buffer.getvalue()


class _Piece:
    """The next ranged piece of a download, asked for like any other request."""

    def __init__(self, download) -> None:
        self.download = download

    def execute(self, num_retries: int):
        return self.download.next_chunk(num_retries=num_retries)
