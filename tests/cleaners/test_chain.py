"""The cleaner chain: one ordered tuple of built-ins, plugins only where named, options checked,
a plugin's failure named, `module:attr` importable from the config's folder."""

from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from ingest import registry
from ingest.cleaners import DEFAULT_CHAIN, CleanerFailed, build_chain, clean, parse_cleaner_arg
from ingest.config import load_config, parse_config
from ingest.errors import CleanerError, ConfigError, IngestError
from ingest.loaders import load_file
from ingest.runner.pipeline import run
from tests.drive.helpers import md, texts
from tests.paths import ROOT

PLUGIN = textwrap.dedent("""
    from dataclasses import replace
    from pydantic import BaseModel
    from ingest.cleaners import Cleaner

    class BannerOptions(BaseModel):
        word: str = "CONFIDENTIAL"

    def strip_banner(blocks, ctx):
        for block in blocks:
            if block.text.strip() == ctx.options.word:
                ctx.count("banners")
                continue
            yield block

    def explode(blocks, ctx):
        for block in blocks:
            if "boom" in block.text:
                raise ValueError("cannot read " + block.text[:10])
            yield block

    def shout(blocks, ctx):
        for block in blocks:
            yield replace(block, text=block.text.upper())

    banner = Cleaner("banner", strip_banner, options=BannerOptions, default_for=frozenset({"text/markdown"}))
    exploding = Cleaner("explode", explode)
    shouting = Cleaner("shout", shout, default_for=frozenset({"text/markdown"}))
""")


def test_default_chain_is_the_tuple_and_includes_every_builtin_module():
    assert [s.cleaner.name for s in build_chain([])] == list(DEFAULT_CHAIN)
    files = {p.stem for p in (ROOT / "ingest" / "cleaners").glob("*.py")} - {"__init__"}
    assert files == set(DEFAULT_CHAIN)  # a cleaner file left out of the tuple would never run
    assert "figures" in DEFAULT_CHAIN and DEFAULT_CHAIN[-1] == "furniture"


def test_source_tree_without_installed_metadata_still_has_the_builtins(tmp_path):
    # What `import ingest` from a checkout sees when no distribution advertises entry points.
    code = textwrap.dedent("""
        import importlib.metadata as md
        md.entry_points = lambda **kw: md.EntryPoints(())
        import ingest
        from ingest.cleaners import build_chain
        print(ingest.__file__)
        print(",".join(s.cleaner.name for s in build_chain([])))
    """)
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    where, names = proc.stdout.split()
    assert Path(where).is_relative_to(ROOT)
    assert names.split(",") == list(DEFAULT_CHAIN)


def test_misspelt_option_of_a_builtin_is_a_config_error_naming_the_key_and_the_options():
    raw = {"source": {"local": {"path": "."}}, "cleaners": [{"running_headers": {"min_page": 3}}]}
    with pytest.raises(ConfigError) as caught:
        parse_config(raw)
    message = str(caught.value)
    assert "running_headers" in message and "'min_page'" in message
    assert "min_pages" in message and "min_share" in message  # the options that exist
    with pytest.raises(CleanerError, match="takes no options"):
        build_chain([("furniture", {"keep": True})])
    with pytest.raises(CleanerError, match="unknown cleaner"):
        build_chain([("furnitur", False)])  # switching off a misspelt name is no silent no-op


@pytest.fixture
def plugin_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "my_plugins_chain.py").write_text(PLUGIN)
    yield folder
    sys.modules.pop("my_plugins_chain", None)
    if str(folder) in sys.path:
        sys.path.remove(str(folder))


