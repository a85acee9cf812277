"""retrieval_variants on hand-made chunk folders: `path shared` (the heading-path prefix nearly every
chunk of a document shares), `heading-once` and `siblings`."""

from __future__ import annotations

import json

from retrieval_variants import heading_once, repath, shared_prefix, siblings


def test_the_shared_prefix_is_what_nine_in_ten_paths_start_with():
    paths = [["10-K", "ACME CORP", "Item 7", f"s{i}"] for i in range(9)] + [["10-K", "Cover"]]
    assert shared_prefix(paths) == ["10-K", "ACME CORP", "Item 7"]
    assert shared_prefix(paths, share=1.0) == ["10-K"]
    assert shared_prefix([["a", "b"], ["c"]]) == []


def test_path_shared_keeps_the_headings_below_it(tmp_path):
    rows = [{"heading_path": ["Doc", "ACME", f"Note {i}"], "text": f"t{i}"} for i in range(9)]
    rows.append({"heading_path": ["Doc", "Cover"], "text": "c"})
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "d.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    repath("shared", tmp_path / "src", tmp_path / "dst")
    out = [json.loads(line) for line in (tmp_path / "dst" / "d.jsonl").read_text().splitlines()]
    assert out[0]["embed_text"] == "Note 0\n\nt0"
    assert out[-1]["embed_text"] == "Cover\n\nc"  # outside the shared prefix: only the root goes


def _folder(tmp_path, rows) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "d.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def _out(tmp_path) -> list[dict]:
    return [json.loads(line) for line in (tmp_path / "dst" / "d.jsonl").read_text().splitlines()]


def test_heading_once_reads_a_heading_standing_alone_as_its_path(tmp_path):
    rows = [
        {
            "heading_path": ["Doc", "Results"],
            "kinds": ["heading"],
            "text": "Results",
            "embed_text": "Results\n\nResults",
        },
        {
            "heading_path": ["Doc", "Results"],
            "kinds": ["paragraph"],
            "text": "Results",
            "embed_text": "Results\n\nResults",
        },
    ]
    _folder(tmp_path, rows)
    heading_once(tmp_path / "src", tmp_path / "dst")
    assert [c["embed_text"] for c in _out(tmp_path)] == ["Results", "Results\n\nResults"]


def test_siblings_join_small_sections_under_one_parent_within_the_limit(tmp_path):
    def row(path, text):
        return {"heading_path": path, "text": text, "embed_text": f"{path[-1]}\n\n{text}", "page_end": 1}

    rows = [row(["D", "Item 5", "A"], "a " * 3), row(["D", "Item 5", "B"], "b " * 3), row(["D", "Item 6"], "c " * 3)]
    rows += [row(["D", "Item 6"], "d " * 3), row(["D", "Item 6", "E"], "e " * 30), row(["D", "Item 6", "F"], "f")]
    _folder(tmp_path, rows)
    siblings(tmp_path / "src", tmp_path / "dst", limit=20, count=lambda s: len(s.split()))
    out = _out(tmp_path)
    # A and B join (one parent); Item 6 has another; two chunks of one path stay apart; F would overfill E.
    assert [c["heading_path"][-1] for c in out] == ["A", "Item 6", "Item 6", "E", "F"]
    assert out[0]["embed_text"] == "A\n\na a a \n\nB\n\nb b b "
