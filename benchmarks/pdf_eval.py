"""PDF structure: ingest beside pymupdf4llm on the shared pdfeval set and the corpus PDFs, in one run.

Runs the shared scorer (`../shared/pdfeval/tools`, used as it is) over one set laid out in
`--out`: the pdfeval development part (olmocr unit tests, doclingeval layouts) and, as its
`docling` set, the corpus PDFs that have docling ground truth (`pdf_groundtruth.truth_files`).
For each tool: `pdfeval_chunk.py SET OUT TOOL` (ingest is this checkout's own `ingest chunk`),
then one `pdfeval_score.py SET OUT --tools ...`; prints its report, a summary table per set (one
row per tool) with ratios to ingest, pdf_groundtruth's word figures on the corpus set for every
tool, and pages/s per tool measured in this run.

    .venv/bin/python benchmarks/pdf_eval.py [--shared DIR] [--tools ingest,p4l-legacy,p4l-layout]
        [--out DIR] [--json FILE] [--peer-python PATH] [--jobs N] [--warm-passes N]

The scorer needs rapidfuzz in ingest's environment (`.venv/bin/pip install rapidfuzz`). The
pymupdf4llm tools run from a separate environment, because pymupdf-layout pulls pymupdf 1.28.2,
onnxruntime and numpy, and ingest pins pymupdf < 1.29 and wants no ONNX runtime. Create it once
(PyPI only; the layout model's ONNX weights ship inside pymupdf-layout, so it runs offline):

    python3 -m venv benchmarks/.peers-venv
    benchmarks/.peers-venv/bin/pip install -r benchmarks/peers-requirements.txt

`--peer-python` defaults to `benchmarks/.peers-venv/bin/python` when present; without it the
pymupdf4llm tools are skipped with a note. (pymupdf4llm 2.0 on PyPI is an empty wheel; 0.x, the
`bench` extra's pin, has no `use_layout`, which the shared chunker calls for both modes.)

Speed, per tool: **run** = pages over the summed per-document seconds of the chunk run (one
worker: ingest starts one `ingest chunk` process per document, a pymupdf4llm worker imports
once); **warm** = pages over the best of `--warm-passes` timed passes (default 1) in a fresh
child that has already converted the first PDF (imports and model loaded): ingest through its CLI
function in-process, pymupdf4llm through the shared chunker's own `run_p4l`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from pdf_groundtruth import read_truth, score, total, truth_files
from shared_paths import SHARED

ROOT = Path(__file__).resolve().parent.parent
PEERS_VENV = ROOT / "benchmarks" / ".peers-venv"
TOOLS = ("ingest", "p4l-legacy", "p4l-layout")
# (label, kind, key in pdfeval_score's pooled figures); "pair" = (hits, of), "count" = a bare number.
STRUCT_COLS = (
    ("furn leaked", "pair", "furn_leak"),
    ("body kept", "pair", "body"),
    ("headings", "pair", "head_recall"),
    ("head prec", "pair", "head_prec"),
    ("order", "pair", "order"),
    ("cells", "pair", "cells"),
    ("pgnum", "count", "pagenum_lines"),
    ("dupmk", "count", "dup_marker"),
)
OLMOCR_COLS = ("absent", "order", "present")
# The summary's sets: (row label, pdfeval_score struct set, split, with olmocr tests).
SETS = (("pdfeval dev", "doclingeval", "all", True), ("corpus docling", "docling", "all", False))


# ----------------------------------------------------------------------------- the set
def lay_out(shared: Path, dst: Path) -> Path:
    """One pdfeval set under dst: the dev part linked, the corpus PDFs with ground truth as `docling`."""
    pdfeval = shared / "pdfeval"
    set_dir = dst / "set"
    if set_dir.exists():
        shutil.rmtree(set_dir)
    set_dir.mkdir(parents=True)
    for name in ("olmocr", "doclingeval"):
        (set_dir / name).symlink_to(pdfeval / name)
    manifest = (pdfeval / "manifest.tsv").read_text(encoding="utf-8").rstrip("\n").split("\n")
    for sub in ("sources", "groundtruth"):
        (set_dir / "docling" / sub).mkdir(parents=True)
    for pdf, gt in truth_files(shared / "corpus"):
        (set_dir / "docling" / "sources" / pdf.name).symlink_to(pdf)
        (set_dir / "docling" / "groundtruth" / gt.name).symlink_to(gt)
        # The split names the corpus rows in the scorer's report; pages feed pages/s.
        manifest.append(f"docling\t{pdf.stem}\t{page_count(pdf)}\tcorpus\tcorpus")
    (set_dir / "manifest.tsv").write_text("\n".join(manifest) + "\n", encoding="utf-8")
    return set_dir


def page_count(pdf: Path) -> int:
    import pymupdf  # ingest's own dependency

    with pymupdf.open(pdf) as doc:
        return doc.page_count


def manifest_pages(set_dir: Path) -> dict[str, int]:
    """Pages per PDF file name, from the set's manifest."""
    pages = {}
    lines = (set_dir / "manifest.tsv").read_text(encoding="utf-8").splitlines()[1:]
    for line in lines:
        cols = line.split("\t")
        if len(cols) >= 3 and cols[2].isdigit():
            pages[os.path.basename(cols[1]) + ".pdf"] = int(cols[2])
    return pages


