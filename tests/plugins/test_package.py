"""A real third-party plugin package (tests/plugins/plugin_package, the README's examples) installed with
pip into a throwaway virtual environment, offline: found by entry point, listed with its version,
run only where named; and the same code found by `module:attr` from a config's folder."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.paths import ROOT

PACKAGE = ROOT / "tests" / "plugins" / "plugin_package"
DOC = "# Leave\n\nCONFIDENTIAL\n\nTwenty days of paid leave a year.\n"
ORG = "* Travel\n\nBook trains early.\n** Receipts\n\nKeep every receipt.\n"


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A venv without ingest's dependencies of its own: it sees the running venv's packages
    (ingest, pip, setuptools) through a .pth file, and gets only the plugin installed into it."""
    root = tmp_path_factory.mktemp("plugin-venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")], check=True)
    python = root / "venv" / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "_running_venv.pth").write_text(
        f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n"
    )
    source = root / "src"
    shutil.copytree(PACKAGE, source)  # pip builds in the tree: keep the checkout clean
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-index", "--no-build-isolation", "--no-deps", str(source)],
        check=True,
        capture_output=True,
    )
    return python


def ingest(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-m", "ingest", *args], cwd=cwd, capture_output=True, text=True)


def test_installed_plugins_are_listed_with_their_package_and_version(venv, tmp_path):
    proc = ingest(venv, "plugins", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    listed = {(p["kind"], p["name"]): p for p in map(json.loads, proc.stdout.splitlines())}
    banner = listed[("cleaner", "strip_banner")]
    assert banner["origin"] == "ingest-banner 1.2.0" and banner["details"]["default"] == "when named"
    assert "text/markdown" in banner["details"]["formats"] and "patterns=" in banner["details"]["options"]
    org = listed[("loader", "org")]
    assert org["origin"] == "ingest-banner 1.2.0" and org["details"]["extensions"] == ".org"
    assert listed[("cleaner", "running_headers")]["origin"] == "built in"
    assert listed[("sink", "sqlite")]["origin"] == "built in" and ("source", "drive") in listed
    # the running venv, where the package is not installed, does not list it
    here = {
        (p["kind"], p["name"])
        for p in map(json.loads, ingest(Path(sys.executable), "plugins", "--json", cwd=tmp_path).stdout.splitlines())
    }
    assert ("cleaner", "strip_banner") not in here


def test_installed_cleaner_runs_only_when_named(venv, tmp_path):
    (tmp_path / "leave.md").write_text(DOC)
    plain = [json.loads(line)["text"] for line in ingest(venv, "chunk", "leave.md", cwd=tmp_path).stdout.splitlines()]
    assert any("CONFIDENTIAL" in t for t in plain)  # installed but not named: the job is unchanged
    proc = ingest(venv, "chunk", "leave.md", "--cleaner", "strip_banner", cwd=tmp_path)
    named = [json.loads(line)["text"] for line in proc.stdout.splitlines()]
    assert named and not any("CONFIDENTIAL" in t for t in named) and "paid leave" in named[0], proc.stderr
    proc = ingest(venv, "chunk", "leave.md", "--cleaner", 'strip_banner:{"patterns": ["^Twenty"]}', cwd=tmp_path)
    texts = " ".join(json.loads(line)["text"] for line in proc.stdout.splitlines())
    assert "CONFIDENTIAL" in texts and "Twenty" not in texts
    proc = ingest(venv, "chunk", "leave.md", "--cleaner", 'strip_banner:{"pattern": []}', cwd=tmp_path)
    assert proc.returncode == 2 and "'pattern'" in proc.stderr and "patterns" in proc.stderr


def test_installed_loader_and_cleaner_named_in_a_config(venv, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "leave.md").write_text(DOC)
    (docs / "travel.org").write_text(ORG)
    config = tmp_path / "ingest.yaml"
    config.write_text(
        f"source:\n  local: {{path: {docs}}}\nsink:\n  jsonl: {tmp_path / 'out'}\n"
        f"state: {tmp_path / 'state.sqlite'}\nworkers: 1\n"
        "cleaners: [strip_banner]\nloaders: [org]\n"
    )
    proc = ingest(venv, "run", str(config), "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    chunks = [
        json.loads(line) for f in sorted((tmp_path / "out").glob("*.jsonl")) for line in f.read_text().splitlines()
    ]
    org = [c for c in chunks if c["source"]["name"] == "travel.org"]
    # "Travel"'s short introduction joins its first subsection's chunk, under the deeper path (#25)
    assert [c["heading_path"] for c in org] == [["travel", "Travel", "Receipts"]]
    leave = " ".join(c["text"] for c in chunks if c["source"]["name"] == "leave.md")
    assert "paid leave" in leave and "CONFIDENTIAL" not in leave


def test_the_same_code_by_module_attr_from_the_config_folder(tmp_path):
    # Not installed anywhere: the package's folder sits beside the config, as a user's would.
    shutil.copytree(PACKAGE / "ingest_banner", tmp_path / "ingest_banner")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "leave.md").write_text(DOC)
    (docs / "travel.org").write_text(ORG)
    config = tmp_path / "ingest.yaml"
    config.write_text(
        f"source:\n  local: {{path: {docs}}}\nsink:\n  jsonl: {tmp_path / 'out'}\n"
        f"state: {tmp_path / 'state.sqlite'}\nworkers: 2\n"
        "cleaners: ['ingest_banner.cleaner:strip_banner']\nloaders: ['ingest_banner.org:org_loader']\n"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()  # run from another folder, with no PYTHONPATH
    proc = subprocess.run(
        [sys.executable, "-m", "ingest", "run", str(config), "--quiet"], cwd=elsewhere, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = " ".join(line for f in (tmp_path / "out").glob("*.jsonl") for line in f.read_text().splitlines())
    assert "Keep every receipt" in text and "CONFIDENTIAL" not in text and "paid leave" in text


def test_readme_examples_are_the_tested_package():
    readme = (ROOT / "README.md").read_text()
    for heading, path in (
        ("### Writing a cleaner", "ingest_banner/cleaner.py"),
        ("### Writing a loader", "ingest_banner/org.py"),
    ):
        section = readme[readme.index(heading) :]
        code = section[section.index("```python\n") + len("```python\n") :]
        assert code[: code.index("```")] == (PACKAGE / path).read_text(), f"README {heading} differs from {path}"
    toml = readme[readme.index('```toml\n[project.entry-points."ingest.cleaners"]') :]
    toml = toml[len("```toml\n") : toml.index("```", 8)]
    assert toml in (PACKAGE / "pyproject.toml").read_text()
