"""The README's Python API example runs as written, on the bundled examples."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

from tests.paths import ROOT


def test_python_api_example_runs(tmp_path):
    code = re.search(r"## The Python API\n\n```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S).group(1)
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    shutil.copytree(ROOT / "configs", tmp_path / "configs")
    script = tmp_path / "example.py"
    script.write_text("if __name__ == '__main__':\n" + "\n".join("    " + line for line in code.splitlines()) + "\n")
    proc = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "('Paediatric fever', 'Antipyretic dosing')" in proc.stdout
    # search() over the index run() built, Markdown only: "ibuprofen" is in the dosing section and under it.
    cited = [line for line in proc.stdout.splitlines() if "(file://" in line]
    assert len(cited) == 2 and all(
        c.startswith("paediatric-fever.md > Paediatric fever > Antipyretic dosing") for c in cited
    )
    assert proc.stdout.rstrip().endswith("examples/paediatric-fever.md 4")  # chunk_files' line
    assert (tmp_path / "out" / "index.sqlite").exists()  # run() built the index
