"""benchmarks/pdf_eval.py without the peers: its summary of the shared scorer's JSON, its parsing of
the chunker's output, the set it lays out and the word figures it reuses from pdf_groundtruth.

The pooled figures come from the shared scorer's own `pool` (../shared/pdfeval/tools), so a change
of its keys breaks this test instead of silently emptying the benchmark's table.
"""

from __future__ import annotations

import json

import pdf_eval  # benchmarks/ is on the test path
import pymupdf
import pytest

from tests.paths import SHARED

TOOLS_DIR = SHARED / "pdfeval" / "tools"


def doc_record(furn=(0, 4), body=(18, 18), heads=(3, 3), prec=(4, 4), order=(10, 10), pagenum=0, dup=0):
    """One document as pdfeval_score scores it (the struct_eval fields pool() reads)."""
    return {
        "furniture": {"leaked": furn[0], "n": furn[1]},
        "body": {"fuzzy": body[0], "n": body[1]},
        "head_recall": {"found": heads[0], "n": heads[1]},
        "head_precision": {"matched": prec[0], "n": prec[1]},
        "table_cells": {"found": 0, "n": 0},
        "order": {"in_order": order[0], "pairs": order[1]},
        "scan": {"pagenum": pagenum, "int1_28": 0},
        "dup_marker": dup,
    }


@pytest.fixture(scope="module")
def result():
    """A score JSON as pdfeval_score --json writes it (tuples become lists), two tools."""
    score = pdf_eval.load_tool(TOOLS_DIR, "pdfeval_score")
    ingest_docs = [doc_record(furn=(1, 10), pagenum=2, dup=4), doc_record(furn=(1, 8), heads=(1, 5))]
    peer_docs = [doc_record(furn=(3, 10), heads=(2, 3)), doc_record(furn=(0, 8), heads=(4, 5))]
    olm = {
        "scans": [],
        "groups": {
            "all": {
                "docs": 2,
                "tests": {"absent": (6, 12), "order": (3, 4), "present": (3, 13), "math_unscored": (0, 2)},
            }
        },
    }
    res = {
        "tools": {
            "ingest": {
                "struct": {"doclingeval": {"all": score.pool(ingest_docs), "dev": score.pool(ingest_docs[:1])}},
                "olmocr": olm,
            },
            "p4l-layout": {
                "struct": {"doclingeval": {"all": score.pool(peer_docs)}},
                "olmocr": {"scans": [], "groups": {"all": {"docs": 2, "tests": {"absent": (9, 12)}}}},
            },
            "p4l-legacy": {"struct": {}},  # scored nothing of this set: no row
        }
    }
    return json.loads(json.dumps(res))


def test_summary_rows_pool_the_all_split_per_tool(result):
    rows = pdf_eval.summary_rows(result, "doclingeval", "all", olmocr=True)
    assert [r["tool"] for r in rows] == ["ingest", "p4l-layout"]
    ing, peer = rows
    assert ing["docs"] == 2
    assert ing["furn leaked"] == (2, 18) and ing["headings"] == (4, 8) and ing["body kept"] == (36, 36)
    assert ing["pgnum"] == 2 and ing["dupmk"] == 4
    assert ing["olmocr absent"] == (6, 12) and ing["olmocr present"] == (3, 13)
    assert peer["olmocr order"] is None  # the peer's run had no order test: not a zero
    assert "olmocr absent" not in pdf_eval.summary_rows(result, "doclingeval", "all", olmocr=False)[0]


def test_ratios_divide_shares_and_counts_by_ingest(result):
    rows = pdf_eval.summary_rows(result, "doclingeval", "all", olmocr=True)
    (rat,) = pdf_eval.ratios(rows)
    assert rat["tool"] == "p4l-layout"
    assert rat["furn leaked"] == pytest.approx((3 / 18) / (2 / 18))
    assert rat["headings"] == pytest.approx((6 / 8) / (4 / 8))
    assert rat["olmocr absent"] == pytest.approx(1.5)
    assert rat["dupmk"] == 0  # 0 against ingest's 4
    assert rat["pgnum"] == 0
    assert rat["olmocr order"] is None
    no_ingest = [r for r in rows if r["tool"] != "ingest"]
    assert pdf_eval.ratios(no_ingest) == []


def test_ratio_against_a_zero_is_undefined():
    rows = [{"tool": "ingest", "docs": 1, "furn leaked": (0, 10)}, {"tool": "p", "docs": 1, "furn leaked": (6, 10)}]
    assert pdf_eval.ratios(rows) == [{"tool": "p", "furn leaked": None}]


def test_markdown_table_cells(result):
    rows = pdf_eval.summary_rows(result, "doclingeval", "all", olmocr=True)
    table = pdf_eval.markdown_table(rows, pdf_eval.columns(rows)).splitlines()
    assert table[0].startswith("| tool | docs | furn leaked | body kept | headings |")
    assert table[2].startswith("| ingest | 2 | 2/18 11% | 36/36 100% | 4/8 50% |")
    assert table[3].endswith("| 9/12 75% | - | - |")
    assert pdf_eval.fmt_cell(0.5) == "0.50x" and pdf_eval.fmt_cell((0, 0)) == "-"


