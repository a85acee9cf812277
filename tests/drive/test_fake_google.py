"""The fake Drive v3 + Docs v1 server (tests/drive/fake_google/) seen through the real
google-api-python-client: what the lead's Drive source will see, request for request."""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
from http.client import RemoteDisconnected
from pathlib import Path

import google.auth.exceptions
import httplib2
import pytest
from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError
from googleapiclient.http import MediaIoBaseDownload

from tests.drive.fake_google import FOLDER, GOOGLE_DOC, XLSX, FakeGoogle

GDOC = Path("encoda_gdoc/__fixtures__/test-fixture-1.gdoc")
GDOC_SNAPSHOT = Path("encoda_gdoc/__file_snapshots__/test-fixture-1.md")
PDF = Path("freelaw_doctor/doctor/test_assets/missouri.pdf")
SHEET = Path("unstructured/example-docs/stanley-cups.xlsx")


def drive_client(g: FakeGoogle, token: str | None = None):
    creds = Credentials(token=token or g.token)
    return build(
        "drive", "v3", credentials=creds, static_discovery=True, client_options={"api_endpoint": g.drive_endpoint}
    )


def docs_client(g: FakeGoogle):
    return build(
        "docs",
        "v1",
        credentials=Credentials(token=g.token),
        static_discovery=True,
        client_options={"api_endpoint": g.docs_endpoint},
    )


def error_of(exc: HttpError) -> dict:
    return json.loads(exc.content)["error"]


def list_all(drive, **kwargs) -> tuple[list[dict], int]:
    files, pages, token = [], 0, None
    while True:
        page = drive.files().list(pageToken=token, **kwargs).execute()
        files += page["files"]
        pages += 1
        token = page.get("nextPageToken")
        if not token:
            return files, pages


def all_changes(drive, token: str, **kwargs) -> tuple[list[dict], list[dict], str]:
    """Every change after `token`, the raw pages, and the new start token."""
    changes, pages = [], []
    while True:
        page = drive.changes().list(pageToken=token, fields="*", **kwargs).execute()
        pages.append(page)
        changes += page["changes"]
        if "newStartPageToken" in page:
            return changes, pages, page["newStartPageToken"]
        token = page["nextPageToken"]


def no_sleep(request, slept: list[float]):
    request._sleep = slept.append  # the client's own backoff timer, so retries do not wait
    return request


# ---------------------------------------------------------------- listing


def test_a_folder_of_250_files_lists_in_three_pages_of_at_most_100(fake_google):
    top = fake_google.add_folder("Reports")
    ids = {fake_google.add_file(f"r{i:03}.txt", top, f"report {i}".encode(), "text/plain") for i in range(250)}
    fake_google.add_file("elsewhere.txt", fake_google.add_folder("Other"), b"x", "text/plain")
    drive = drive_client(fake_google)

    files, pages = list_all(
        drive,
        q=f"'{top}' in parents and trashed = false",
        pageSize=100,
        fields="nextPageToken, files(id, name)",
        orderBy="name",
        supportsAllDrives=True,
        includeItemsFromAllDrives=True,
        spaces="drive",
        corpora="user",
    )

    assert pages == 3
    assert [f["name"] for f in files] == [f"r{i:03}.txt" for i in range(250)]
    assert {f["id"] for f in files} == ids
    assert all(set(f) == {"id", "name"} for f in files)
    assert sum(1 for m, t in fake_google.requests if t.startswith("/drive/v3/files?")) == 3


def test_q_filters_types_parents_and_trash_including_a_trashed_ancestor(fake_google):
    top = fake_google.add_folder("Top")
    sub = fake_google.add_folder("Sub", top)
    binned = fake_google.add_folder("Binned", top)
    a = fake_google.add_file("a.pdf", top, b"%PDF-1.4", "application/pdf")
    doc = fake_google.add_google_doc("Notes", top, {"body": {"content": []}})
    gone = fake_google.add_file("gone.txt", top, b"bye", "text/plain")
    inside = fake_google.add_file("inside.txt", binned, b"hidden by the parent", "text/plain")
    fake_google.trash(gone)
    fake_google.trash(binned)
    drive = drive_client(fake_google)

    def names(q: str, **kw) -> list[str]:
        return [f["name"] for f in list_all(drive, q=q, fields="nextPageToken,files(name)", **kw)[0]]

    assert names(f"'{top}' in parents", orderBy="name") == ["a.pdf", "Binned", "gone.txt", "Notes", "Sub"]
    assert names(f"'{top}' in parents and trashed=false", orderBy="folder,name") == ["Sub", "a.pdf", "Notes"]
    assert names(f"'{top}' in parents and mimeType = '{FOLDER}'", orderBy="name") == ["Binned", "Sub"]
    assert names(f"'{top}' in parents and mimeType != '{FOLDER}' and trashed = false", orderBy="name") == [
        "a.pdf",
        "Notes",
    ]
    assert names(f"'{binned}' in parents") == ["inside.txt"]
    assert names(f"'{binned}' in parents and trashed = false") == []
    assert names("'root' in parents") == ["Top"]
    assert names(f"mimeType = '{GOOGLE_DOC}' or name contains 'insi'", orderBy="name") == ["inside.txt", "Notes"]
    quoted = fake_google.add_file("O'Brien's notes.txt", top, b"q", "text/plain")
    assert names("name = 'O\\'Brien\\'s notes.txt' and not trashed = true") == ["O'Brien's notes.txt"]
    assert names(f"('{sub}' in parents or '{binned}' in parents) and trashed = true") == ["inside.txt"]
    assert quoted

    hidden = drive.files().get(fileId=inside, fields="trashed,explicitlyTrashed").execute()
    assert hidden == {"trashed": True, "explicitlyTrashed": False}
    assert {a, doc, sub}  # ids exist

    for bad in ("fullText contains 'x'", f"'{top}' in owners", "trashed = maybe", f"'{top}' in parents and"):
        with pytest.raises(HttpError) as exc:
            drive.files().list(q=bad).execute()
        assert exc.value.status_code == 400
        assert error_of(exc.value)["errors"][0] | {} == {
            "domain": "global",
            "reason": "invalid",
            "message": "Invalid Value",
            "location": "q",
            "locationType": "parameter",
        }


