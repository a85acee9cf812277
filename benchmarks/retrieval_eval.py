"""Retrieval quality of chunkers on ../shared/corpus/chunking_evaluation, with BM25, k = 5.

    .venv/bin/python benchmarks/retrieval_eval.py
    .venv/bin/python benchmarks/retrieval_eval.py --overlaps 0,32,64 --mins 0,64,128 --json out.json

The protocol of the chunking_evaluation repository (corpus README, "The chunking benchmark
protocol"), with BM25 in place of its OpenAI embeddings:
- each chunker chunks the three corpora (chatlogs, state_of_the_union, wikitexts);
- each chunk gets its character span in its corpus: ingest reports `start`/`end` (into the loaded
  text, which for these files is the file's text); a peer's chunk is found with `str.find` from a
  cursor that moves past the previous chunk, so repeated passages map to the right place;
- one BM25 index (rank_bm25's BM25Okapi, default k1 and b) over every chunk of all three corpora
  together; chunks and questions are tokenised the same way for every chunker: lowercased runs of
  word characters (`\\w+`), nothing else (no stemming, no stop words);
- for each of the 276 questions the top k = 5 chunks are retrieved, then, in characters:
  covered   = characters of the question's references that lie inside at least one retrieved
              chunk of the question's corpus (the pairwise intersections of retrieved spans with
              reference spans are merged first, so a character seen by two chunks counts once);
  recall    = covered / total length of the references;
  precision = covered / total length of the k retrieved chunks (each chunk's full length, chunks
              from another corpus included, overlapping chunks each counted: as the original);
  IoU       = covered / (total length of the k retrieved chunks + reference characters not covered).
  The figures are the means over all questions. These follow base_evaluation.py and
  evaluation_utils.py of the original (brandonstarxel/chunking_evaluation).
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from shared_paths import CORPUS

ROOT = Path(__file__).resolve().parent.parent
DATA = CORPUS / "chunking_evaluation"
CORPORA = ("chatlogs", "state_of_the_union", "wikitexts")
K = 5
# The figures for the baselines, measured with this protocol on a 2-core machine.
REFERENCE = {
    "chonkie": (0.931, 0.048),
    "semchunk": (0.934, 0.048),
    "langchain-200": (0.911, 0.058),
    "fixed-1200": (0.928, 0.040),
}

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Piece:
    corpus: str
    start: int
    end: int
    text: str
    indexed: str | None = None
    """What BM25 indexes, if not `text` (an experiment indexes ingest's `embed_text`)."""


Chunker = Callable[[str, Path], list[Piece]]  # (corpus id, its .md file) -> chunks with spans


# ---- chunkers ----------------------------------------------------------------------------------


def ingest_chunker(max_tokens: int, overlap: int, min_tokens: int) -> Chunker:
    from ingest.chunker import ChunkOptions, chunk
    from ingest.loaders import load_file

    options = ChunkOptions(max_tokens=max_tokens, min_tokens=min_tokens, overlap_tokens=overlap)

    def run(corpus: str, path: Path) -> list[Piece]:
        loaded = load_file(path)  # the Markdown loader
        if loaded.text != path.read_text(encoding="utf-8"):
            raise SystemExit(f"{path}: loaded text differs from the file, so spans would not match the references")
        return [Piece(corpus, c.start, c.end, c.text) for c in chunk(loaded, options)]

    return run


def ingest_lines_as_paragraphs(max_tokens: int, overlap: int, min_tokens: int) -> Chunker:
    """Experiment, not a product path: every lone newline is doubled, so each line reaches the
    Markdown loader as its own paragraph (wikitexts keeps one Wikipedia paragraph per line and has
    no blank line at all); spans are mapped back to the original file. It shows what a chunker that
    prefers line ends as split points would score."""
    from ingest.chunker import ChunkOptions, chunk
    from ingest.loaders import load_bytes, local_document

    options = ChunkOptions(max_tokens=max_tokens, min_tokens=min_tokens, overlap_tokens=overlap)

    def run(corpus: str, path: Path) -> list[Piece]:
        text = path.read_text(encoding="utf-8")
        doubled, origin = [], []  # origin[i]: offset in `text` of doubled[i]
        for i, ch in enumerate(text):
            doubled.append(ch)
            origin.append(i)
            if ch == "\n" and text[i - 1 : i] != "\n" and text[i + 1 : i + 2] != "\n":
                doubled.append("\n")
                origin.append(i)
        origin.append(len(text))
        data = "".join(doubled).encode("utf-8")
        loaded = load_bytes(data, local_document(path, data, path.stat().st_mtime))
        return [
            Piece(corpus, origin[c.start], origin[c.end], text[origin[c.start] : origin[c.end]])
            for c in chunk(loaded, options)
        ]

    return run


_WIKI_HEADING = re.compile(r"^ (= )+(.*?) (= )+$", re.M)


def ingest_wiki_sections(max_tokens: int, overlap: int, min_tokens: int) -> Chunker:
    """Experiment, not a product path: wikitexts' own headings (" = = Plot = = " lines, wikitext
    syntax that Markdown reads as paragraphs) are rewritten as Markdown headings of the same length,
    so the chunker sees the articles' sections, and BM25 indexes each chunk's `embed_text` (heading
    path + text). It shows how far structure and heading context move retrieval here."""
    from ingest.chunker import ChunkOptions, chunk
    from ingest.loaders import load_bytes, local_document

    options = ChunkOptions(max_tokens=max_tokens, min_tokens=min_tokens, overlap_tokens=overlap)

    def heading(match: re.Match) -> str:
        level = match.group(0).count("= ") // 2
        return ("#" * level + " " + match.group(2)).ljust(len(match.group(0)))

    def run(corpus: str, path: Path) -> list[Piece]:
        text = path.read_text(encoding="utf-8")
        data = _WIKI_HEADING.sub(heading, text).encode("utf-8")
        loaded = load_bytes(data, local_document(path, data, path.stat().st_mtime))
        return [Piece(corpus, c.start, c.end, text[c.start : c.end], c.embed_text) for c in chunk(loaded, options)]

    return run


def _located(split: Callable[[str], list[str]]) -> Chunker:
    """A peer that returns only texts: find each one in the corpus after the previous one."""

    def run(corpus: str, path: Path) -> list[Piece]:
        text = path.read_text(encoding="utf-8")
        pieces, cursor = [], 0
        for piece in split(text):
            start = text.find(piece, cursor)
            if start < 0:  # a peer that rewrote its text; fall back to the first occurrence
                start = text.find(piece)
            if start < 0:
                raise SystemExit(f"{corpus}: a chunk is not a substring of the corpus: {piece[:80]!r}")
            pieces.append(Piece(corpus, start, start + len(piece), piece))
            cursor = start + len(piece)
        return pieces

    return run


def chonkie_chunker(enc, size: int) -> Chunker:
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(tokenizer=enc, chunk_size=size)
    return _located(lambda text: [c.text for c in chunker.chunk(text)])


def semchunk_chunker(enc, size: int) -> Chunker:
    import semchunk

    chunker = semchunk.chunkerify(enc, size)
    return _located(chunker)


def langchain_chunker(enc, size: int) -> Chunker:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    # from_tiktoken_encoder takes only an encoding name (and would download it): this is the
    # length function it builds, on the offline encoding.
    length = lambda text: len(enc.encode(text, allowed_special=set(), disallowed_special="all"))  # noqa: E731
    splitter = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=0, length_function=length)
    return _located(splitter.split_text)


