"""List the blocks of kind "figure" the PDF loader reads out of each PDF: file, page, text.

    PYTHONPATH=. python scripts/pdf_figures.py FILE_OR_FOLDER... [--budget SECONDS] [--pages 3,7]

Each file is read by the loader in a child process with a time budget (the filings run to hundreds
of pages); a file over budget is named and skipped. --pages cuts those pages (1-based) into a
PDF of their own first, so one page can be looked at quickly.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
from pathlib import Path


def _figures(path: str, pages: list[int] | None, out: mp.Queue) -> None:
    import pymupdf

    from ingest.blocks import Document
    from ingest.loaders.pdf.loader import load

    data = Path(path).read_bytes()
    numbers = None
    if pages:
        src = pymupdf.open(stream=data, filetype="pdf")
        cut = pymupdf.open()
        for n in pages:
            cut.insert_pdf(src, from_page=n - 1, to_page=n - 1)
        data, numbers = cut.tobytes(), pages
    doc = Document(id=path, uri=path, name=Path(path).name, mime_type="application/pdf")
    loaded = load(data, doc)
    rows = []
    for b in loaded.blocks:
        if b.kind == "figure":
            page = numbers[b.page - 1] if numbers and b.page else b.page
            rows.append({"file": Path(path).name, "page": page, "bbox": b.bbox, "text": b.text})
    out.put(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--budget", type=float, default=300.0, help="seconds per file")
    ap.add_argument("--pages", default="", help="only these pages (1-based, comma-separated)")
    ap.add_argument("--jsonl", help="also write one JSON line per figure here")
    args = ap.parse_args(argv)
    files = [f for p in map(Path, args.paths) for f in (sorted(p.glob("*.pdf")) if p.is_dir() else [p])]
    pages = [int(n) for n in args.pages.split(",") if n] or None
    sink = open(args.jsonl, "w") if args.jsonl else None
    total = 0
    for f in files:
        q: mp.Queue = mp.Queue()
        proc = mp.Process(target=_figures, args=(str(f), pages, q))
        proc.start()
        try:
            rows = q.get(timeout=args.budget)
        except Exception:
            proc.kill()
            print(f"{f.name}: over {args.budget:.0f} s budget (or failed), skipped", file=sys.stderr)
            continue
        finally:
            proc.join()
        total += len(rows)
        print(
            f"{f.name}: {len(rows)} figure blocks" + (f" on pages {sorted({r['page'] for r in rows})}" if rows else "")
        )
        for r in rows:
            text = " | ".join(r["text"].split("\n"))
            print(f"  p{r['page']} {[round(x) for x in r['bbox']] if r['bbox'] else ''}: {text[:300]}")
            if sink:
                sink.write(json.dumps(r) + "\n")
    print(f"total {total} figure blocks in {len(files)} files")
    if sink:
        sink.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