def test_page_size_and_order_by_are_validated(fake_google):
    drive = drive_client(fake_google)
    with pytest.raises(HttpError) as exc:
        drive.files().list(pageSize=1001).execute()
    assert error_of(exc.value)["errors"][0]["location"] == "pageSize"
    with pytest.raises(HttpError) as exc:
        drive.files().list(orderBy="size").execute()
    assert error_of(exc.value)["errors"][0]["location"] == "orderBy"
    with pytest.raises(HttpError) as exc:
        drive.files().list(pageToken="not-a-token").execute()
    assert error_of(exc.value)["errors"][0]["location"] == "pageToken"


# ---------------------------------------------------------------- metadata


def test_metadata_fields_defaults_and_checksums(fake_google, corpus):
    pdf = (corpus / PDF).read_bytes()
    top = fake_google.add_folder("Top")
    fid = fake_google.add_file("missouri.pdf", top, pdf, "application/pdf")
    doc = fake_google.add_google_doc("Notes", top, {"body": {"content": []}})
    drive = drive_client(fake_google)

    # Drive's default partial response is only kind/id/name/mimeType
    assert drive.files().get(fileId=fid).execute() == {
        "kind": "drive#file",
        "id": fid,
        "name": "missouri.pdf",
        "mimeType": "application/pdf",
    }
    meta = (
        drive.files()
        .get(
            fileId=fid,
            supportsAllDrives=True,
            fields="id,name,parents,md5Checksum,size,version,modifiedTime,headRevisionId,trashed",
        )
        .execute()
    )
    assert meta["md5Checksum"] == hashlib.md5(pdf).hexdigest()
    assert meta["size"] == str(len(pdf))
    assert meta["parents"] == [top]
    assert meta["trashed"] is False
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", meta["modifiedTime"])
    assert meta["version"].isdigit()

    gdoc = drive.files().get(fileId=doc, fields="*").execute()
    assert gdoc["mimeType"] == GOOGLE_DOC
    assert not {"md5Checksum", "size", "headRevisionId"} & set(gdoc)
    assert drive.files().get(fileId="root", fields="id,name").execute() == {
        "id": fake_google.root_id,
        "name": "My Drive",
    }

    fake_google.update(fid, content=pdf + b"\n%%EOF\n")
    after = drive.files().get(fileId=fid, fields="md5Checksum,size,version,modifiedTime,headRevisionId").execute()
    assert after["md5Checksum"] == hashlib.md5(pdf + b"\n%%EOF\n").hexdigest()
    assert int(after["version"]) > int(meta["version"])
    assert after["modifiedTime"] > meta["modifiedTime"]
    assert after["headRevisionId"] != meta["headRevisionId"]

    fake_google.move(fid, fake_google.add_folder("Elsewhere"))
    moved = drive.files().get(fileId=fid, fields="headRevisionId,md5Checksum,version").execute()
    assert moved["headRevisionId"] == after["headRevisionId"]  # content revision unchanged by a move
    assert int(moved["version"]) > int(after["version"])

    with pytest.raises(HttpError) as exc:
        drive.files().get(fileId=fid, fields="id,nmae").execute()
    assert exc.value.status_code == 400
    assert error_of(exc.value)["message"] == "Invalid field selection nmae"
    with pytest.raises(HttpError) as exc:
        drive.files().get(fileId="no-such-file").execute()
    assert exc.value.status_code == 404
    assert error_of(exc.value)["errors"][0]["reason"] == "notFound"


def test_shortcut_points_at_its_target(fake_google):
    top = fake_google.add_folder("Top")
    target = fake_google.add_google_doc("Target", fake_google.add_folder("Far"), {"body": {"content": []}})
    cut = fake_google.add_shortcut("Link", top, target)
    meta = drive_client(fake_google).files().get(fileId=cut, fields="mimeType,shortcutDetails").execute()
    assert meta == {
        "mimeType": "application/vnd.google-apps.shortcut",
        "shortcutDetails": {"targetId": target, "targetMimeType": GOOGLE_DOC},
    }


# ---------------------------------------------------------------- content


def test_chunked_range_download_equals_the_file(fake_google, corpus):
    pdf = (corpus / PDF).read_bytes()
    fid = fake_google.add_file("missouri.pdf", fake_google.add_folder("Top"), pdf, "application/pdf")
    chunk = 16 * 1024
    buf = io.BytesIO()
    download = MediaIoBaseDownload(buf, drive_client(fake_google).files().get_media(fileId=fid), chunksize=chunk)
    done, progress = False, []
    while not done:
        status, done = download.next_chunk()
        progress.append(status.resumable_progress)

    assert buf.getvalue() == pdf
    ranges = [r.headers["range"] for r in fake_google.log if "alt=media" in r.target]
    assert len(ranges) == math.ceil(len(pdf) / chunk) > 2
    assert ranges[:2] == [f"bytes=0-{chunk - 1}", f"bytes={chunk}-{2 * chunk - 1}"]
    assert {r.status for r in fake_google.log if "alt=media" in r.target} == {206}
    assert progress[-1] == len(pdf)


def test_the_log_names_the_connection_and_the_bytes_answered(fake_google):
    """Who asked (the client's port, so which process) and how many bytes each answer carried: what
    the scale benchmark reads to tell the driver's downloads from the workers'."""
    body = b"# Notes\n\n" + b"x" * 5000
    fid = fake_google.add_file("notes.md", fake_google.add_folder("Top"), body, "text/markdown")
    first, second = httplib2.Http(), httplib2.Http()  # two clients, two connections
    auth = {"authorization": f"Bearer {fake_google.token}"}
    url = f"{fake_google.drive_endpoint}files/{fid}?alt=media"
    answers = [client.request(url, headers=auth) for client in (first, second, first)]
    assert [(r.status, len(data)) for r, data in answers] == [(200, len(body))] * 3
    log = fake_google.log
    assert [r.sent for r in log] == [len(body)] * 3
    assert log[0].client_port == log[2].client_port != log[1].client_port  # kept alive: one connection each
    assert all(r.began <= r.answered for r in log) and log[0].answered <= log[1].began


