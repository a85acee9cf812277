"""`ingest eval` on the ragbench development half: human questions about real PDFs, over one index
of all their documents, as a team would run it on its own.

    .venv/bin/python benchmarks/eval_ragbench.py                       # financebench and mmlb
    .venv/bin/python benchmarks/eval_ragbench.py --sets financebench --reuse
    .venv/bin/python benchmarks/eval_ragbench.py --reuse --rag-eval  # and rag_eval.py on the same chunks

For each set in ../shared/ragbench: its questions.jsonl becomes an `ingest eval` questions file
(`doc` = the PDF's stem, `evidence` = the evidence texts, `page` = the evidence pages, `answer`
where rag_eval.py checks answers), `ingest run` indexes its pdfs/ folder with the defaults
(--reuse keeps an index built before), and `ingest eval` scores it at k=5 and a 1,000-token
budget, with `--scope all` (the index holds every document of the set, as a user's does, and
retrieval has to find the document too) and `--scope doc` (each question searches its own
document, rag_eval.py's default). It ranks with ingest's own FTS5 bm25 (porter stemming, heading
path weighted 4x), not bm25s. Everything lands in benchmarks/results/eval_ragbench/.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from shared_paths import RAGBENCH

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "results" / "eval_ragbench"
INGEST = [sys.executable, "-m", "ingest"]


def questions_file(data: Path, out: Path) -> int:
    lines = []
    for line in (data / "questions.jsonl").read_text(encoding="utf-8").splitlines():
        q = json.loads(line)
        mine = {"id": q["qid"], "question": q["question"], "doc": q["doc"]}
        if q.get("evidence"):
            mine["evidence"] = [e["text"] for e in q["evidence"] if e.get("text", "").strip()]
        if q.get("pages"):
            mine["page"] = q["pages"]
        if q.get("answer_check"):
            mine["answer"] = q["answer"]
        lines.append(json.dumps(mine, ensure_ascii=False))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default="financebench,mmlb")
    parser.add_argument("--reuse", action="store_true", help="Keep an index built by an earlier run.")
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--budget", type=int, default=1000)
    parser.add_argument(
        "--rag-eval",
        action="store_true",
        help="Also score the same chunks with rag_eval.py (needs the bench extra: bm25s, numpy).",
    )
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in args.sets.split(","):
        data = RAGBENCH / name
        questions = OUT / f"{name}.questions.jsonl"
        count = questions_file(data, questions)
        index = OUT / f"{name}.sqlite"
        if not (args.reuse and index.exists()):
            for stale in [*OUT.glob(f"{name}.sqlite*"), *OUT.glob(f"{name}.state.sqlite*")]:
                stale.unlink()  # the index and the state beside it
            t0 = time.perf_counter()
            subprocess.run([*INGEST, "run", data / "pdfs", "--index", index, "--quiet"], check=True)
            print(f"{name}: indexed in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        for scope in ("all", "doc"):
            report = OUT / f"{name}.{scope}.eval.json"
            proc = subprocess.run(
                [
                    *INGEST,
                    "eval",
                    questions,
                    "--index",
                    index,
                    "--k",
                    str(args.k),
                    "--budget",
                    str(args.budget),
                    "--scope",
                    scope,
                    "--json",
                    report,
                ],
                capture_output=True,
                text=True,
            )
            if proc.returncode != 0:
                sys.exit(f"{name}: ingest eval failed ({proc.returncode}):\n{proc.stderr}")
            rows.append((name, scope, count, json.loads(report.read_text())["figures"]))
            if args.rag_eval:
                print(
                    f"rag_eval.py score, {name}, --scope {scope}:\n{rag_eval(data, index, scope, args.k, args.budget)}"
                )
    print(f"k={args.k}, budget {args.budget} tokens; one index per set, every document in it")
    print(
        f"{'set':<14}{'scope':>6}{'questions':>10}{'hit@k':>8}{'MRR':>8}{'evidence':>10}{'answer':>8}{'page hit':>10}"
    )
    for name, scope, count, f in rows:
        print(
            f"{name:<14}{scope:>6}{count:>10}{_cell(f, 'hit_rate'):>8}{_cell(f, 'mrr'):>8}"
            f"{_cell(f, 'evidence_recall'):>10}{_cell(f, 'answer_found'):>8}{_cell(f, 'page_hit'):>10}"
        )


def rag_eval(data: Path, index: Path, scope: str, k: int, budget: int) -> str:
    """The same chunks scored by rag_eval.py: exported per document (its file stem) with their
    text, embed_text and pages, as `rag_eval.py chunk` writes them."""
    chunks = index.with_suffix(".chunks")
    if chunks.exists():
        shutil.rmtree(chunks)
    chunks.mkdir()
    conn = sqlite3.connect(f"{index.resolve().as_uri()}?mode=ro", uri=True)
    rows = conn.execute(
        "SELECT d.name, c.text, c.heading_path, c.page_start, c.page_end FROM chunks AS c "
        "JOIN documents AS d ON d.id = c.doc_id ORDER BY d.name, c.chunk_index"
    ).fetchall()
    conn.close()
    for name, text, heading_path, start, end in rows:
        path = json.loads(heading_path)
        record = {
            "text": text,
            "embed_text": " > ".join(path) + "\n\n" + text if path else text,
            "page_start": start,
            "page_end": end,
        }
        with open(chunks / f"{Path(name).stem}.jsonl", "a", encoding="utf-8") as out:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    proc = subprocess.run(
        [
            sys.executable,
            RAGBENCH / "tools" / "rag_eval.py",
            "score",
            data / "questions.jsonl",
            f"ingest={chunks}",
            "--scope",
            scope,
            "--k",
            str(k),
            "--budget",
            str(budget),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout.strip()


def _cell(figures: dict, key: str) -> str:
    value = figures[key]["value"]
    return "-" if value is None else f"{value:.3f}"


if __name__ == "__main__":
    main()
