"""The README's "Use from LangChain / LlamaIndex" example runs as written, over an index of the
bundled examples built by a real `ingest run`."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT


def test_the_frameworks_example_runs(tmp_path: Path, index: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Use from LangChain / LlamaIndex\n", 1)[1].split("\n## ", 1)[0]
    assert "`ingest run examples --index out/index.sqlite`" in section  # what the example says it needs
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    (tmp_path / "out").mkdir()
    shutil.copy(index, tmp_path / "out" / "index.sqlite")  # the same run over the same files
    (tmp_path / "example.py").write_text(code, encoding="utf-8")
    proc = subprocess.run([sys.executable, "example.py"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    printed = subprocess.run(
        [sys.executable, "-m", "ingest", "chunk", "examples"], cwd=tmp_path, capture_output=True, text=True
    )
    every_chunk = [line for line in printed.stdout.splitlines() if line.startswith("{")]  # cards included
    # The PDF filter: both of the incident review's chunks, the renewal (on page 2) first.
    assert out[0].startswith("incident-review.pdf > Incident review: storage outage > Actions (file://")
    assert out[0].endswith(" 2") and out[1].endswith(" 1") and "Summary" in out[1]
    prompt = proc.stdout.split("Human: ", 1)[1]
    assert "Certificates are now renewed 30 days before expiry" in prompt.split("\n\n[")[0]
    assert "Question: when are certificates renewed?" in prompt
    loaded = next(line for line in out if re.fullmatch(r"\d+ \S.*", line))
    # As many Documents as `ingest chunk` prints chunks, the folder's files in name order.
    assert loaded == f"{len(every_chunk)} Incident review: storage outage > Summary"
    dosing = [line for line in out if line.startswith("Paediatric fever > Antipyretic dosing")]
    assert len(dosing) == 2
    # The PDF's two chunks, then its card (headed by the title alone: PDF properties and no body).
    assert out[-1] == (
        "4 ['Incident review: storage outage > Summary', 'Incident review: storage outage > Actions', "
        "'Incident review: storage outage']"
    )
