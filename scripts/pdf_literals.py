"""Count the numeric literals of the PDF reader outside `thresholds.py` (CONTRIBUTING: Adding a PDF
rule): every int/float constant, and those that are no trivial 0, 1, -1 or 2 and no index.

    python scripts/pdf_literals.py [FOLDER] [-v]     # FOLDER defaults to ingest/loaders/pdf
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path


def count(root: Path) -> tuple[int, Counter[str]]:
    total, left = 0, Counter[str]()
    for f in sorted(root.glob("*.py")):
        if f.name == "thresholds.py":
            continue
        tree = ast.parse(f.read_text())
        index: set[int] = set()
        negative: set[int] = set()
        for n in ast.walk(tree):
            if isinstance(n, ast.Subscript):
                index.update(id(m) for m in ast.walk(n.slice))
            if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub) and isinstance(n.operand, ast.Constant):
                negative.add(id(n.operand))
        for n in ast.walk(tree):
            if isinstance(n, ast.Constant) and type(n.value) in (int, float):
                total += 1
                value = -n.value if id(n) in negative else n.value
                if value not in (0, 1, -1, 2) and id(n) not in index:
                    left[f"{f.name}:{n.lineno} {value!r}"] += 1
    return total, left


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "-v"]
    total, left = count(Path(args[0] if args else "ingest/loaders/pdf"))
    print(f"numeric literals: {total}; not 0, 1, -1, 2 and not an index: {sum(left.values())}")
    if "-v" in sys.argv:
        for where in left:
            print(" ", where)
    return 0


if __name__ == "__main__":
    sys.exit(main())