def load_tool(tools_dir: Path, name: str):
    """Import one of the shared scorer's scripts as a module (they are not a package)."""
    spec = importlib.util.spec_from_file_location(name, tools_dir / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ----------------------------------------------------------------------------- running the tools
_CHUNK_LINE = re.compile(r"^(\S+) (\S+): (\d+) PDFs, (\d+) failed, ([\d.]+) s$")


def parse_chunk_output(text: str) -> dict[str, dict]:
    """pdfeval_chunk.py's closing lines, per set: PDFs, failed, summed per-document seconds."""
    sets = {}
    for line in text.splitlines():
        m = _CHUNK_LINE.match(line.strip())
        if m:
            sets[m.group(2)] = {"pdfs": int(m.group(3)), "failed": int(m.group(4)), "seconds": float(m.group(5))}
    return sets


def run_chunk(tools_dir: Path, set_dir: Path, out: Path, tool: str, python: str, ingest: str, jobs: int) -> dict:
    ingest = body_only(ingest, out)
    cmd = [
        python,
        str(tools_dir / "pdfeval_chunk.py"),
        str(set_dir),
        str(out),
        tool,
        "--ingest",
        ingest,
        "--jobs",
        str(jobs),
    ]
    shutil.rmtree(out / tool, ignore_errors=True)  # a stale file of an earlier run must not be scored
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=tools_dir.parent)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"pdfeval_chunk {tool} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return {"wall": wall, "sets": parse_chunk_output(r.stdout), "errors": chunk_errors(out / tool)}


BODY_ONLY = ("--no-cards", "--cleaner", "figures")
"""`ingest chunk`'s flags for the body's chunks alone: the scorer measures the body's structure;
the card holds, on purpose, the furniture the body lost, and a figure's chunk its chart's labels
(a chart's numbers scored as body would be the page-number lines the scorer counts)."""


def body_only(ingest: str, out: Path) -> str:
    """An executable that runs `ingest chunk` with `BODY_ONLY`: the shared chunker calls
    `INGEST chunk FILE` and takes no flags of its own."""
    out.mkdir(parents=True, exist_ok=True)
    wrapper = out / "ingest-body"
    wrapper.write_text(
        f"#!{sys.executable}\nimport os, sys\n"
        f"os.execv({ingest!r}, [{ingest!r}, sys.argv[1], *{BODY_ONLY!r}, *sys.argv[2:]])\n",
        encoding="utf-8",
    )
    wrapper.chmod(0o755)
    return str(wrapper)