def test_download_of_an_empty_file_and_retried_chunk(fake_google, corpus):
    top = fake_google.add_folder("Top")
    empty = fake_google.add_file("empty.txt", top, b"", "text/plain")
    buf = io.BytesIO()
    _, done = MediaIoBaseDownload(buf, drive_client(fake_google).files().get_media(fileId=empty)).next_chunk()
    assert done and buf.getvalue() == b""

    pdf = (corpus / PDF).read_bytes()
    fid = fake_google.add_file("missouri.pdf", top, pdf, "application/pdf")
    fake_google.fail(r"alt=media", 503, times=1)
    buf = io.BytesIO()
    download = MediaIoBaseDownload(buf, drive_client(fake_google).files().get_media(fileId=fid), chunksize=256 * 1024)
    download._sleep = lambda s: None
    done = False
    while not done:
        _, done = download.next_chunk(num_retries=2)
    assert buf.getvalue() == pdf
    assert next(r.status for r in fake_google.log if fid in r.target) == 503


def test_google_files_are_not_downloadable_and_binary_files_not_exportable(fake_google, corpus):
    top = fake_google.add_folder("Top")
    doc = fake_google.add_google_doc("Notes", top, json.loads((corpus / GDOC).read_text()))
    pdf = fake_google.add_file("missouri.pdf", top, (corpus / PDF).read_bytes(), "application/pdf")
    drive = drive_client(fake_google)
    with pytest.raises(HttpError) as exc:
        drive.files().get_media(fileId=doc).execute()
    assert exc.value.status_code == 403
    assert error_of(exc.value)["errors"][0]["reason"] == "fileNotDownloadable"
    with pytest.raises(HttpError) as exc:
        drive.files().export(fileId=pdf, mimeType="text/plain").execute()
    assert exc.value.status_code == 403
    assert error_of(exc.value)["errors"][0]["reason"] == "fileNotExportable"
    with pytest.raises(HttpError) as exc:
        drive.files().export(fileId=doc, mimeType="application/zip").execute()
    assert exc.value.status_code == 400
    assert error_of(exc.value)["message"] == "The requested conversion is not supported."


def test_export_of_a_sheet_returns_its_xlsx(fake_google, corpus):
    xlsx = (corpus / SHEET).read_bytes()
    sheet = fake_google.add_google_sheet("Stanley Cups", fake_google.add_folder("Top"), xlsx)
    drive = drive_client(fake_google)
    assert drive.files().export(fileId=sheet, mimeType=XLSX).execute() == xlsx
    buf = io.BytesIO()  # the streaming path the source may use for large exports
    download = MediaIoBaseDownload(buf, drive.files().export_media(fileId=sheet, mimeType=XLSX), chunksize=1024)
    done = False
    while not done:
        _, done = download.next_chunk()
    assert buf.getvalue() == xlsx
    meta = drive.files().get(fileId=sheet, fields="mimeType,exportLinks,size").execute()
    assert meta["mimeType"] == "application/vnd.google-apps.spreadsheet"
    assert XLSX in meta["exportLinks"] and "size" not in meta


def test_export_of_a_doc_as_text_and_markdown(fake_google, corpus):
    document = json.loads((corpus / GDOC).read_text())
    doc = fake_google.add_google_doc("Fixture", fake_google.add_folder("Top"), document)
    drive = drive_client(fake_google)
    text = drive.files().export(fileId=doc, mimeType="text/plain").execute().decode()
    markdown = drive.files().export(fileId=doc, mimeType="text/markdown").execute().decode()
    # Encoda's own rendering of the same document names its headings
    headings = [ln for ln in (corpus / GDOC_SNAPSHOT).read_text().splitlines() if re.match(r"#+ ", ln)]
    assert len(headings) >= 5
    assert set(headings) <= set(markdown.splitlines())
    assert {h.lstrip("# ") for h in headings} <= set(text.splitlines())


# ---------------------------------------------------------------- Docs API


def test_documents_get_returns_the_stored_document(fake_google, corpus):
    document = json.loads((corpus / GDOC).read_text())
    doc = fake_google.add_google_doc("Fixture", fake_google.add_folder("Top"), document)
    docs = docs_client(fake_google)

    got = docs.documents().get(documentId=doc, suggestionsViewMode="SUGGESTIONS_INLINE").execute()
    assert got["documentId"] == doc and got["title"] == "Fixture"
    assert got["body"] == document["body"] and got["lists"] == document["lists"]
    tabbed = docs.documents().get(documentId=doc, includeTabsContent=True).execute()
    assert "body" not in tabbed
    assert tabbed["tabs"][0]["documentTab"]["body"] == document["body"]

    document["body"]["content"] = document["body"]["content"][:3]
    fake_google.update(doc, document=document)
    again = docs.documents().get(documentId=doc).execute()
    assert again["revisionId"] != got["revisionId"]
    assert len(again["body"]["content"]) == 3

    with pytest.raises(HttpError) as exc:
        docs.documents().get(documentId="no-such-doc").execute()
    assert exc.value.status_code == 404
    assert error_of(exc.value)["status"] == "NOT_FOUND"


# ---------------------------------------------------------------- changes


def test_each_mutation_appears_in_changes_with_drives_shape(fake_google):
    top = fake_google.add_folder("Top")
    other = fake_google.add_folder("Other")
    edited = fake_google.add_file("edited.txt", top, b"v1", "text/plain")
    moved = fake_google.add_file("moved.txt", top, b"m", "text/plain")
    binned = fake_google.add_file("binned.txt", top, b"t", "text/plain")
    restored = fake_google.add_file("restored.txt", top, b"r", "text/plain")
    deleted = fake_google.add_file("deleted.txt", top, b"d", "text/plain")
    fake_google.trash(restored)
    drive = drive_client(fake_google)
    start = drive.changes().getStartPageToken(supportsAllDrives=True).execute()["startPageToken"]

    assert all_changes(drive, start)[0] == []
    fake_google.update(edited, content=b"v2")
    fake_google.move(moved, other)
    fake_google.trash(binned)
    fake_google.untrash(restored)
    fake_google.delete(deleted)

    changes, pages, new_start = all_changes(
        drive,
        start,
        pageSize=2,
        includeRemoved=True,
        restrictToMyDrive=False,
        spaces="drive",
        supportsAllDrives=True,
        includeItemsFromAllDrives=True,
    )
    assert [len(p["changes"]) for p in pages] == [2, 2, 1]
    assert all("nextPageToken" in p and "newStartPageToken" not in p for p in pages[:-1])
    assert "nextPageToken" not in pages[-1]
    by_id = {c["fileId"]: c for c in changes}
    assert [c["fileId"] for c in changes] == [edited, moved, binned, restored, deleted]
    assert by_id[edited]["file"]["md5Checksum"] == hashlib.md5(b"v2").hexdigest()
    assert by_id[moved]["file"]["parents"] == [other]
    assert by_id[binned]["file"]["trashed"] is True and by_id[binned]["removed"] is False
    assert by_id[restored]["file"]["trashed"] is False
    assert by_id[deleted]["removed"] is True and "file" not in by_id[deleted]
    assert all(c["kind"] == "drive#change" and c["changeType"] == "file" and c["time"] for c in changes)

    assert all_changes(drive, new_start)[0] == []
    without_removed = all_changes(drive, start, includeRemoved=False)[0]
    assert deleted not in {c["fileId"] for c in without_removed}

    # without `fields`, the file inside a change carries Drive's default fields only
    fake_google.update(edited, name="renamed.txt")
    default = drive.changes().list(pageToken=new_start).execute()
    assert default["changes"][0]["file"] == {
        "kind": "drive#file",
        "id": edited,
        "name": "renamed.txt",
        "mimeType": "text/plain",
    }


