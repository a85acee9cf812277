"""`ingest inspect`: what each cleaner removed, on a terminal and as JSON, on real documents."""

from __future__ import annotations

import json
import subprocess
import sys

from rich.console import Console

from ingest.chunker import ChunkOptions
from ingest.cleaners import build_chain
from ingest.cli.inspect import show
from ingest.inspect import inspect_document, segments
from ingest.inspect_html import render
from ingest.loaders import load_file

FILING = "freelaw_doctor/doctor/test_assets/recap_documents/ca5_00516242060.pdf"
TRACKED = "open_xml_powertools/TestFiles/RP/RP002-Deleted-Text.docx"


def inspect(cmd_args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ingest", "inspect", *cmd_args], capture_output=True, text=True, cwd=cwd
    )


def test_json_names_each_removal_with_page_and_position(corpus):
    proc = inspect([str(corpus / FILING), "--json"])
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    removed = [b for b in data["blocks"] if b["removed_by"]]
    headers = [b for b in removed if b["removed_by"] == "running_headers"]
    numbers = [b for b in removed if b["removed_by"] == "page_numbers"]
    pages = {b["page"] for b in data["blocks"]}
    assert len(numbers) == len(pages) - 1  # every page but the first shows its number at the foot
    assert all(b["text"].strip() == str(b["page"]) and b["bbox"][1] > 700 for b in numbers)
    assert all(b["bbox"][1] < 100 for b in headers) and any(b["text"].startswith("Case: 21-50498") for b in headers)
    counts = data["counts"]
    assert counts["running_headers"]["blocks_removed"] == len(headers)
    assert counts["page_numbers"]["chars_removed"] == sum(len(b["text"]) for b in numbers)
    chunked = " ".join(c["text"] for c in data["chunks"] if c["kinds"] != ["card"])
    assert "Date Filed: 03/16/2022" not in chunked and "Vanessa St. Pierre" in chunked
    # What the cleaners removed is kept out of the body, not thrown away: the document's card holds it (#29).
    assert data["chunks"][-1]["kinds"] == ["card"] and "Date Filed: 03/16/2022" in data["chunks"][-1]["text"]


def test_a_tracked_deletion_is_a_span_cut_from_a_kept_block(corpus):
    loaded = load_file(corpus / TRACKED)
    result = inspect_document(loaded, build_chain([]), ChunkOptions())
    (block,) = [t for t in result.blocks if t.removals]
    assert not block.removed_by and block.changed_by == ("track_changes",)
    assert [(r.cleaner, block.block.text[r.start : r.end]) for r in block.removals] == [("track_changes", " provides")]
    assert segments(block) == [("Video", ""), (" provides", "track_changes"), (block.block.text[14:], "")]
    assert result.chunks[0].text.startswith("Video a powerful way")


def test_terminal_strikes_removed_text_and_labels_it(corpus):
    result = inspect_document(load_file(corpus / FILING), build_chain([]), ChunkOptions())
    console = Console(record=True, width=200, color_system="truecolor", force_terminal=True)
    show(result, console, changes_only=True)
    plain = console.export_text(clear=False)
    assert "[removed by running_headers]" in plain and "[removed by page_numbers]" in plain
    assert "Vanessa" not in plain  # only the blocks a cleaner touched
    ansi = console.export_text(styles=True)
    assert "\x1b[2;9;35mCase: 21-50498" in ansi  # dimmed (2), struck through (9), in its cleaner's colour
    assert "running_headers: 19 blocks removed" in plain


def test_cleaner_option_switches_one_off_and_config_is_taken(corpus, tmp_path):
    proc = inspect([str(corpus / FILING), "--json", "--cleaner", "running_headers:false"])
    data = json.loads(proc.stdout)
    assert "running_headers" not in data["cleaners"]
    assert any("Date Filed" in c["text"] for c in data["chunks"])
    config = tmp_path / "ingest.yaml"
    config.write_text(
        "source:\n  local: {path: .}\nchunker: {max_tokens: 100, min_tokens: 10, overlap_tokens: 0}\n"
        "cleaners: [{page_numbers: false}]\n"
    )
    data = json.loads(inspect([str(corpus / FILING), "--json", "--config", str(config)]).stdout)
    assert "page_numbers" not in data["cleaners"] and max(c["token_count"] for c in data["chunks"]) <= 100


def test_html_holds_no_reference_to_anything_outside_it(corpus):
    page = render(inspect_document(load_file(corpus / FILING), build_chain([]), ChunkOptions()))
    assert "http://" not in page and "https://" not in page and "<script" not in page and "src=" not in page
    assert "default-src 'none'" in page
    assert page.count("data-cleaner='running_headers' title=") == 19


def test_html_lists_loader_warnings_and_escapes_text(tmp_path):
    from dataclasses import replace

    path = tmp_path / "odd.txt"
    path.write_text("<script>alert(1)</script>\n\nBody & more.\n")
    loaded = replace(load_file(path), warnings=("sheet 'Hidden' is hidden: skipped",))
    page = render(inspect_document(loaded, build_chain([]), ChunkOptions()))
    assert "<h2>Loader warnings</h2>" in page and "sheet &#x27;Hidden&#x27; is hidden: skipped" in page
    assert "<script>" not in page and "&lt;script&gt;" in page and "Body &amp; more." in page


def test_inspect_shows_what_a_run_indexes_and_its_counts_match_the_runs(corpus, seeds):
    from ingest.cleaners import clean
    from ingest.loaders import local_document
    from ingest.runner.parallel import Job, process
    from tests.paths import ROOT

    files = [
        *sorted((ROOT / "examples").rglob("*.*")),
        corpus / FILING,
        corpus / TRACKED,
        corpus / "unstructured/example-docs/stanley-cups.xlsx",
    ]
    steps, options = build_chain([]), ChunkOptions()
    for path in files:
        loaded = load_file(path)
        result = inspect_document(loaded, steps, options)
        stream, report = clean(loaded.blocks, loaded.document, steps)
        list(stream)
        data = path.read_bytes()
        indexed = process(Job(data, local_document(path, data, path.stat().st_mtime), steps, options))
        assert result.chunks == indexed.chunks, path  # the document's card included
        for name in result.cleaners:
            removed = sum(t.removed_by == name for t in result.blocks)
            assert result.counts[name]["blocks_removed"] == removed == report[name]["blocks"], (path, name)


def test_chunk_boundaries_placed_once_each_in_order_before_their_headings(seeds):
    from ingest.inspect import chunk_starts
    from tests.paths import ROOT

    for max_tokens in (512, 60):
        result = inspect_document(
            load_file(ROOT / "examples/paediatric-fever.md"),
            build_chain([]),
            ChunkOptions(max_tokens=max_tokens, min_tokens=10, overlap_tokens=0),
        )
        starts = chunk_starts(result)
        placed = [c.chunk_index for index in sorted(starts) for c in starts[index]]
        assert placed == list(range(len(result.chunks)))
        first = min(starts)
        assert result.blocks[first].block.kind == "heading"  # the title opens the first chunk
        for index, chunks in starts.items():  # a chunk begins under its own heading path
            block = result.blocks[index].block
            assert tuple(chunks[0].heading_path[: len(block.path)]) == block.path or block.kind != "heading"
