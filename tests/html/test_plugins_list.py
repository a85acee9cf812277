"""`ingest plugins` names the HTML, e-mail and EPUB loaders with their endings, and the mail cleaner."""

from __future__ import annotations

import subprocess
import sys

from tests.paths import ROOT


def test_plugins_lists_the_new_loaders_and_the_mail_cleaner(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "ingest", "plugins"], cwd=tmp_path, capture_output=True, text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for name, ending, mime in (
        ("html", ".htm", "text/html"),
        ("eml", ".eml", "message/rfc822"),
        ("mbox", ".mbox", "application/mbox"),
        ("epub", ".epub", "application/epub+zip"),
    ):
        lines = out.splitlines()
        at = next(i for i, line in enumerate(lines) if line.strip().startswith(name + " "))
        entry = "\n".join(lines[at : at + 3])  # the name, its mime types, its extensions
        assert ending in entry and mime in entry, entry
    assert "mail_quotes" in out