def test_changes_coalesce_to_the_latest_state_and_trashed_folder_reports_only_itself(fake_google):
    top = fake_google.add_folder("Top")
    fid = fake_google.add_file("a.txt", top, b"1", "text/plain")
    child = fake_google.add_file("child.txt", top, b"c", "text/plain")
    drive = drive_client(fake_google)
    start = drive.changes().getStartPageToken().execute()["startPageToken"]
    fake_google.update(fid, content=b"2")
    fake_google.update(fid, content=b"3", name="b.txt")
    fake_google.trash(top)

    changes = all_changes(drive, start)[0]
    assert [c["fileId"] for c in changes] == [fid, top]
    assert changes[0]["file"]["name"] == "b.txt"
    assert changes[0]["file"]["trashed"] is True  # its folder is trashed now: the current state is reported
    assert fake_google.changes_since(start) == 3
    assert drive.files().get(fileId=child, fields="trashed").execute() == {"trashed": True}


def test_expired_page_tokens_are_rejected_as_drive_does(fake_google):
    top = fake_google.add_folder("Top")
    drive = drive_client(fake_google)
    start = drive.changes().getStartPageToken().execute()["startPageToken"]
    for i in range(5):
        fake_google.add_file(f"{i}.txt", top, b"x", "text/plain")
    first = drive.changes().list(pageToken=start, pageSize=2).execute()
    fake_google.expire_page_tokens()

    for token in (start, first["nextPageToken"], "bogus", "99999999"):
        with pytest.raises(HttpError) as exc:
            drive.changes().list(pageToken=token).execute()
        assert exc.value.status_code == 400
        assert error_of(exc.value)["errors"][0] == {
            "message": "Invalid Value",
            "domain": "global",
            "reason": "invalid",
            "location": "pageToken",
            "locationType": "parameter",
        }

    fresh = drive.changes().getStartPageToken().execute()["startPageToken"]
    fake_google.add_file("after.txt", top, b"y", "text/plain")
    assert [c["file"]["name"] for c in all_changes(drive, fresh)[0]] == ["after.txt"]


# ---------------------------------------------------------------- faults


@pytest.mark.parametrize(
    ("status", "reason"),
    [(429, None), (403, "userRateLimitExceeded"), (403, "rateLimitExceeded"), (500, None), (503, "backendError")],
)
def test_rate_limits_and_server_errors_are_retried_by_the_client(fake_google, status, reason):
    fake_google.add_folder("Top")
    drive = drive_client(fake_google)
    fake_google.fail(r"^/drive/v3/files\?", status, times=2, reason=reason)
    slept: list[float] = []

    result = no_sleep(drive.files().list(fields="files(name)"), slept).execute(num_retries=3)

    assert result == {"files": [{"name": "Top"}]}
    assert [r.status for r in fake_google.log] == [status, status, 200]
    assert len(slept) == 2
    assert len(fake_google.requests) == 3


def test_docs_api_faults_use_its_status_shape_and_are_retried(fake_google, corpus):
    doc = fake_google.add_google_doc("Fixture", fake_google.add_folder("Top"), json.loads((corpus / GDOC).read_text()))
    docs = docs_client(fake_google)
    fake_google.fail(r"^/v1/documents/", 429)
    with pytest.raises(HttpError) as exc:
        docs.documents().get(documentId=doc).execute()
    assert error_of(exc.value) == {"code": 429, "message": "Rate Limit Exceeded", "status": "RESOURCE_EXHAUSTED"}
    fake_google.fail(r"^/v1/documents/", 500, times=2)
    slept: list[float] = []
    assert no_sleep(docs.documents().get(documentId=doc), slept).execute(num_retries=2)["documentId"] == doc
    assert [r.status for r in fake_google.log] == [429, 500, 500, 200]


def test_errors_carry_googles_json_and_a_plain_403_is_not_retried(fake_google):
    drive = drive_client(fake_google)
    fake_google.fail("files", 403, reason="userRateLimitExceeded")
    with pytest.raises(HttpError) as exc:
        drive.files().list().execute()  # num_retries=0: the error reaches the caller
    assert error_of(exc.value) == {
        "code": 403,
        "message": "User Rate Limit Exceeded",
        "errors": [{"message": "User Rate Limit Exceeded", "domain": "usageLimits", "reason": "userRateLimitExceeded"}],
    }
    assert exc.value.reason == "User Rate Limit Exceeded"

    fake_google.fail("files", 403, times=5)  # reason "forbidden": not a rate limit
    with pytest.raises(HttpError) as exc:
        no_sleep(drive.files().list(), []).execute(num_retries=3)
    assert exc.value.status_code == 403
    assert len(fake_google.requests) == 2


def test_a_dropped_connection(fake_google):
    drive = drive_client(fake_google)
    # httplib2 itself resends once on a connection that closes without an answer
    fake_google.fail("changes/startPageToken", drop=True)
    assert "startPageToken" in drive.changes().getStartPageToken().execute()
    assert [r.status for r in fake_google.log] == [None, 200]

    # twice in a row reaches the caller as http.client.RemoteDisconnected (a ConnectionError)
    fake_google.fail("changes/startPageToken", drop=True, times=2)
    with pytest.raises(RemoteDisconnected):
        drive.changes().getStartPageToken().execute()
    with pytest.raises(ConnectionError):
        fake_google.fail("changes/startPageToken", drop=True, times=2)
        drive.changes().getStartPageToken().execute()

    # execute(num_retries=n) retries ConnectionError too
    fake_google.fail("changes/startPageToken", drop=True, times=3)
    slept: list[float] = []
    assert "startPageToken" in no_sleep(drive.changes().getStartPageToken(), slept).execute(num_retries=2)
    assert len(slept) == 1


