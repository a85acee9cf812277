"""What the Drive tests share: a config pointing the source at the fake server, the standard
handbook tree, and readers of the index a run wrote."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from ingest.config import parse_config
from ingest.runner.pipeline import run

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
PDF = "application/pdf"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
MD = "text/markdown"
# What fetches a file's bytes (a download, an export, a Docs read), as against listing it.
FETCHES = ("alt=media", "/export", "/v1/documents/")


def fetched(g, since: int) -> list[str]:
    """The fetches the fake served since request number `since`."""
    return [path for _, path in g.requests[since:] if any(f in path for f in FETCHES)]


def md(title: str, body: str) -> bytes:
    return f"# {title}\n\n{body}\n".encode()


def drive_job(tmp_path: Path, g, folder: str, workers: int = 1, top: dict | None = None, **drive) -> dict:
    """The job's settings, as a user writes them, for syncing `folder` on the fake `g` into tmp_path;
    `top` holds more top-level settings (`{"pdf": {"ocr": "never"}}`)."""
    return {
        "source": {
            "drive": {
                "folder_id": folder,
                "token": g.token,
                "drive_endpoint": g.drive_endpoint,
                "docs_endpoint": g.docs_endpoint,
                "sheets_endpoint": g.docs_endpoint,
                **drive,
            }
        },
        "sink": {"sqlite": str(tmp_path / "index.sqlite")},
        "state": str(tmp_path / "state.sqlite"),
        "workers": workers,
        **(top or {}),
    }


def drive_config(tmp_path: Path, g, folder: str, workers: int = 1, top: dict | None = None, **drive) -> tuple:
    """Config, cleaner steps and chunk options of `drive_job`."""
    return parse_config(drive_job(tmp_path, g, folder, workers, top, **drive))


def drive_job_file(tmp_path: Path, g, folder: str, **drive) -> Path:
    """`drive_job` written to tmp_path/job.yaml, for `ingest run` in a process of its own."""
    path = tmp_path / "job.yaml"
    path.write_text(json.dumps(drive_job(tmp_path, g, folder, **drive)))
    return path


def drive_sync(tmp_path: Path, g, folder: str, **drive) -> tuple:
    """Sync `folder` into tmp_path: the summary, and each document's result by id."""
    results = []
    cfg, steps, options = drive_config(tmp_path, g, folder, **drive)
    summary = run(cfg, steps, options, results.append)
    return summary, {r.doc_id: r for r in results}


def drive_paths(tmp_path: Path) -> dict[str, str]:
    """The Drive path the index holds for each document, by id."""
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        return {i: json.loads(m)["drive_path"] for i, m in db.execute("SELECT id, meta FROM documents")}


def company(g) -> dict[str, str]:
    """Company/{HR/leave.md, Engineering/deploy.md} in My Drive: ids by short name."""
    ids = {"top": g.add_folder("Company")}
    ids["hr"] = g.add_folder("HR", ids["top"])
    ids["eng"] = g.add_folder("Engineering", ids["top"])
    ids["leave"] = g.add_file("leave.md", ids["hr"], md("Leave", "Twenty days of paid leave."), MD)
    ids["deploy"] = g.add_file("deploy.md", ids["eng"], md("Deploy", "Run the pipeline twice."), MD)
    return ids


def handbook(g, parent: str | None, files: dict) -> dict[str, str]:
    """Handbook/{Policies/{leave.md, Travel (Google Doc)}, Reports/{q3.pdf, plan.docx, budget (Google
    Sheet)}, Archive/old.md} under `parent`; `files` holds the corpus bytes (pdf, docx, xlsx, gdoc)."""
    ids = {"top": g.add_folder("Handbook", parent)}
    ids["policies"] = g.add_folder("Policies", ids["top"])
    ids["reports"] = g.add_folder("Reports", ids["top"])
    ids["archive"] = g.add_folder("Archive", ids["top"])
    ids["leave"] = g.add_file("leave.md", ids["policies"], md("Leave", "Twenty days of paid leave a year."), MD)
    ids["travel"] = g.add_google_doc("Travel", ids["policies"], files["gdoc"])
    ids["pdf"] = g.add_file("q3.pdf", ids["reports"], files["pdf"], PDF)
    ids["docx"] = g.add_file("plan.docx", ids["reports"], files["docx"], DOCX)
    ids["sheet"] = g.add_google_sheet("budget", ids["reports"], files["xlsx"])
    ids["old"] = g.add_file("old.md", ids["archive"], md("Old", "Superseded policy text."), MD)
    return ids


def texts(tmp_path: Path) -> dict[str, str]:
    """Indexed text by document id."""
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        rows = db.execute("SELECT doc_id, text FROM chunks ORDER BY doc_id, chunk_index").fetchall()
    out: dict[str, str] = {}
    for doc_id, text in rows:
        out[doc_id] = out.get(doc_id, "") + text + "\n"
    return out
