"""CONTRIBUTING's "Where things live" names every package folder of `ingest/` and every top-level
module, and no folder that is not there: the map cannot drift from the tree."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ingest"


def _map_section() -> str:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    start = text.index("## Where things live")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _package_folders() -> set[str]:
    return {
        f"ingest/{p.parent.relative_to(PACKAGE).as_posix()}/"
        for p in PACKAGE.rglob("__init__.py")
        if p.parent != PACKAGE
    }


def test_the_map_names_every_package_folder_and_no_other():
    named = set(re.findall(r"`(ingest/[\w/]+/)`", _map_section()))
    folders = _package_folders()
    assert folders - named == set(), "package folders missing from CONTRIBUTING's map"
    assert named - folders == set(), "the map names folders that are not packages of ingest/"


def test_the_map_names_every_top_level_module():
    section = _map_section()
    missing = [p.name for p in sorted(PACKAGE.glob("*.py")) if p.name != "__init__.py" and f"`{p.name}`" not in section]
    assert missing == []


def test_the_rows_run_in_the_flow_order():
    section = _map_section()
    order = [
        "sources",
        "loaders",
        "ocr",
        "cleaners",
        "chunker",
        "embedders",
        "sinks",
        "search",
        "runner",
        "adapters",
        "cli",
    ]
    at = [section.index(f"`ingest/{name}/`") for name in order]
    assert at == sorted(at)