def test_without_the_bearer_token_the_answer_is_401(fake_google):
    # no credentials at all: the client surfaces the 401 as HttpError
    bare = build(
        "drive",
        "v3",
        http=httplib2.Http(),
        static_discovery=True,
        client_options={"api_endpoint": fake_google.drive_endpoint},
    )
    with pytest.raises(HttpError) as exc:
        bare.files().list().execute()
    assert exc.value.status_code == 401
    assert error_of(exc.value)["errors"][0]["reason"] == "authError"
    assert fake_google.log[-1].headers.get("authorization") is None

    # a wrong token: google-auth tries to refresh on the 401 and, with no refresh token, raises
    with pytest.raises(google.auth.exceptions.RefreshError):
        drive_client(fake_google, token="wrong-token").files().list().execute()
    assert fake_google.log[-1].headers["authorization"] == "Bearer wrong-token"
    assert fake_google.log[-1].status == 401

    drive_client(fake_google).files().list().execute()
    assert fake_google.log[-1].headers["authorization"] == "Bearer test-token"


def test_the_server_as_a_context_manager_refuses_connections_once_stopped(corpus):
    with FakeGoogle(token="other-token") as g:
        g.add_file("stanley-cups.xlsx", g.add_folder("Top"), (corpus / SHEET).read_bytes(), XLSX)
        drive = drive_client(g)
        assert len(drive.files().list(q="trashed = false").execute()["files"]) == 2
        assert g.log[-1].headers["authorization"] == "Bearer other-token"
    with pytest.raises(OSError):
        drive.files().list().execute()


# ---------------------------------------------------------------- comments

# What the Drive source asks for (the lead's comments.list call).
COMMENT_FIELDS = (
    "nextPageToken,comments(id,content,author(displayName,emailAddress),createdTime,modifiedTime,"
    "resolved,deleted,quotedFileContent(mimeType,value),anchor,replies(id,content,author(displayName),"
    "createdTime,deleted,action))"
)


def list_comments(drive, file_id: str, **kwargs) -> tuple[list[dict], list[int]]:
    """Every comment of `file_id` and the size of each page, as the source pages through them."""
    comments, sizes, token = [], [], None
    while True:
        page = (
            drive.comments()
            .list(fileId=file_id, fields=COMMENT_FIELDS, pageToken=token, **kwargs)
            .execute(num_retries=2)
        )
        comments += page.get("comments", [])
        sizes.append(len(page.get("comments", [])))
        token = page.get("nextPageToken")
        if not token:
            return comments, sizes


def test_comments_list_in_pages_with_quotes_anchors_and_replies(fake_google):
    doc = fake_google.add_google_doc("Plan", fake_google.add_folder("Top"), {"body": {"content": []}})
    first = fake_google.add_comment(
        doc, "Is this figure right?", quoted="revenue grew 40%", author="Ann", replies=["Checked: it is.", "Thanks"]
    )
    ids = [first] + [fake_google.add_comment(doc, f"note {i}") for i in range(119)]
    drive = drive_client(fake_google)

    comments, sizes = list_comments(drive, doc, pageSize=100, includeDeleted=False)
    assert sizes == [100, 20]
    assert [c["id"] for c in comments] == ids and len(set(ids)) == 120
    assert list_comments(drive, doc)[1] == [20] * 6  # Drive's default page is 20
    assert list_comments(drive, doc, pageSize=1000)[1] == [100, 20]  # above 100 is coerced to 100

    quoted = comments[0]
    assert quoted["content"] == "Is this figure right?"
    assert quoted["quotedFileContent"] == {"mimeType": "text/html", "value": "revenue grew 40%"}
    assert re.fullmatch(r"kix\.\w+", quoted["anchor"])
    assert quoted["author"] == {"displayName": "Ann"}  # Drive does not populate a comment author's email
    assert quoted["resolved"] is False and quoted["deleted"] is False
    assert [r["content"] for r in quoted["replies"]] == ["Checked: it is.", "Thanks"]
    assert len({r["id"] for r in quoted["replies"]}) == 2
    assert all(r["author"] == {"displayName": "Ann"} and "action" not in r for r in quoted["replies"])
    assert quoted["createdTime"] < quoted["replies"][0]["createdTime"] <= quoted["modifiedTime"]
    assert "anchor" not in comments[1] and "quotedFileContent" not in comments[1] and comments[1]["replies"] == []

    with_email = fake_google.add_comment(doc, "x", author="Bo", email="bo@example.com")
    last = list_comments(drive, doc, pageSize=100)[0][-1]
    assert (last["id"], last["author"]) == (with_email, {"displayName": "Bo", "emailAddress": "bo@example.com"})


def test_comments_list_requires_fields_and_rejects_bad_requests(fake_google):
    doc = fake_google.add_google_doc("Plan", None, {"body": {"content": []}})
    fake_google.add_comment(doc, "hello")
    drive = drive_client(fake_google)

    def error(**kwargs) -> dict:
        with pytest.raises(HttpError) as exc:
            drive.comments().list(**kwargs).execute()
        return error_of(exc.value)

    missing = error(fileId=doc)
    assert (missing["code"], missing["message"]) == (400, "The 'fields' parameter is required for this method.")
    assert missing["errors"][0]["location"] == "fields"
    assert error(fileId=doc, fields="comments(id,body)")["message"] == "Invalid field selection body"
    gone = error(fileId="1NoSuchFile", fields="comments(id)")
    assert (gone["code"], gone["errors"][0]["reason"], gone["message"]) == (
        404,
        "notFound",
        "File not found: 1NoSuchFile.",
    )
    assert error(fileId=doc, fields="comments(id)", pageSize=0)["errors"][0]["location"] == "pageSize"
    assert error(fileId=doc, fields="comments(id)", pageToken="bogus")["errors"][0]["location"] == "pageToken"
    assert (
        error(fileId=doc, fields="comments(id)", startModifiedTime="yesterday")["errors"][0]["location"]
        == "startModifiedTime"
    )
    assert drive.comments().list(fileId=doc, fields="comments(content)").execute() == {
        "comments": [{"content": "hello"}]
    }


