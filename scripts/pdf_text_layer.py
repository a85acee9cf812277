"""Run the PDF loader over every PDF of the shared corpus (corpus, pdfeval, ragbench/*/pdfs) and
count what it says: loaded, loaded with warnings, refused (by error type), each warning and
refusal listed, so a change to the text-layer checks (`ingest/loaders/pdf/text_layer.py`) is
read against real files: none currently good may be newly refused or warned about wrongly.

    python scripts/pdf_text_layer.py [--shared ../shared] > after.txt
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.errors import LoaderError  # noqa: E402
from ingest.loaders import load_file  # noqa: E402


def pdfs(shared: Path) -> list[Path]:
    found = [*shared.glob("corpus/**/*.pdf"), *shared.glob("pdfeval/**/*.pdf"), *shared.glob("ragbench/*/pdfs/*.pdf")]
    return sorted(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path(os.environ.get("INGEST_SHARED", ROOT.parent / "shared")))
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    for path in pdfs(args.shared):
        name = path.relative_to(args.shared)
        try:
            loaded = load_file(path)
        except LoaderError as exc:
            counts[f"refused ({type(exc).__name__})"] += 1
            print(f"REFUSED {name}: {str(exc).split(': ', 1)[-1]}")
            continue
        if loaded.warnings:
            counts["loaded with warnings"] += 1
            for warning in loaded.warnings:
                print(f"WARNED  {name}: {warning.split(': ', 1)[-1]}")
        else:
            counts["loaded"] += 1
    print(", ".join(f"{n} {what}" for what, n in sorted(counts.items())), f"of {sum(counts.values())} PDFs")


if __name__ == "__main__":
    main()