def test_module_attr_plugin_importable_from_the_config_folder_and_its_options_checked(plugin_dir):
    docs = plugin_dir / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nCONFIDENTIAL\n\nThe body stays.\n")
    config = plugin_dir / "ingest.yaml"
    base = (
        f"source:\n  local: {{path: {docs}}}\nsink:\n  sqlite: {plugin_dir / 'i.sqlite'}\n"
        f"state: {plugin_dir / 's.sqlite'}\nworkers: 1\n"
    )
    config.write_text(base + "cleaners:\n  - my_plugins_chain:banner: {wrod: X}\n")
    with pytest.raises(ConfigError, match=r"'wrod'.*word"):
        load_config(config)  # found from the config's folder, and its option misspelt
    config.write_text(base + "cleaners: [my_plugins_chain:banner]\n")
    results = []
    summary = run(*load_config(config), results.append)
    assert summary.ok, summary.failures
    assert results[0].cleaned["banner"]["banners"] == 1
    assert results[0].cleaned["banner"]["blocks"] == 1 and results[0].cleaned["banner"]["chars"] == len("CONFIDENTIAL")


def test_unknown_module_says_where_it_looked(tmp_path):
    with pytest.raises(IngestError, match="looked in"):
        build_chain([("no_such_module_xyz:thing", None)], base=tmp_path)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_raising_cleaner_fails_that_document_naming_the_cleaner(plugin_dir, workers):
    docs = plugin_dir / "docs"
    docs.mkdir()
    (docs / "bad.md").write_text("# Bad\n\nboom goes the parser\n")
    (docs / "good.md").write_text("# Good\n\nAll is well.\n")
    config = plugin_dir / "ingest.yaml"
    config.write_text(
        f"source:\n  local: {{path: {docs}}}\nsink:\n  sqlite: {plugin_dir / 'i.sqlite'}\n"
        f"state: {plugin_dir / 's.sqlite'}\nworkers: {workers}\ncleaners: [my_plugins_chain:exploding]\n"
    )
    results = {}
    summary = run(*load_config(config), lambda r: results.__setitem__(r.doc_id, r))
    assert summary.failed == 1 and results["good.md"].status == "changed"
    error = results["bad.md"].error
    assert "cleaner 'explode' failed: ValueError: cannot read boom goes" in error
    assert error.count("bad.md") == 1, error  # named once, not once per process boundary


def test_cleaner_failure_survives_pickling():
    exc = CleanerFailed("cleaner 'x' failed: KeyError: 1", subject="file:///a.md", cleaner="x")
    back = pickle.loads(pickle.dumps(exc))
    assert str(back) == str(exc) and back.cleaner == "x" and back.subject is not None


def test_installed_plugin_runs_only_where_named(plugin_dir, monkeypatch):
    monkeypatch.syspath_prepend(str(plugin_dir))
    fake = (EntryPoint("shout", "my_plugins_chain:shouting", "ingest.cleaners"),)
    monkeypatch.setattr(registry, "installed", lambda kind: fake if kind == "cleaner" else ())
    md = plugin_dir / "a.md"
    md.write_text("# Title\n\nquiet words\n")
    loaded = load_file(md)
    default = list(clean(loaded.blocks, loaded.document, build_chain([]))[0])
    assert "quiet words" in [b.text for b in default]  # installed, not named: not run
    named = list(clean(loaded.blocks, loaded.document, build_chain([("shout", None)]))[0])
    assert "QUIET WORDS" in [b.text for b in named]
    pdf = build_chain([("shout", None)])[-1]
    assert pdf.origin.startswith("entry point") and not pdf.runs_on("application/pdf")  # its formats only


def test_cleaner_argument_forms():
    assert parse_cleaner_arg("furniture") == ("furniture", None)
    assert parse_cleaner_arg("furniture:false") == ("furniture", False)
    assert parse_cleaner_arg('running_headers:{"min_pages": 3}') == ("running_headers", {"min_pages": 3})
    assert parse_cleaner_arg("pkg.mod:attr") == ("pkg.mod:attr", None)
    assert parse_cleaner_arg('pkg.mod:attr:{"a": 1}') == ("pkg.mod:attr", {"a": 1})
    with pytest.raises(CleanerError, match="not valid JSON"):
        parse_cleaner_arg("running_headers:{min_pages: 3}")


