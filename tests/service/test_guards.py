"""Guards against losing the index: a source that looks empty or is gone deletes nothing."""

from __future__ import annotations

import shutil

from tests.service.helpers import indexed, ingest_run, workspace


def test_a_run_that_would_delete_most_documents_refuses_and_deletes_nothing(tmp_path):
    cfg = workspace(tmp_path, 20, slow=False)
    assert ingest_run(cfg, "--quiet").returncode == 0
    for path in sorted((tmp_path / "docs").iterdir())[:15]:  # an unmount leaves a few, or none
        path.unlink()
    refused = ingest_run(cfg, "--quiet")
    assert refused.returncode == 3, refused.stderr
    assert "refused to delete 15 of the 20 documents" in refused.stderr and "--allow-mass-delete" in refused.stderr
    assert len(indexed(tmp_path / "index.sqlite")) == 20
    allowed = ingest_run(cfg, "--quiet", "--allow-mass-delete")
    assert allowed.returncode == 0, allowed.stderr
    assert indexed(tmp_path / "index.sqlite") == {f"doc{i:03}.md" for i in range(15, 20)}


def test_deleting_under_the_threshold_goes_ahead(tmp_path):
    cfg = workspace(tmp_path, 20, slow=False, extra="max_delete: {share: 0.5, count: 10}\n")
    assert ingest_run(cfg, "--quiet").returncode == 0
    for path in sorted((tmp_path / "docs").iterdir())[:10]:  # half, but not more than 10
        path.unlink()
    proc = ingest_run(cfg, "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert len(indexed(tmp_path / "index.sqlite")) == 10


def test_a_small_index_may_lose_everything(tmp_path):
    cfg = workspace(tmp_path, 5, slow=False)
    assert ingest_run(cfg, "--quiet").returncode == 0
    for path in (tmp_path / "docs").iterdir():
        path.unlink()
    assert ingest_run(cfg, "--quiet").returncode == 0  # 5 is not more than count (10)
    assert indexed(tmp_path / "index.sqlite") == set()


def test_a_source_folder_that_does_not_exist_fails_the_run_and_deletes_nothing(tmp_path):
    cfg = workspace(tmp_path, 3, slow=False)
    assert ingest_run(cfg, "--quiet").returncode == 0
    shutil.rmtree(tmp_path / "docs")
    proc = ingest_run(cfg, "--quiet")
    # 5: the source could not be listed (#25), apart from 3, the run itself failed.
    assert proc.returncode == 5 and "is not a folder" in proc.stderr, proc.stderr
    assert len(indexed(tmp_path / "index.sqlite")) == 3