def chunk_errors(tool_out: Path) -> list[str]:
    return [
        f"{p.parent.name}/{line}"
        for p in sorted(tool_out.glob("*/_errors.tsv"))
        for line in p.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


# The warm pass: a child converts the first PDF untimed, then times passes over every PDF.
_WARM = """
import contextlib, json, os, sys, time
pdfs, tool, passes = json.loads(sys.argv[1]), sys.argv[2], int(sys.argv[4])
{setup}
def one(p):
    with open(os.devnull, "w") as null, contextlib.redirect_stdout(null):
        try:
            convert(p)
            return 0
        except (Exception, SystemExit):  # a failing document costs its time, as in the chunk run
            return 1
one(pdfs[0])
times = []
for _ in range(passes):
    t0 = time.perf_counter()
    failed = sum(one(p) for p in pdfs)
    times.append(time.perf_counter() - t0)
print(min(times), failed)
"""
_SETUP = {  # what `pdfeval_chunk.py` runs per document, minus the process start
    "ingest": "from ingest.cli.main import cli\nconvert = lambda p: cli.main(['chunk', p], standalone_mode=False)",
    "p4l": "sys.path.insert(0, sys.argv[3])\nimport pdfeval_chunk\nconvert = lambda p: pdfeval_chunk.run_p4l(tool, p)",
}


def warm_seconds(tool: str, python: str, pdfs: list[str], tools_dir: Path, passes: int = 1) -> tuple[float, int] | None:
    """(seconds of the best of `passes` passes over all PDFs, PDFs failed), in a fresh child."""
    code = _WARM.format(setup=_SETUP["ingest" if tool == "ingest" else "p4l"])
    r = subprocess.run(
        [python, "-c", code, json.dumps(pdfs), tool, str(tools_dir), str(passes)], capture_output=True, text=True
    )
    try:
        secs, failed = r.stdout.strip().splitlines()[-1].split()
        return float(secs), int(failed)
    except (ValueError, IndexError):
        print(f"warm pass of {tool} failed: {r.stderr.strip()[-500:]}", file=sys.stderr)
        return None


def run_score(tools_dir: Path, set_dir: Path, out: Path, tools: list[str], json_path: Path) -> tuple[str, dict]:
    cmd = [
        sys.executable,
        str(tools_dir / "pdfeval_score.py"),
        str(set_dir),
        str(out),
        "--tools",
        ",".join(tools),
        "--json",
        str(json_path),
    ]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=tools_dir.parent)
    if r.returncode != 0:
        raise SystemExit(f"pdfeval_score failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return r.stdout, json.loads(json_path.read_text(encoding="utf-8"))


# ----------------------------------------------------------------------------- summary
def summary_rows(result: dict, struct_set: str, split: str, olmocr: bool) -> list[dict]:
    """One row per tool from pdfeval_score's JSON: pooled figures of one set and split."""
    rows = []
    for tool, entry in result["tools"].items():
        pooled = entry.get("struct", {}).get(struct_set, {}).get(split)
        if pooled is None:
            continue
        row = {"tool": tool, "docs": pooled["docs"]}
        for label, kind, key in STRUCT_COLS:
            row[label] = tuple(pooled[key]) if kind == "pair" else pooled[key]
        if olmocr:
            tests = (entry.get("olmocr") or {}).get("groups", {}).get(split, {}).get("tests", {})
            for kind in OLMOCR_COLS:
                row[f"olmocr {kind}"] = tuple(tests[kind]) if kind in tests else None
        rows.append(row)
    return rows


def share(value) -> float | None:
    """A pair's share, a count as is; None when there is nothing to divide."""
    if isinstance(value, (tuple, list)):
        hits, of = value
        return hits / of if of else None
    return value


def ratios(rows: list[dict], base: str = "ingest") -> list[dict]:
    """Each other tool's figures over the base tool's (shares for pairs), None where undefined."""
    ref = next((r for r in rows if r["tool"] == base), None)
    if ref is None:
        return []
    out = []
    for row in rows:
        if row["tool"] == base:
            continue
        rat = {"tool": row["tool"]}
        for col in row:
            if col in ("tool", "docs"):
                continue
            mine, theirs = share(row[col]), share(ref[col])
            rat[col] = mine / theirs if mine is not None and theirs else None
        out.append(rat)
    return out


def fmt_cell(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, (tuple, list)):
        hits, of = value
        return f"{hits}/{of} {100 * hits / of:.0f}%" if of else "-"
    if isinstance(value, float):
        return f"{value:.2f}x"
    return str(value)


def markdown_table(rows: list[dict], columns: list[str]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "| " + " | ".join("---" for _ in columns) + " |"]
    for row in rows:
        lines.append("| " + " | ".join(fmt_cell(row.get(c)) for c in columns) + " |")
    return "\n".join(lines)


def columns(rows: list[dict]) -> list[str]:
    seen = []
    for row in rows:
        seen += [c for c in row if c not in seen]
    return seen


# ----------------------------------------------------------------------------- corpus, word figures
def word_scores(shared: Path, out: Path, tools: list[str]) -> list[dict]:
    """pdf_groundtruth's word figures per tool, on each tool's chunk files of the corpus set."""
    rows = []
    pairs = truth_files(shared / "corpus")
    for tool in tools:
        scores = []
        for pdf, gt in pairs:
            path = out / tool / "docling" / f"{pdf.name}.jsonl"
            chunks = chunk_file(path)
            # As pdf_groundtruth --chunks: a heading's words count once, from the heading paths.
            titles = {t for c in chunks for t in c.get("heading_path") or []}
            scores.append(
                score(
                    read_truth(gt),
                    [c.get("text") or "" for c in chunks] + sorted(titles),
                    [tuple(c.get("heading_path") or ()) for c in chunks],
                )
            )
        t = total(scores)
        rows.append(
            {
                "tool": tool,
                "docs": len(scores),
                "body words kept": (t.body_kept, t.body_words),
                "furniture words left": (t.furniture_left, t.furniture_words),
                "headings found": (t.headings_found, t.headings),
            }
        )
    return rows


def chunk_file(path: Path) -> list[dict]:
    if not path.exists():  # a document the tool failed on scores as empty output
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# ----------------------------------------------------------------------------- speed
def speed_rows(runs: dict[str, dict], warm: dict[str, tuple | None], total_pages: int) -> list[dict]:
    """Pages/s per tool: over the chunk run's summed per-document seconds, and over the warm pass."""
    rows = []
    for tool, run in runs.items():
        secs = sum(s["seconds"] for s in run["sets"].values())
        w, warm_failed = warm.get(tool) or (None, None)
        rows.append(
            {
                "tool": tool,
                "PDFs": sum(s["pdfs"] for s in run["sets"].values()),
                "failed": sum(s["failed"] for s in run["sets"].values()),
                "pages": total_pages,
                "chunk run s": f"{secs:.1f}",
                "pages/s run": f"{total_pages / secs:.1f}" if secs else "-",
                "warm s": f"{w:.1f}" if w else "-",
                "warm failed": warm_failed,
                "pages/s warm": f"{total_pages / w:.1f}" if w else "-",
            }
        )
    return rows


# ----------------------------------------------------------------------------- main
def print_summary(summary: dict) -> None:
    for label, entry in summary["sets"].items():
        print(f"\n### {label} ({entry['title']})\n")
        print(markdown_table(entry["rows"], columns(entry["rows"])))
        if entry["ratios"]:
            print("\nvs ingest (share over ingest's share; counts over ingest's count):\n")
            print(markdown_table(entry["ratios"], columns(entry["ratios"])))
    print("\n### corpus docling, pdf_groundtruth word figures\n")
    print(markdown_table(summary["words"], columns(summary["words"])))
    print("\n### speed (same run)\n")
    print(markdown_table(summary["speed"], columns(summary["speed"])))


def peer_python(arg: str | None) -> str | None:
    if arg:
        return arg
    default = PEERS_VENV / "bin" / "python"
    return str(default) if default.exists() else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=SHARED)
    ap.add_argument("--tools", default=",".join(TOOLS))
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "pdf_eval")
    ap.add_argument("--json", type=Path, help="write the summary, speed and scorer result here")
    ap.add_argument("--peer-python", help="Python with pymupdf4llm (default: benchmarks/.peers-venv)")
    ap.add_argument("--jobs", type=int, default=1, help="chunking workers (1: per-document times add up to wall time)")
    ap.add_argument("--warm-passes", type=int, default=1, help="timed warm passes per tool, best kept (0: none)")
    a = ap.parse_args(argv)
    a.shared, a.out = a.shared.resolve(), a.out.resolve()  # the scorer runs from its own folder
    tools_dir = a.shared / "pdfeval" / "tools"
    ingest = str(ROOT / ".venv" / "bin" / "ingest")
    if not os.access(ingest, os.X_OK):
        raise SystemExit(f"{ingest} not found: set up this checkout's .venv first (see README)")
    if importlib.util.find_spec("rapidfuzz") is None:  # fail before minutes of chunking, not after
        raise SystemExit("the scorer needs rapidfuzz here: .venv/bin/pip install rapidfuzz")
    peer = peer_python(a.peer_python)
    tools = [t for t in a.tools.split(",") if t]
    if unknown := set(tools) - set(TOOLS):
        raise SystemExit(f"unknown tools: {', '.join(sorted(unknown))}")
    if peer is None and any(t != "ingest" for t in tools):
        print("no peer Python (see the docstring for benchmarks/.peers-venv): pymupdf4llm tools skipped")
        tools = [t for t in tools if t == "ingest"]
    set_dir = lay_out(a.shared, a.out)
    tools_pdfs = [p for _, p in load_tool(tools_dir, "pdfeval_chunk").pdfs(str(set_dir))]
    pages = manifest_pages(set_dir)
    total_pages = sum(pages.get(os.path.basename(p), 0) for p in tools_pdfs)

    runs, warm = {}, {}
    for tool in tools:
        python = sys.executable if tool == "ingest" else peer
        print(f"chunking with {tool} ...", flush=True)
        runs[tool] = run_chunk(tools_dir, set_dir, a.out, tool, python, ingest, a.jobs)
        if a.warm_passes > 0:
            warm[tool] = warm_seconds(tool, python, tools_pdfs, tools_dir, a.warm_passes)
    report, result = run_score(tools_dir, set_dir, a.out, tools, a.out / "score.json")
    print(report)

    summary = {"sets": {}, "words": word_scores(a.shared, a.out, tools), "speed": speed_rows(runs, warm, total_pages)}
    for label, struct_set, split, olm in SETS:
        rows = summary_rows(result, struct_set, split, olm)
        summary["sets"][label] = {"rows": rows, "ratios": ratios(rows), "title": f"{struct_set}{' + olmocr' * olm}"}
    print_summary(summary)
    for tool, run in runs.items():
        for e in run["errors"]:
            print(f"{tool} failed on {e}")
    if a.json:
        a.json.write_text(
            json.dumps({"summary": summary, "runs": runs, "score": result}, indent=1, default=list), encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
