"""An .odt and an .ods in a folder through `ingest run`: indexed (not skipped), with their headings;
and `ingest plugins` lists both loaders."""

from __future__ import annotations

import shutil
import sqlite3

from tests.local_job import ingest, sync, write_config
from tests.paths import FIXTURES


def test_a_folder_with_odt_and_ods_indexes_them(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(FIXTURES / "odf" / "report.odt", docs / "report.odt")
    shutil.copy(FIXTURES / "odf" / "budget.ods", docs / "budget.ods")
    summary, results = sync(write_config(tmp_path, docs))
    assert {r.name: r.status for r in results.values()} == {"report.odt": "changed", "budget.ods": "changed"}
    with sqlite3.connect(tmp_path / "index.sqlite") as conn:
        rows = conn.execute("SELECT text, heading_path FROM chunks").fetchall()
    text = "\n".join(t for t, _ in rows)
    assert "Open the Lyon warehouse" in text and "Shared costs" in text
    assert "Revenue rose by 4% this quarter." in text and "Oslo" not in text  # changes accepted
    assert any("Steps" in path for _, path in rows)


def test_plugins_lists_the_odf_loaders():
    proc = ingest("plugins")
    assert proc.returncode == 0, proc.stderr
    for name, mime in (("odt", "text"), ("ods", "spreadsheet")):
        entry = (
            f"  {name}  (built in)\n      mime types: application/vnd.oasis.opendocument.{mime}\n"
            f"      extensions: .{name}\n"
        )
        assert entry in proc.stdout, proc.stdout
