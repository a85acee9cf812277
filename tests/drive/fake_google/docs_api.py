"""The Docs v1 documents.get endpoint, its tabs view, and the plain text/Markdown Drive exports."""

from __future__ import annotations

import json
import threading
from typing import Any

from .errors import ApiError
from .fields import DOCS_SCHEMAS
from .mime import GOOGLE_DOC
from .store import StoredFile

_DOCUMENT_TAB_KEYS = tuple(DOCS_SCHEMAS["DocumentTab"]["properties"])


class DocsEndpoints:
    """Mixed into FakeGoogle next to DriveStore, whose state this reads."""

    _lock: threading.RLock
    _files: dict[str, StoredFile]

    def _document(self, doc_id: str, p: dict[str, str]) -> dict[str, Any]:
        with self._lock:
            f = self._files.get(doc_id)
            if f is None:
                raise ApiError(404, "Requested entity was not found.", status="NOT_FOUND")
            self._check_access(f)  # type: ignore[attr-defined]
            if f.mime != GOOGLE_DOC:
                raise ApiError(400, "This operation is not supported for this document", status="FAILED_PRECONDITION")
            doc = json.loads(json.dumps(f.document or {}))
            revision = f"{f.id[:8]}-rev{f.doc_revision}"
            doc |= {"documentId": f.id, "title": f.name, "revisionId": revision}
        doc.setdefault("suggestionsViewMode", p.get("suggestionsViewMode", "SUGGESTIONS_INLINE"))
        return _tabs_view(doc, p.get("includeTabsContent") == "true")


def _tabs_view(doc: dict[str, Any], include_tabs: bool) -> dict[str, Any]:
    """Docs answers tabs[] only with includeTabsContent=true; otherwise the first tab fills the body."""
    if include_tabs and "tabs" not in doc:
        tab = {k: doc.pop(k) for k in _DOCUMENT_TAB_KEYS if k in doc}
        doc["tabs"] = [{"tabProperties": {"tabId": "t.0", "title": "Tab 1", "index": 0}, "documentTab": tab}]
    elif not include_tabs and "tabs" in doc:
        tabs = doc.pop("tabs")
        if tabs:
            doc |= tabs[0].get("documentTab", {})
    return doc


def document_text(doc: dict[str, Any], *, markdown: bool = False) -> str:
    """The text Drive exports for a Google Doc: paragraphs of every tab in order, tables cell by cell
    (tab separated, a row a line). Markdown marks headings (HEADING_n, TITLE) with #s."""
    lines: list[str] = []

    def walk(content: list[dict[str, Any]]) -> None:
        for el in content:
            if "paragraph" in el:
                para = el["paragraph"]
                text = "".join(e.get("textRun", {}).get("content", "") for e in para.get("elements", []))
                text = text.rstrip("\n")
                style = para.get("paragraphStyle", {}).get("namedStyleType", "")
                if markdown and text and (style.startswith("HEADING_") or style == "TITLE"):
                    text = "#" * (int(style[-1]) if style[-1].isdigit() else 1) + " " + text
                lines.append(text)
            elif "table" in el:
                for row in el["table"].get("tableRows", []):
                    cells = []
                    for cell in row.get("tableCells", []):
                        before = len(lines)
                        walk(cell.get("content", []))
                        cells.append(" ".join(t for t in lines[before:] if t))
                        del lines[before:]
                    lines.append(("| " + " | ".join(cells) + " |") if markdown else "\t".join(cells))
            elif "tableOfContents" in el:
                walk(el["tableOfContents"].get("content", []))

    def tabs(ts: list[dict[str, Any]]) -> None:
        for t in ts:
            walk(t.get("documentTab", {}).get("body", {}).get("content", []))
            tabs(t.get("childTabs", []))

    if doc.get("tabs"):
        tabs(doc["tabs"])
    else:
        walk(doc.get("body", {}).get("content", []))
    return "\n".join(lines) + "\n"