def test_deleted_comments_only_with_include_deleted_and_without_content(fake_google):
    doc = fake_google.add_google_doc("Plan", None, {"body": {"content": []}})
    keep = fake_google.add_comment(doc, "keep me", quoted="the quote")
    gone = fake_google.add_comment(doc, "delete me")
    done = fake_google.add_comment(doc, "fix the date", resolved=True)
    later = fake_google.add_comment(doc, "resolved later", replies=["on it"])
    fake_google.delete_comment(doc, gone)
    fake_google.resolve_comment(doc, later)
    drive = drive_client(fake_google)

    visible = list_comments(drive, doc)[0]
    assert [c["id"] for c in visible] == [keep, done, later]
    everything = {c["id"]: c for c in list_comments(drive, doc, includeDeleted=True)[0]}
    assert list(everything) == [keep, gone, done, later]
    assert everything[gone]["deleted"] is True and "content" not in everything[gone]
    assert [c["resolved"] for c in visible] == [False, True, True]
    # resolving is a reply with action "resolve" and no text
    assert [(r.get("action"), "content" in r) for r in everything[done]["replies"]] == [("resolve", False)]
    assert [(r.get("action"), r.get("content")) for r in everything[later]["replies"]] == [
        (None, "on it"),
        ("resolve", None),
    ]
    assert (
        everything[later]["modifiedTime"]
        == everything[later]["replies"][-1]["createdTime"]
        > everything[later]["createdTime"]
    )


def test_start_modified_time_keeps_comments_touched_since(fake_google):
    doc = fake_google.add_google_doc("Plan", None, {"body": {"content": []}})
    old = fake_google.add_comment(doc, "old and untouched")
    resolved_late = fake_google.add_comment(doc, "old, resolved after the cut")
    new = fake_google.add_comment(doc, "new")
    drive = drive_client(fake_google)
    cut = {c["id"]: c for c in list_comments(drive, doc)[0]}[new]["createdTime"]
    fake_google.resolve_comment(doc, resolved_late)

    since = list_comments(drive, doc, startModifiedTime=cut)[0]
    assert [c["id"] for c in since] == [resolved_late, new]
    assert old not in {c["id"] for c in since}


def test_comments_bump_the_file_version_not_its_modified_time_and_show_in_changes(fake_google):
    doc = fake_google.add_google_doc("Plan", None, {"body": {"content": []}})
    other = fake_google.add_file("other.txt", None, b"x", "text/plain")
    drive = drive_client(fake_google)

    def state() -> dict:
        return drive.files().get(fileId=doc, fields="version,modifiedTime").execute()

    before = state()
    start = drive.changes().getStartPageToken().execute()["startPageToken"]
    cid = fake_google.add_comment(doc, "one")
    after_add = state()
    fake_google.resolve_comment(doc, cid)
    fake_google.delete_comment(doc, fake_google.add_comment(doc, "two"))
    after_all = state()
    assert after_add["modifiedTime"] == after_all["modifiedTime"] == before["modifiedTime"]
    assert int(after_add["version"]) == int(before["version"]) + 1
    assert int(after_all["version"]) == int(before["version"]) + 4  # add, resolve, add, delete
    changes, _, _ = all_changes(drive, start)
    assert [(c["fileId"], c["file"]["version"], c["file"]["modifiedTime"]) for c in changes] == [
        (doc, after_all["version"], before["modifiedTime"])
    ]
    assert other not in {c["fileId"] for c in changes}

    with FakeGoogle(comment_changes=False) as quiet:  # for sources that must not rely on the feed
        qdoc = quiet.add_google_doc("Plan", None, {"body": {"content": []}})
        qdrive = drive_client(quiet)
        qstart = qdrive.changes().getStartPageToken().execute()["startPageToken"]
        version = quiet.file(qdoc)["version"]
        quiet.add_comment(qdoc, "silent")
        assert all_changes(qdrive, qstart)[0] == []
        assert int(quiet.file(qdoc)["version"]) == int(version) + 1


# ---------------------------------------------------------------- shared drives

ALL_DRIVES = {"supportsAllDrives": True, "includeItemsFromAllDrives": True}


