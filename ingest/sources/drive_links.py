"""What Drive links need beyond the file: a Google Sheet's tabs, from the Sheets API (an xlsx
export does not keep their ids, and `#gid=` needs them). drive.readonly opens this call."""

from __future__ import annotations

from ..errors import IngestError
from .drive_calls import GoogleCalls
from .drive_fetch import resource_key_header


def sheet_tabs(calls: GoogleCalls, meta: dict, name: str) -> dict[str, int]:
    """Tab title -> tab id (the `gid` of its URL); {} when the Sheets API will not say, which
    costs the links their tab, not the document."""
    request = calls.spreadsheets().get(spreadsheetId=meta["id"], fields="sheets(properties(sheetId,title))")
    request.headers.update(resource_key_header(meta))
    try:
        answer = calls.call(request, f"{name} (tabs)")
    except IngestError:
        return {}
    return {
        s["properties"]["title"]: int(s["properties"]["sheetId"])
        for s in answer.get("sheets", ())
        if "title" in s.get("properties", {}) and "sheetId" in s["properties"]
    }
