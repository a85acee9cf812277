"""retrieval_variants' `path shared`: the heading-path prefix nearly every chunk of a document shares."""

from __future__ import annotations

import json

from retrieval_variants import repath, shared_prefix


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