def test_a_shared_drive_is_listed_only_for_an_app_that_asks_for_its_items(fake_google):
    g = fake_google
    team = g.add_shared_drive("Engineering")
    specs = g.add_folder("Specs", team)
    spec = g.add_file("api.md", specs, b"# API\n", "text/markdown")
    mine = g.add_file("mine.md", g.add_folder("Mine"), b"# Mine\n", "text/markdown")
    drive = drive_client(g)

    def names(**kw) -> list[str]:
        return sorted(f["name"] for f in list_all(drive, fields="nextPageToken,files(name)", **kw)[0])

    # the drive's id is its root folder's id
    assert drive.files().get(
        fileId=team, supportsAllDrives=True, fields="id,name,mimeType,driveId,parents"
    ).execute() == {"id": team, "name": "Engineering", "mimeType": FOLDER, "driveId": team, "parents": []}
    assert names(q=f"'{team}' in parents", **ALL_DRIVES) == ["Specs"]
    # without includeItemsFromAllDrives (or supportsAllDrives) shared drive items are not returned
    assert names(q=f"'{specs}' in parents") == []
    assert names(q=f"'{specs}' in parents", supportsAllDrives=True) == []
    assert names(q=f"'{specs}' in parents", includeItemsFromAllDrives=True) == []
    assert names(q=f"'{specs}' in parents", **ALL_DRIVES) == ["api.md"]
    assert names(q="trashed = false") == ["Mine", "mine.md"]  # the user corpus: My Drive only
    assert names(q="trashed = false", corpora="allDrives", **ALL_DRIVES) == ["Mine", "Specs", "api.md", "mine.md"]
    assert names(corpora="drive", driveId=team, **ALL_DRIVES) == ["Specs", "api.md"]  # not the root, not My Drive

    # driveId and corpora=drive go together, and need includeItemsFromAllDrives
    for kw, status, reason in [
        ({"driveId": team, **ALL_DRIVES}, 400, "teamDriveIdRequiresTeamDriveCorpora"),
        ({"corpora": "drive", **ALL_DRIVES}, 400, "teamDriveIdRequiresTeamDriveCorpora"),
        ({"corpora": "drive", "driveId": team, "supportsAllDrives": True}, 403, "forbidden"),
        ({"corpora": "drive", "driveId": "0ANoSuchDriveUk9PVA", **ALL_DRIVES}, 404, "notFound"),
    ]:
        with pytest.raises(HttpError) as exc:
            drive.files().list(**kw).execute()
        assert exc.value.status_code == status and error_of(exc.value)["errors"][0]["reason"] == reason, kw
    assert "Shared drive not found: 0ANoSuchDriveUk9PVA" in error_of(exc.value)["message"]

    # files.get: 404 without supportsAllDrives; driveId only for shared drive items; no owners there
    with pytest.raises(HttpError) as exc:
        drive.files().get(fileId=spec, fields="id").execute()
    assert exc.value.status_code == 404 and error_of(exc.value)["message"] == f"File not found: {spec}."
    fields = "id,driveId,owners,ownedByMe"
    assert drive.files().get(fileId=spec, supportsAllDrives=True, fields=fields).execute() == {
        "id": spec,
        "driveId": team,
    }
    own = drive.files().get(fileId=mine, supportsAllDrives=True, fields=fields).execute()
    assert "driveId" not in own and own["ownedByMe"] is True and own["owners"][0]["me"] is True
    assert drive.files().get(fileId=spec, supportsAllDrives=True).execute() == {  # default fields carry driveId
        "kind": "drive#file",
        "id": spec,
        "name": "api.md",
        "mimeType": "text/markdown",
        "driveId": team,
        "teamDriveId": team,
    }

    # content: alt=media takes supportsAllDrives too; files.export has no such parameter
    with pytest.raises(HttpError) as exc:
        drive.files().get_media(fileId=spec).execute()
    assert exc.value.status_code == 404
    assert drive.files().get_media(fileId=spec, supportsAllDrives=True).execute() == b"# API\n"
    body = {"content": [{"paragraph": {"elements": [{"textRun": {"content": "Design notes\n"}}]}}]}
    doc = g.add_google_doc("Design", specs, {"body": body})
    assert b"Design notes" in drive.files().export(fileId=doc, mimeType="text/plain").execute()
    with pytest.raises(ValueError, match="not modelled"):
        g.move(mine, specs)


def test_a_shared_drive_has_its_own_change_log(fake_google):
    g = fake_google
    team = g.add_shared_drive("Engineering")
    specs = g.add_folder("Specs", team)
    edited = g.add_file("edited.md", specs, b"v1", "text/markdown")
    binned = g.add_file("binned.md", specs, b"b", "text/markdown")
    old = g.add_folder("Old", specs)
    inside = g.add_file("inside.md", old, b"i", "text/markdown")
    drive = drive_client(g)
    user_start = drive.changes().getStartPageToken().execute()["startPageToken"]
    team_start = drive.changes().getStartPageToken(driveId=team, supportsAllDrives=True).execute()["startPageToken"]

    g.update(edited, content=b"v2")
    g.trash(binned)
    g.delete(old)
    new = g.add_file("new.md", team, b"n", "text/markdown")
    personal = g.add_file("personal.md", None, b"p", "text/markdown")
    other = g.add_shared_drive("Sales")

    changes, _, team_next = all_changes(drive, team_start, driveId=team, **ALL_DRIVES)
    assert [c["fileId"] for c in changes] == [
        edited,
        binned,
        inside,
        old,
        new,
    ]  # only this drive's, nothing of My Drive
    by_id = {c["fileId"]: c for c in changes}
    assert all(c["changeType"] == "file" and c["driveId"] == team for c in changes)
    assert by_id[edited]["file"]["md5Checksum"] == hashlib.md5(b"v2").hexdigest()
    assert by_id[binned]["file"]["trashed"] is True and by_id[binned]["removed"] is False
    assert by_id[old]["removed"] is True and by_id[inside]["removed"] is True and "file" not in by_id[inside]
    assert by_id[new]["file"]["parents"] == [team] and by_id[new]["file"]["driveId"] == team
    assert all_changes(drive, team_next, driveId=team, **ALL_DRIVES)[0] == []

    # the user's log: My Drive's files and the drives themselves, never a shared drive's items
    for kw in ({}, ALL_DRIVES):
        mine, _, _ = all_changes(drive, user_start, **kw)
        assert [(c["changeType"], c.get("fileId") or c["driveId"]) for c in mine] == [
            ("file", personal),
            ("drive", other),
        ]
    assert mine[1]["drive"] == {"kind": "drive#drive", "id": other, "name": "Sales"} and "file" not in mine[1]
    assert g.changes_since(team_start, team) == 5 and g.changes_since(user_start) == 2

    # tokens belong to their log; driveId wants the all-drives flags; an unknown drive is 404
    for token, kw in [(user_start, {"driveId": team, **ALL_DRIVES}), (team_start, {})]:
        with pytest.raises(HttpError) as exc:
            drive.changes().list(pageToken=token, **kw).execute()
        assert exc.value.status_code == 400 and error_of(exc.value)["errors"][0]["location"] == "pageToken"
    for call, status in [
        (lambda: drive.changes().list(pageToken=team_start, driveId=team, supportsAllDrives=True), 403),
        (lambda: drive.changes().getStartPageToken(driveId=team), 403),
        (lambda: drive.changes().getStartPageToken(driveId="0ANoSuchDriveUk9PVA", supportsAllDrives=True), 404),
        (lambda: drive.changes().list(pageToken="1", driveId="0ANoSuchDriveUk9PVA", **ALL_DRIVES), 404),
    ]:
        with pytest.raises(HttpError) as exc:
            call().execute()
        assert exc.value.status_code == status

    g.expire_page_tokens()  # every log's tokens
    with pytest.raises(HttpError):
        drive.changes().list(pageToken=team_next, driveId=team, **ALL_DRIVES).execute()


# ---------------------------------------------------------------- AIP-193, Retry-After, latency


