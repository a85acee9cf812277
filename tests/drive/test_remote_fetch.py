"""The fetch a driver hands a Ray worker (`DriveFetch`): it travels pickled, builds its own client
where it runs, and shows no secret in its repr or in what it raises."""

from __future__ import annotations

import json
import pickle

import pytest

from ingest.config import parse_config
from ingest.errors import SourceError
from ingest.sources import Item
from ingest.sources.drive import DriveSource
from tests.drive.helpers import MD, md

SECRET = "tok-5ecret-never-shown"


def source_for(g, folder: str, **drive) -> DriveSource:
    cfg, _, _ = parse_config(
        {
            "source": {
                "drive": {
                    "folder_id": folder,
                    "drive_endpoint": g.drive_endpoint,
                    "docs_endpoint": g.docs_endpoint,
                    "sheets_endpoint": g.docs_endpoint,
                    **drive,
                }
            },
            "sink": {"jsonl": "unused.jsonl"},
        }
    )
    assert cfg.source.drive is not None
    return DriveSource(cfg.source.drive)


def listed(source: DriveSource) -> list[Item]:
    return list(source.sync(None).items)


def test_a_handed_fetch_reads_the_file_after_pickling(fake_google):
    g = fake_google
    top = g.add_folder("Top")
    g.add_file("leave.md", top, md("Leave", "Twenty days."), MD)
    source = source_for(g, top, token=g.token)
    (item,) = listed(source)
    fetch = pickle.loads(pickle.dumps(source.remote_fetch(item)))  # as a worker receives it
    data, document = fetch()
    assert data == md("Leave", "Twenty days.")
    assert document.name == "leave.md" and document.meta["drive_path"] == "leave.md"


def test_the_token_is_in_no_repr_and_no_error(fake_google):
    g = fake_google
    top = g.add_folder("Top")
    g.add_file("leave.md", top, md("Leave", "Twenty days."), MD)
    source = source_for(g, top, token=g.token)
    (item,) = listed(source)
    fetch = source.remote_fetch(item)
    shown = repr(fetch)
    assert g.token not in shown and "hidden" in shown
    assert fetch.config.token is None and g.token not in repr(fetch.config)
    wrong = type(fetch)(fetch.item, fetch.meta, fetch.config, type(fetch.key)(token=SECRET))
    with pytest.raises(SourceError) as raised:  # the fake refuses another token: 401
        wrong()
    assert SECRET not in str(raised.value) and SECRET not in repr(wrong)


def test_a_key_files_contents_travel_hidden(fake_google, tmp_path):
    key = {"type": "authorized_user", "client_id": "cid", "client_secret": "csecret-xyz", "refresh_token": "rt-xyz"}
    path = tmp_path / "key.json"
    path.write_text(json.dumps(key))
    g = fake_google
    top = g.add_folder("Top")
    source = source_for(g, top, token=g.token)
    source.config = source.config.model_copy(update={"token": None, "credentials": path})
    item = Item("f1", "a.md", "text/markdown", "1")
    fetch = source.remote_fetch(item)
    assert fetch.key.key_json == path.read_text()  # the file is read here: the worker may not have it
    assert fetch.config.credentials is None
    for secret in ("csecret-xyz", "rt-xyz"):
        assert secret not in repr(fetch) and secret not in str(fetch.key)