def test_parse_chunk_output_reads_the_chunkers_closing_lines():
    out = "ingest olmocr: 12 PDFs, 2 failed, 9.4 s\nsome warning\ningest doclingeval: 5 PDFs, 0 failed, 3.0 s\n"
    sets = pdf_eval.parse_chunk_output(out)
    assert sets == {
        "olmocr": {"pdfs": 12, "failed": 2, "seconds": 9.4},
        "doclingeval": {"pdfs": 5, "failed": 0, "seconds": 3.0},
    }
    runs = {"ingest": {"sets": sets}}
    (row,) = pdf_eval.speed_rows(runs, {"ingest": (2.0, 1)}, 25)
    assert row["PDFs"] == 17 and row["failed"] == 2
    assert row["pages/s run"] == "2.0" and row["pages/s warm"] == "12.5" and row["warm failed"] == 1


def make_pdf(path, pages):
    doc = pymupdf.open()
    for i in range(pages):
        doc.new_page().insert_text((72, 72), f"page {i}")
    doc.save(path)


@pytest.fixture
def shared(tmp_path):
    """A shared/ folder in miniature: the pdfeval dev part and docling's corpus PDFs."""
    pe = tmp_path / "pdfeval"
    for sub in ("olmocr/pdfs", "doclingeval/sources", "doclingeval/groundtruth"):
        (pe / sub).mkdir(parents=True)
    (pe / "manifest.tsv").write_text("set\tdocument\tpages\ttags\tsplit\nolmocr\tone\t1\tx\tdev\n", encoding="utf-8")
    pdf = tmp_path / "corpus" / "docling" / "pdf"
    (pdf / "sources").mkdir(parents=True)
    (pdf / "groundtruth").mkdir()
    make_pdf(pdf / "sources" / "two.pdf", 2)
    make_pdf(pdf / "sources" / "no_truth.pdf", 1)
    truth = {
        "texts": [
            {"label": "page_header", "content_layer": "furniture", "text": "ACME Report"},
            {"label": "section_header", "text": "Results"},
            {"label": "text", "text": "sales grew by ten percent"},
        ],
        "tables": [],
    }
    (pdf / "groundtruth" / "two.json").write_text(json.dumps(truth), encoding="utf-8")
    (pdf / "groundtruth" / "no_source.json").write_text(json.dumps(truth), encoding="utf-8")
    return tmp_path


def test_lay_out_adds_only_corpus_pdfs_with_truth(shared, tmp_path):
    set_dir = pdf_eval.lay_out(shared, tmp_path / "out")
    assert sorted(p.name for p in (set_dir / "docling" / "sources").iterdir()) == ["two.pdf"]
    assert sorted(p.name for p in (set_dir / "docling" / "groundtruth").iterdir()) == ["two.json"]
    assert (set_dir / "olmocr" / "pdfs").is_dir()
    assert pdf_eval.manifest_pages(set_dir) == {"one.pdf": 1, "two.pdf": 2}
    manifest = (set_dir / "manifest.tsv").read_text(encoding="utf-8").splitlines()
    assert manifest[-1] == "docling\ttwo\t2\tcorpus\tcorpus"
    # The shared chunker finds the linked corpus PDF where it looks for the `docling` set.
    chunker = pdf_eval.load_tool(TOOLS_DIR, "pdfeval_chunk")
    assert [(s, p.rsplit("/", 1)[1]) for s, p in chunker.pdfs(str(set_dir))] == [("docling", "two.pdf")]
    assert pdf_eval.lay_out(shared, tmp_path / "out") == set_dir  # a second run starts afresh


def test_word_scores_reuse_pdf_groundtruth_on_chunk_files(shared, tmp_path):
    out = tmp_path / "chunks"
    (out / "good" / "docling").mkdir(parents=True)
    chunk = {"text": "sales grew by ten percent", "heading_path": ["two", "Results"]}
    (out / "good" / "docling" / "two.pdf.jsonl").write_text(json.dumps(chunk) + "\n", encoding="utf-8")
    (out / "leaky" / "docling").mkdir(parents=True)
    chunk = {"text": "ACME Report\nsales grew", "heading_path": ["two"]}
    (out / "leaky" / "docling" / "two.pdf.jsonl").write_text(json.dumps(chunk) + "\n", encoding="utf-8")
    good, leaky, failed = pdf_eval.word_scores(shared, out, ["good", "leaky", "failed"])
    assert good["body words kept"] == (6, 6) and good["furniture words left"] == (0, 2)
    assert good["headings found"] == (1, 1)
    assert leaky["body words kept"] == (2, 6) and leaky["furniture words left"] == (2, 2)
    assert leaky["headings found"] == (0, 1)
    assert failed["body words kept"] == (0, 6)  # no chunk file: nothing kept


def test_print_summary_shows_each_set_with_its_ratios(result, capsys):
    rows = pdf_eval.summary_rows(result, "doclingeval", "all", olmocr=True)
    summary = {
        "sets": {
            "pdfeval dev": {"rows": rows, "ratios": pdf_eval.ratios(rows), "title": "doclingeval"},
            "corpus docling": {"rows": rows[:1], "ratios": [], "title": "docling"},
        },
        "words": [{"tool": "ingest", "body words kept": (6, 6)}],
        "speed": [{"tool": "ingest", "pages": 3}],
    }
    pdf_eval.print_summary(summary)
    out = capsys.readouterr().out
    assert out.count("vs ingest") == 1  # only where a peer is there to compare
    assert "| p4l-layout | 1.50x |" in out and "### corpus docling (docling)" in out
    assert "| ingest | 6/6 100% |" in out