def test_an_aip_193_rate_limit_with_retry_after(fake_google, corpus):
    doc = fake_google.add_google_doc("Fixture", fake_google.add_folder("Top"), json.loads((corpus / GDOC).read_text()))
    fake_google.fail(r"^/v1/documents/", 403, error_info="RATE_LIMIT_EXCEEDED", retry_after="12")
    with pytest.raises(HttpError) as exc:
        docs_client(fake_google).documents().get(documentId=doc).execute()
    error = error_of(exc.value)
    assert error["code"] == 403 and error["status"] == "PERMISSION_DENIED" and "errors" not in error
    assert error["message"].startswith("Quota exceeded for quota metric")
    (detail,) = error["details"]
    assert detail["@type"] == "type.googleapis.com/google.rpc.ErrorInfo" and detail["reason"] == "RATE_LIMIT_EXCEEDED"
    assert exc.value.resp["retry-after"] == "12"
    fake_google.fail(r"^/drive/v3/files\?", 429, error_info="RATE_LIMIT_EXCEEDED")  # the same shape on Drive
    with pytest.raises(HttpError) as exc:
        drive_client(fake_google).files().list().execute()
    assert error_of(exc.value)["status"] == "RESOURCE_EXHAUSTED"


def test_latency_is_waited_before_every_answer(monkeypatch):
    import time

    waited: list[float] = []
    real_sleep = time.sleep
    monkeypatch.setattr(time, "sleep", lambda s: waited.append(s) if s == 0.25 else real_sleep(s))
    with FakeGoogle(latency=0.25) as g:
        drive = drive_client(g)
        drive.files().list().execute()
        drive.changes().getStartPageToken().execute()
    assert waited == [0.25, 0.25]


# ---------------------------------------------------------------- sharing, access, resource keys, tabs


def test_permissions_in_the_file_and_from_permissions_list(fake_google):
    g = fake_google
    folder = g.add_folder("Team")
    f = g.add_file("a.txt", folder, b"a", "text/plain")
    version = g.file(f)["version"]
    g.share(folder, "bob@example.com")
    g.share(f, "eng@example.com", type="group", role="writer")
    g.share(f, type="anyone")
    assert g.file(f)["version"] == str(int(version) + 2)  # sharing the file is a change of the file
    drive = drive_client(g)
    meta = drive.files().get(fileId=f, fields="permissions(type,role,emailAddress),permissionIds").execute()
    assert sorted((p["type"], p["role"], p.get("emailAddress")) for p in meta["permissions"]) == [
        ("anyone", "reader", None),
        ("group", "writer", "eng@example.com"),
        ("user", "owner", "me@example.com"),
        ("user", "reader", "bob@example.com"),
    ]  # bob inherits from the folder
    listed = drive.permissions().list(fileId=f, fields="nextPageToken,permissions(id,type)", pageSize=2).execute()
    assert len(listed["permissions"]) == 2 and "nextPageToken" in listed
    g.unshare(f, "eng@example.com")
    assert len(drive.permissions().list(fileId=f, fields="permissions(id)").execute()["permissions"]) == 3

    team = g.add_shared_drive("Team")
    g.share(team, "members@example.com", type="group", role="organizer")
    inside = g.add_file("b.txt", team, b"b", "text/plain")
    meta = drive.files().get(fileId=inside, supportsAllDrives=True, fields="permissionIds,permissions").execute()
    assert "permissions" not in meta and meta["permissionIds"]
    with pytest.raises(HttpError):
        drive.permissions().list(fileId=inside).execute()  # without supportsAllDrives: 404
    (member,) = drive.permissions().list(fileId=inside, supportsAllDrives=True, fields="*").execute()["permissions"]
    assert member["emailAddress"] == "members@example.com" and member["permissionDetails"][0]["inherited"]


def test_lost_access_is_404_unlisted_and_removed_in_changes(fake_google):
    g = fake_google
    drive = drive_client(g)
    top = g.add_folder("Top")
    f = g.add_file("a.txt", top, b"a", "text/plain")
    token = drive.changes().getStartPageToken().execute()["startPageToken"]
    g.revoke_access(f)
    with pytest.raises(HttpError) as exc:
        drive.files().get(fileId=f).execute()
    assert exc.value.status_code == 404
    assert drive.files().list(q=f"'{top}' in parents").execute()["files"] == []
    changes, _, token = all_changes(drive, token)
    assert [(c["fileId"], c["removed"], "file" in c) for c in changes] == [(f, True, False)]
    g.grant_access(f)
    changes, _, _ = all_changes(drive, token)
    assert [(c["fileId"], c["removed"]) for c in changes] == [(f, False)]


def test_a_resource_key_is_needed_and_shortcuts_carry_it(fake_google):
    g = fake_google
    target = g.add_file("t.txt", g.add_folder("Far"), b"far", "text/plain")
    g.set_resource_key(target, "0-Key")
    cut = g.add_shortcut("Link", g.add_folder("Top"), target)
    drive = drive_client(g)
    details = drive.files().get(fileId=cut, fields="shortcutDetails").execute()["shortcutDetails"]
    assert details["targetResourceKey"] == "0-Key"
    with pytest.raises(HttpError) as exc:
        drive.files().get(fileId=target).execute()
    assert exc.value.status_code == 404
    request = drive.files().get(fileId=target, fields="id,resourceKey")
    request.headers["X-Goog-Drive-Resource-Keys"] = f"{target}/0-Key"
    assert request.execute() == {"id": target, "resourceKey": "0-Key"}


def test_sheets_api_tabs(fake_google, corpus):
    from googleapiclient.discovery import build

    g = fake_google
    top = g.add_folder("Top")
    xlsx = (corpus / "docling" / "xlsx" / "sources" / "xlsx_01.xlsx").read_bytes()
    named = g.add_google_sheet("Given", top, xlsx, tabs={"Sheet1": 0, "Data": 42})
    derived = g.add_google_sheet("Derived", top, xlsx)
    sheets = build(
        "sheets",
        "v4",
        credentials=Credentials(token=g.token),
        static_discovery=True,
        client_options={"api_endpoint": g.docs_endpoint},
    )
    got = sheets.spreadsheets().get(spreadsheetId=named, fields="sheets(properties(sheetId,title))").execute()
    assert got == {
        "sheets": [{"properties": {"sheetId": 0, "title": "Sheet1"}}, {"properties": {"sheetId": 42, "title": "Data"}}]
    }
    titles = [s["properties"]["title"] for s in sheets.spreadsheets().get(spreadsheetId=derived).execute()["sheets"]]
    assert titles == ["Sheet1", "Sheet2", "Sheet3", "Sheet4"]
