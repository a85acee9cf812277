"""Several folders in one Drive source (`folder_ids`), each rooting its own paths with a cursor per
drive; and chunker or cleaner settings changes re-processing Drive documents. Real client against
the fake server, real pipeline and SQLite."""

from __future__ import annotations

import json

import pytest

from ingest.config import parse_config
from ingest.errors import ConfigError
from ingest.runner.pipeline import run
from ingest.runner.state import StateStore
from ingest.sources.drive_cursor import DriveCursor
from tests.drive.helpers import MD, drive_config, drive_paths, md, texts


def cursor_of(tmp_path, key_part: str) -> DriveCursor:
    with StateStore(tmp_path / "state.sqlite") as state:
        (text,) = [c for (s, c) in state._query("SELECT source, cursor FROM cursors", ()) if key_part in s]
    return DriveCursor.parse(text)


@pytest.fixture
def two_drives(fake_google):
    """HR (My Drive) and Finance/Reports (a shared drive), each with a file; a third folder beside."""
    g = fake_google
    ids = {"hr": g.add_folder("HR"), "finance": g.add_shared_drive("Finance")}
    ids["reports"] = g.add_folder("Reports", ids["finance"])
    ids["leave"] = g.add_file("leave.md", ids["hr"], md("Leave", "Twenty days."), MD)
    ids["draft"] = g.add_file("draft.md", ids["hr"], md("Draft", "Not yet."), MD)
    ids["q3"] = g.add_file("q3.md", ids["reports"], md("Q3", "Revenue up."), MD)
    ids["other"] = g.add_folder("Other")
    ids["stray"] = g.add_file("stray.md", ids["other"], md("Stray", "Not ours."), MD)
    return g, ids


def test_folder_ids_sync_several_folders_each_with_its_paths_and_a_cursor_per_drive(tmp_path, two_drives):
    g, ids = two_drives
    config = drive_config(tmp_path, g, ids["hr"], folder_ids=[ids["reports"]], exclude=["draft.md"])
    summary = run(*config)
    assert summary.ok, summary.failures
    assert drive_paths(tmp_path) == {ids["leave"]: "leave.md", ids["q3"]: "q3.md"}  # each relative to its folder
    assert set(cursor_of(tmp_path, ids["hr"]).tokens) == {"", ids["finance"]}  # the user's log and the drive's

    g.update(ids["leave"], content=md("Leave", "Thirty days."))
    g.update(ids["q3"], content=md("Q3", "Revenue up again."))
    g.update(ids["stray"], content=md("Stray", "Still not ours."))
    summary = run(*config)
    assert summary.ok and summary.notes == () and summary.changed == 2
    found = texts(tmp_path)
    assert "Thirty" in found[ids["leave"]] and "again" in found[ids["q3"]] and ids["stray"] not in found
    g.trash(ids["q3"])
    assert run(*config).deleted == 1 and set(drive_paths(tmp_path)) == {ids["leave"]}


def test_folder_ids_alone_and_adding_a_folder_lists_again(tmp_path, two_drives):
    g, ids = two_drives
    alone = drive_config(tmp_path, g, ids["hr"])  # then replaced by folder_ids only
    raw = json.loads(alone[0].model_dump_json())
    raw["source"]["drive"] |= {"folder_id": None, "folder_ids": [ids["hr"]]}
    assert run(*parse_config(raw)).changed == 2
    raw["source"]["drive"]["folder_ids"] = [ids["hr"], ids["other"]]
    summary = run(*parse_config(raw))
    assert summary.ok and summary.changed == 1 and any("listed again" in n for n in summary.notes)
    assert set(drive_paths(tmp_path)) == {ids["leave"], ids["draft"], ids["stray"]}
    raw["source"]["drive"]["folder_ids"] = [ids["hr"]]  # a folder taken out: its files go
    summary = run(*parse_config(raw))
    assert summary.ok and summary.deleted == 1 and set(drive_paths(tmp_path)) == {ids["leave"], ids["draft"]}


def test_no_folder_is_a_config_error(tmp_path, fake_google):
    with pytest.raises(ConfigError, match="folder_id or folder_ids"):
        parse_config({"source": {"drive": {"token": "t"}}})


def test_new_chunker_settings_re_process_drive_documents(tmp_path, two_drives):
    g, ids = two_drives
    config, steps, options = drive_config(tmp_path, g, ids["hr"])
    assert run(config, steps, options).changed == 2
    before = len(g.requests)
    smaller = config.model_copy(update={"chunker": config.chunker.model_copy(update={"max_tokens": 64})})
    summary = run(smaller, steps, smaller.chunker.options())
    assert summary.ok and summary.changed == 2 and summary.unchanged == 0
    assert any("settings changed" in n for n in summary.notes)
    assert sum("alt=media" in p for _, p in g.requests[before:]) == 2
    again = run(smaller, steps, smaller.chunker.options())
    assert again.ok and again.changed == 0 and again.unchanged == 2 and again.notes == ()


def test_new_cleaner_settings_re_process_drive_documents(tmp_path, two_drives):
    g, ids = two_drives
    config = drive_config(tmp_path, g, ids["hr"])
    assert run(*config).changed == 2
    raw = json.loads(config[0].model_dump_json())
    summary = run(*parse_config({**raw, "cleaners": [{"furniture": False}]}))
    assert summary.ok and summary.changed == 2