def test_a_broken_installed_plugin_is_listed_with_its_error_and_harms_no_other_job(monkeypatch):
    from ingest.plugin_list import listing

    broken = (EntryPoint("half_done", "no_such_package_xyz.cleaners:thing", "ingest.cleaners"),)
    monkeypatch.setattr(registry, "installed", lambda kind: broken if kind == "cleaner" else ())
    assert [s.cleaner.name for s in build_chain([])] == list(DEFAULT_CHAIN)  # not named: never imported
    (item,) = [p for p in listing() if p.name == "half_done"]
    assert item.kind == "cleaner" and "No module named 'no_such_package_xyz'" in item.error
    with pytest.raises(IngestError, match="cannot load cleaner from entry point no_such_package_xyz"):
        build_chain([("half_done", None)])


# -- configured defaults, options in the settings hash, a plugin by module:attr -------------------


TAG_PLUGIN = """
from dataclasses import replace

def tag(blocks, ctx):
    for block in blocks:
        yield replace(block, text=block.text.replace("paid", "PLUGGED")) if hasattr(block, "text") else block
    ctx.count("documents")
"""


def local_raw(tmp_path: Path, docs: Path, cleaners: list) -> dict:
    return {
        "source": {"local": {"path": str(docs)}},
        "sink": {"sqlite": str(tmp_path / "index.sqlite")},
        "state": str(tmp_path / "state.sqlite"),
        "workers": 1,
        "cleaners": cleaners,
    }


def local_sync(raw: dict) -> tuple:
    results = []
    summary = run(*parse_config(raw), results.append)
    return summary, {r.doc_id: r for r in results}


def test_configured_default_cleaner_stays_on_its_formats_and_options_reprocess(tmp_path, corpus):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "leave.md").write_bytes(md("Leave", "Twenty days of paid leave a year."))
    (docs / "plan.docx").write_bytes((corpus / "python_docx" / "blk-paras-and-tables.docx").read_bytes())
    plain = local_raw(tmp_path, docs, [])
    summary, results = local_sync(plain)
    assert summary.ok and summary.changed == 2
    # naming a default cleaner with its default options changes nothing: no re-processing
    summary, results = local_sync(local_raw(tmp_path, docs, [{"running_headers": None}, "empty_cells"]))
    assert summary.changed == 0 and summary.unchanged == 2
    for r in results.values():
        assert "running_headers" not in r.cleaned and "empty_cells" not in r.cleaned  # not widened
    # new options re-process the documents the cleaner runs on, and only those (issue #9): a
    # PDF-only cleaner leaves Markdown and Word alone, one for every format takes them all
    summary, _ = local_sync(local_raw(tmp_path, docs, [{"running_headers": {"min_pages": 5}}]))
    assert summary.changed == 0 and summary.unchanged == 2
    summary, _ = local_sync(local_raw(tmp_path, docs, [{"track_changes": {"mode": "reject"}}]))
    assert summary.changed == 2


def test_plugin_named_by_module_attr_runs_on_every_document(tmp_path, corpus, monkeypatch):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "review_sync_plugin.py").write_text(TAG_PLUGIN)
    monkeypatch.syspath_prepend(str(plugins))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "leave.md").write_bytes(md("Leave", "Twenty days of paid leave a year."))
    (docs / "plan.docx").write_bytes((corpus / "python_docx" / "blk-paras-and-tables.docx").read_bytes())
    summary, results = local_sync(local_raw(tmp_path, docs, ["review_sync_plugin:tag", {"furniture": False}]))
    assert summary.ok and summary.changed == 2, summary.failures
    for r in results.values():
        assert r.cleaned["review_sync_plugin:tag"]["documents"] == 1, r  # its own count, beside ingest's
        assert "furniture" not in r.cleaned
    assert "PLUGGED leave" in texts(tmp_path)["leave.md"]
    assert results["leave.md"].cleaned["review_sync_plugin:tag"]["chars"] == -3  # "paid" -> "PLUGGED": added
