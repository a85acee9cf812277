"""A fake Google Drive v3 + Docs v1 HTTP server for tests that drive the real google-api-python-client.

Start one (`with FakeGoogle() as g:` or the `fake_google` fixture), fill it through the control API
(`add_folder`, `add_file`, `add_google_doc`, ... then `update`, `move`, `trash`, `delete`), and point
the client at it:

    creds = google.oauth2.credentials.Credentials(token=g.token)
    drive = build("drive", "v3", credentials=creds, static_discovery=True,
                  client_options={"api_endpoint": g.drive_endpoint})
    docs = build("docs", "v1", credentials=creds, static_discovery=True,
                 client_options={"api_endpoint": g.docs_endpoint})

Drive behaviours mirrored (each documented by Google; see the module's report for sources):
- `fields` is applied, and validated against the client's own discovery schemas (an unknown name is
  400 "Invalid field selection"). Without `fields` Drive answers its default set: files carry only
  kind, id, name, mimeType -- ask for `parents`, `md5Checksum`, `modifiedTime`... explicitly.
- `trashed` is true when the file or any ancestor folder is trashed (`explicitlyTrashed` only for
  the former); `files.list` includes trashed files unless `q` says `trashed = false`.
- `changes.list` reports each file once, at its latest change since the token, with its current
  state (Drive coalesces the same way); permanently deleted files come as `removed: true` without
  `file`. Trashing or moving a folder records one change, for the folder only: its descendants get no
  change entries (set `cascade_trash_changes=True` to also record them for trash/untrash). Deleting a
  folder deletes its descendants and records a removal for each.
- A rejected changes page token (expired via `expire_page_tokens`, bogus, or from the future) is
  400 "Invalid Value" on parameter pageToken, as Drive answers an invalid token.
- Binary files have md5Checksum, size and headRevisionId, which change only with their content;
  Google Docs/Sheets/folders/shortcuts have none of them. Every mutation bumps `version` and
  `modifiedTime` (a fake clock from 2024-01-02, +1 ms per mutation: deterministic and increasing).
- `alt=media` honours `Range` (206 + Content-Range; 416 `bytes */N` past the end, which is how the
  client finishes an empty file); Docs/Sheets there are 403 fileNotDownloadable. `files.export`
  ignores Range and answers 200 whole (the client accepts that); a binary file is 403
  fileNotExportable, an unsupported target 400 "The requested conversion is not supported."
  (a deck exports as .pptx only: the fake keeps that one export's bytes).
- Shared drives (`add_shared_drive(name)`: its id is its root folder's id; add files under it).
  Their items carry `driveId` (also in the default fields) and no `owners`/`ownedByMe`; files.get and
  alt=media answer 404 "File not found" for them without `supportsAllDrives=true` (files.export,
  comments and the Docs API take no such flag). files.list returns them only with both
  `supportsAllDrives` and `includeItemsFromAllDrives`; `corpora=drive` + `driveId` lists one drive
  (each without the other is 400 teamDriveIdRequiresTeamDriveCorpora; either without
  includeItemsFromAllDrives is 403); an unknown driveId is 404 "Shared drive not found". Each shared
  drive has its own change log and tokens (changes.getStartPageToken / changes.list with `driveId`,
  which want supportsAllDrives, and includeItemsFromAllDrives on list); a token of another log is 400.
  The user's log never holds a shared drive's items (Drive's guide: do not rely on them there), only a
  `changeType: "drive"` change when a drive is added. Moves between drives are not modelled.
- Errors: Drive's `{"error": {"code", "message", "errors": [{domain, reason, message, location?}]}}`,
  the Docs API's `{"error": {"code", "message", "status"}}`; 401 without `Bearer <token>`.

Sources: developers.google.com/workspace/drive/api/guides/handle-errors (error JSON and reasons),
guides/fields-parameter and guides/delete (default fields; trash), reference/rest/v3/files
(`trashed`, `explicitlyTrashed`, `headRevisionId`, `version`), reference/rest/v3/changes and
guides/manage-changes (ChangeList tokens, "current state of each file"), guides/enable-shareddrives
(supportsAllDrives on these methods; "If not present or set to false, then shared drive items are not
returned"), guides/about-changes (a log per user and per shared drive; what the user's log holds),
reference/rest/v3/files (driveId, owners "isn't populated for items in shared drives"); error texts as
users report them (github googleapis/google-api-php-client#1825, nithinmurali/pygsheets#437, rclone
"Shared drive not found", the default listing with driveId in gimite/google-drive-ruby#367). Choices
not checked: the 403 reason `forbidden` and the supportsAllDrives wording on changes; shared drive
tokens counting from 1. Choices not checked
against a documented source: `name contains` as a word-prefix match (as remembered from
guides/search-files), case-insensitive name order (the Drive UI's), creation order by default.

Comments (`add_comment`, `resolve_comment`, `delete_comment`; comments.list) and the Drive behaviours
they mirror are described in `comments`; sharing (`share`, `unshare`, the `permissions` field and
permissions.list), lost access (`revoke_access`: 404 and `removed` in changes), resource keys
(`set_resource_key`, `shortcutDetails.targetResourceKey`) and the Sheets API's tab ids in `sharing`.

Faults: `fail(pattern, status, reason=...)` answers in Drive's v3 shape (the Docs API's status
shape on /v1/documents); `fail(..., error_info="RATE_LIMIT_EXCEEDED")` in AIP-193's (google.rpc.Status
with an ErrorInfo detail: 403 PERMISSION_DENIED or 429 RESOURCE_EXHAUSTED, "Quota exceeded for quota
metric ..."), on any API; `retry_after="5"` adds a Retry-After header. `FakeGoogle(latency=0.1)`
answers every request after that many seconds (a round trip to Google, for benchmarks).

Layout: `server` (FakeGoogle: lifecycle, request log, fault injection), `store` (files, change log,
control API), `drive_api` / `docs_api` / `comments` / `sharing` (the endpoints), `handler` (HTTP routing, auth, error answers),
`fields` (partial responses), `query` (the `q` grammar), `errors` (Google's error JSON), `mime`.
"""

from .docs_api import document_text
from .errors import ApiError
from .handler import Recorded
from .mime import EXPORTS, FOLDER, GOOGLE_DOC, GOOGLE_SHEET, SHORTCUT, XLSX
from .server import FakeGoogle, fake_google_server

__all__ = [
    "EXPORTS",
    "FOLDER",
    "GOOGLE_DOC",
    "GOOGLE_SHEET",
    "SHORTCUT",
    "XLSX",
    "ApiError",
    "FakeGoogle",
    "Recorded",
    "document_text",
    "fake_google_server",
]