def fixed_chars_chunker(size: int) -> Chunker:
    def run(corpus: str, path: Path) -> list[Piece]:
        text = path.read_text(encoding="utf-8")
        return [Piece(corpus, i, min(i + size, len(text)), text[i : i + size]) for i in range(0, len(text), size)]

    return run


# ---- retrieval and scoring ---------------------------------------------------------------------

_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def merged(spans: list[Span]) -> list[Span]:
    out: list[list[int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(s, e) for s, e in out]


def score(retrieved: list[Piece], corpus: str, refs: list[Span]) -> tuple[float, float, float]:
    """Recall, precision, IoU of one question's retrieved chunks, in characters (see the docstring)."""
    hits = [
        (max(p.start, rs), min(p.end, re_))
        for p in retrieved
        if p.corpus == corpus
        for rs, re_ in refs
        if max(p.start, rs) < min(p.end, re_)
    ]
    covered = sum(e - s for s, e in merged(hits))
    ref_chars = sum(e - s for s, e in refs)
    retrieved_chars = sum(p.end - p.start for p in retrieved)
    recall = covered / ref_chars if ref_chars else 0.0
    precision = covered / retrieved_chars if retrieved_chars else 0.0
    iou_denominator = retrieved_chars + ref_chars - covered
    return recall, precision, (covered / iou_denominator if iou_denominator else 0.0)


def load_questions() -> list[tuple[str, str, list[Span]]]:
    with open(DATA / "questions_df.csv", encoding="utf-8", newline="") as f:
        return [
            (
                row["question"],
                row["corpus_id"],
                [(r["start_index"], r["end_index"]) for r in json.loads(row["references"])],
            )
            for row in csv.DictReader(f)
        ]


def evaluate(chunker: Chunker, questions, count_tokens: Callable[[str], int]) -> dict:
    import numpy as np
    from rank_bm25 import BM25Okapi

    pieces = [p for corpus in CORPORA for p in chunker(corpus, DATA / "corpora" / f"{corpus}.md")]
    bm25 = BM25Okapi([words(p.indexed or p.text) for p in pieces])
    per_question, per_corpus, retrieved_chars = [], {c: [] for c in CORPORA}, []
    refs_cut = refs_missed = 0  # a reference touched by 2+ chunks (cut, or overlap); one no retrieved chunk touches
    for question, corpus, refs in questions:
        scores = bm25.get_scores(words(question))
        top = np.argsort(-scores, kind="stable")[:K]
        result = score([pieces[i] for i in top], corpus, refs)
        retrieved_chars.extend(pieces[i].end - pieces[i].start for i in top)
        for rs, re_ in refs:
            holders = {i for i, p in enumerate(pieces) if p.corpus == corpus and p.start < re_ and p.end > rs}
            refs_cut += len(holders) > 1
            refs_missed += not holders.intersection(top.tolist())
        per_question.append(result)
        per_corpus[corpus].append(result)
    tokens = sorted(count_tokens(p.text) for p in pieces)
    mean = lambda rows, i: statistics.fmean(r[i] for r in rows)  # noqa: E731
    return {
        "recall": mean(per_question, 0),
        "precision": mean(per_question, 1),
        "iou": mean(per_question, 2),
        "by_corpus": {
            c: {"recall": mean(rows, 0), "iou": mean(rows, 2), "chunks": sum(p.corpus == c for p in pieces)}
            for c, rows in per_corpus.items()
        },
        "chunks": len(pieces),
        "refs": sum(len(refs) for _, _, refs in questions),
        "refs_cut": refs_cut,
        "refs_missed": refs_missed,
        "tokens": {
            "min": tokens[0],
            "p10": tokens[len(tokens) // 10],
            "p50": tokens[len(tokens) // 2],
            "p90": tokens[len(tokens) * 9 // 10],
            "max": tokens[-1],
            "mean": statistics.fmean(tokens),
            "under_64": sum(t < 64 for t in tokens),
            "under_128": sum(t < 128 for t in tokens),
        },
        "chars_mean": statistics.fmean(p.end - p.start for p in pieces),
        # IoU at fixed k follows the length of what is retrieved, which need not be the mean chunk
        "retrieved_chars_mean": statistics.fmean(retrieved_chars),
        "stored_x": sum(p.end - p.start for p in pieces)
        / sum(len((DATA / "corpora" / f"{c}.md").read_text(encoding="utf-8")) for c in CORPORA),
    }


# ---- report ------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-tokens", default="256", help="ingest budgets, comma-separated")
    parser.add_argument("--overlaps", default="0,16,32,48,64", help="ingest overlap_tokens values")
    parser.add_argument("--mins", default="0,64,128", help="ingest min_tokens values")
    parser.add_argument(
        "--lines-as-paragraphs",
        action="store_true",
        help="also run the experiment that makes every line a paragraph for ingest",
    )
    parser.add_argument(
        "--wiki-sections",
        action="store_true",
        help="also run the experiment that gives ingest wikitexts' sections and indexes embed_text",
    )
    parser.add_argument("--json", type=Path, help="also write every figure here")
    args = parser.parse_args(argv)

    from ingest.chunker.tokens import encoding

    enc = encoding("cl100k_base")
    count = lambda text: len(enc.encode_ordinary(text))  # noqa: E731
    baselines: dict[str, tuple[str, Chunker]] = {
        "chonkie": ("chonkie RecursiveChunker 256", chonkie_chunker(enc, 256)),
        "semchunk": ("semchunk 256", semchunk_chunker(enc, 256)),
        "langchain-200": ("LangChain recursive tiktoken 200, overlap 0", langchain_chunker(enc, 200)),
        "fixed-1200": ("fixed 1,200 characters, no overlap", fixed_chars_chunker(1200)),
    }
    ours: dict[str, tuple[str, Chunker]] = {}
    for max_tokens in map(int, args.max_tokens.split(",")):
        for overlap in map(int, args.overlaps.split(",")):
            for min_tokens in map(int, args.mins.split(",")):
                if overlap < max_tokens and min_tokens <= max_tokens:
                    ours[f"ingest-{max_tokens}-o{overlap}-m{min_tokens}"] = (
                        f"ingest {max_tokens}, overlap {overlap}, min {min_tokens}",
                        ingest_chunker(max_tokens, overlap, min_tokens),
                    )
                    if args.lines_as_paragraphs:
                        ours[f"ingest-lines-{max_tokens}-o{overlap}-m{min_tokens}"] = (
                            f"experiment: ingest {max_tokens}, overlap {overlap}, min {min_tokens}, lines as paragraphs",
                            ingest_lines_as_paragraphs(max_tokens, overlap, min_tokens),
                        )
                    if args.wiki_sections:
                        ours[f"ingest-wiki-{max_tokens}-o{overlap}-m{min_tokens}"] = (
                            f"experiment: ingest {max_tokens}, overlap {overlap}, min {min_tokens}, wiki sections + embed_text",
                            ingest_wiki_sections(max_tokens, overlap, min_tokens),
                        )

    questions = load_questions()
    started = time.strftime("%Y-%m-%d %H:%M %Z")
    results = {}
    for name, (label, chunker) in {**baselines, **ours}.items():
        results[name] = {"label": label, **evaluate(chunker, questions, count)}

    best_recall = max(results[b]["recall"] for b in baselines)
    best_iou = max(results[b]["iou"] for b in baselines)
    print(
        f"# retrieval_eval {started}: {len(questions)} questions, BM25Okapi over lowercased \\w+ words, "
        f"k = {K}; all chunks of {', '.join(CORPORA)} in one index\n"
    )
    print(
        "| chunker | chunks | tokens mean (p10/p50/p90, max) | <64 tok | chars mean | retrieved chars mean "
        "| stored x | refs in 2+ chunks / missed | recall | precision | IoU | against the best baseline |"
    )
    print("|" + " --- |" * 12)
    for name, r in results.items():
        t = r["tokens"]
        beats = (
            "-"
            if name in baselines
            else (
                "YES"
                if r["recall"] > best_recall and r["iou"] > best_iou
                else f"recall {r['recall'] - best_recall:+.3f}, IoU {r['iou'] - best_iou:+.4f}"
            )
        )
        ref = f" (issue: {REFERENCE[name][0]:.3f} / {REFERENCE[name][1]:.3f})" if name in REFERENCE else ""
        print(
            f"| {r['label']}{ref} | {r['chunks']} | {t['mean']:.0f} ({t['p10']}/{t['p50']}/{t['p90']}, {t['max']}) "
            f"| {t['under_64']} | {r['chars_mean']:.0f} | {r['retrieved_chars_mean']:.0f} | {r['stored_x']:.2f} | {r['refs_cut']} / {r['refs_missed']} | {r['recall']:.3f} | {r['precision']:.4f} | {r['iou']:.4f} | {beats} |"
        )
    print(
        f"\nrefs in 2+ chunks / missed: of the {results[next(iter(results))]['refs']} reference passages, how "
        "many two or more chunks touch (cut at a boundary, or repeated by overlap), and how many no retrieved "
        "chunk touches at all (a ranking miss)"
    )
    print(
        f"best baseline recall {best_recall:.3f}, best baseline IoU {best_iou:.4f}; "
        "the last column is the difference to those"
    )
    print("\n| chunker | " + " | ".join(f"{c} recall / IoU (chunks)" for c in CORPORA) + " |")
    print("|" + " --- |" * (len(CORPORA) + 1))
    for r in results.values():
        cells = [
            f"{r['by_corpus'][c]['recall']:.3f} / {r['by_corpus'][c]['iou']:.4f} ({r['by_corpus'][c]['chunks']})"
            for c in CORPORA
        ]
        print(f"| {r['label']} | " + " | ".join(cells) + " |")
    if args.json:
        args.json.write_text(json.dumps({"date": started, "results": results}, indent=1))


if __name__ == "__main__":
    main()
