"""`ingest eval`: a team's own questions against its index, so max_tokens and cleaners are tuned on
the questions its users ask rather than on a benchmark's.

Each line of the questions file is a JSON object: `question`, and any of `doc` (a document's name,
file stem, id or uri), `heading` (a heading path prefix, as `Filters.heading`), `page` (one or
several), `answer` (text an answer must contain) and `evidence` (passages that answer it).

A retrieved chunk is *relevant* when it meets everything its question expects: from the document,
under the heading, on one of the pages, holding the answer's words in order, and holding at least
half of the evidence. Over the top `k` chunks: hit rate (a relevant chunk among them) and MRR (1 /
the rank of the first, 0 without one). Over a token budget, as `../shared/ragbench/tools/rag_eval.py`
scores it: chunks in rank order until `budget` cl100k tokens are spent, the last one cut to what is
left; evidence recall (the evidence's tokens lying in a word 3-gram of it found in one chunk, over
all its passages), answer found (the answer's words in order inside one chunk) and page hit (a chunk
whose pages meet an expected one; a cut chunk counts with its first page). In the budget only chunks
of the expected document count. What a chunk offers is what an answer generator would read: its
heading path and text (`embed_text`), counted in tokens as the index is searched.
"""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePath
from typing import Any

from pydantic import ValidationError, field_validator

from ..blocks import Chunk
from ..chunker.tokens import get_tokenizer
from ..errors import ConfigError
from ..options import StrictOptions
from ..sinks.sqlite import connect_index
from .api import search
from .bm25 import Hit, SearchError
from .filters import Filters, heading_prefix

NGRAM = 3
"""Words in a shingle of evidence: as rag_eval.py's default."""
BUDGET_TOKENIZER = "cl100k_base"
_FETCH = 20
"""Chunks asked of search at first; more are asked for while the budget is not spent."""


class QuestionLine(StrictOptions):
    """One line of a questions file, as the user writes it."""

    question: str
    id: str | int | None = None
    doc: str | None = None
    heading: tuple[str, ...] = ()
    page: tuple[int, ...] = ()
    answer: str | None = None
    evidence: tuple[str, ...] = ()

    @field_validator("heading", mode="before")
    @classmethod
    def _path(cls, value: Any) -> Any:
        try:
            return heading_prefix(value) if isinstance(value, (str, list, tuple)) else value
        except TypeError:
            return value  # pydantic says what is wrong with it

    @field_validator("page", "evidence", mode="before")
    @classmethod
    def _one_or_more(cls, value: Any) -> Any:
        return [value] if isinstance(value, (str, int)) else value

    @field_validator("page")
    @classmethod
    def _pages(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if any(p < 1 for p in value):
            raise ValueError("pages are counted from 1")
        return value


@dataclass(frozen=True, slots=True)
class Question:
    line: int
    """Its line in the file, from 1."""
    id: str
    """As given, else "line N"."""
    question: str
    doc: str | None = None
    heading: tuple[str, ...] = ()
    pages: tuple[int, ...] = ()
    answer: str | None = None
    evidence: tuple[str, ...] = ()

    def expected(self) -> dict[str, Any]:
        """What it expects, as given."""
        found = {
            "doc": self.doc,
            "heading": " > ".join(self.heading) or None,
            "pages": list(self.pages) or None,
            "answer": self.answer,
            "evidence": list(self.evidence) or None,
        }
        return {key: value for key, value in found.items() if value}


@dataclass(frozen=True, slots=True)
class BadLine:
    line: int
    message: str


@dataclass(frozen=True, slots=True)
class Returned:
    """One chunk search returned, as a miss lists it."""

    rank: int
    citation: str
    doc_id: str
    heading_path: tuple[str, ...]
    page_start: int | None
    page_end: int | None
    relevant: bool


@dataclass(frozen=True, slots=True)
class Outcome:
    question: Question
    rank: int | None
    """Rank of the first relevant chunk in the top k, from 1; None: none there."""
    returned: tuple[Returned, ...]
    """The top k."""
    evidence_recall: float | None
    """Within the budget; None without evidence."""
    answer_found: bool | None
    page_hit: bool | None
    budget_chunks: int
    budget_tokens: int

    @property
    def hit(self) -> bool:
        return self.rank is not None


@dataclass(frozen=True, slots=True)
class Report:
    questions_file: Path
    index: Path
    k: int
    budget: int
    mode: str
    outcomes: tuple[Outcome, ...]
    bad_lines: tuple[BadLine, ...] = ()
    figures: dict[str, Any] = field(default_factory=dict)
    """hit_rate, mrr, evidence_recall, answer_found, page_hit, with how many questions each is over."""
    scope: str = "all"


def read_questions(path: Path) -> tuple[list[Question], list[BadLine]]:
    """The questions of a JSON Lines file, and each line that is not one, with why; blank lines
    are skipped. An unreadable file is an error: nothing could be evaluated."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise ConfigError(f"cannot read the questions ({why})", subject=str(path)) from exc
    questions: list[Question] = []
    bad: list[BadLine] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            questions.append(_question(number, line))
        except ValueError as exc:
            bad.append(BadLine(number, str(exc)))
    return questions, bad


def _question(number: int, line: str) -> Question:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(data, dict):
        raise ValueError(f'expected an object such as {{"question": "...", "doc": "..."}}, got {type(data).__name__}')
    try:
        q = QuestionLine.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"])
        if err["type"] == "extra_forbidden":
            raise ValueError(f"{key!r} is not a question field (use {', '.join(QuestionLine.model_fields)})") from None
        raise ValueError(f"{key}: {err['msg']}") from None
    if not q.question.strip():
        raise ValueError("question is empty")
    if not (q.doc or q.heading or q.page or q.answer or q.evidence):
        raise ValueError("expects nothing to check: give doc, heading, page, answer or evidence")
    named = f"line {number}" if q.id is None else str(q.id)
    return Question(
        number, named, q.question.strip(), q.doc, q.heading, q.page, q.answer, tuple(e for e in q.evidence if e.strip())
    )


SCOPES = ("all", "doc")
"""all: every question searches the whole index, as users do; doc: a question naming a document
searches only that document (rag_eval.py's default), which measures the chunks apart from finding
the document."""


def evaluate(
    questions_file: Path,
    index: Path,
    *,
    k: int = 5,
    budget: int = 1000,
    mode: str = "bm25",
    filters: Filters | None = None,
    scope: str = "all",
) -> Report:
    """Search `index` with every question of `questions_file` and score what comes back."""
    if k < 1 or budget < 1:
        raise ConfigError(f"k and budget must be at least 1 (got k={k}, budget={budget})")
    if scope not in SCOPES:
        raise ConfigError(f"unknown scope {scope!r}; choose one of {', '.join(SCOPES)}", subject="scope")
    questions, bad = read_questions(questions_file)
    counter = get_tokenizer(BUDGET_TOKENIZER)
    documents = _documents(Path(index)) if scope == "doc" and questions else None
    outcomes = tuple(
        _outcome(q, index, k, budget, mode, filters if documents is None else _scoped(filters, q, documents), counter)
        for q in questions
    )
    return Report(Path(questions_file), Path(index), k, budget, mode, outcomes, tuple(bad), figures(outcomes), scope)


def _documents(index: Path) -> list[tuple[str, str, str]]:
    """(id, name, uri) of every document in the index."""
    conn = connect_index(index, create=False)
    try:
        return conn.execute("SELECT id, name, uri FROM documents").fetchall()
    except sqlite3.Error as exc:
        raise SearchError(f"cannot list the index's documents ({exc})", index) from exc
    finally:
        conn.close()


def _scoped(filters: Filters | None, q: Question, documents: list[tuple[str, str, str]]) -> Filters | None:
    """`filters` with the question's document in place of their `docs`, by id. When no document
    has that name, the name as given: `Filters.docs` matches less than `names_doc`, so nothing."""
    if q.doc is None:
        return filters
    ids = tuple(id_ for id_, name, uri in documents if names_doc(q.doc, id_, name, uri)) or (q.doc,)
    return replace(filters or Filters(), docs=ids)


def _outcome(q: Question, index: Path, k: int, budget: int, mode: str, filters: Filters | None, counter) -> Outcome:
    ranked = _ranked(q.question, index, k, budget, mode, filters, counter)
    relevant = [_relevant(q, hit.chunk) for hit in ranked[:k]]
    rank = next((i for i, yes in enumerate(relevant, 1) if yes), None)
    returned = tuple(
        Returned(
            i, hit.citation, hit.chunk.doc_id, hit.chunk.heading_path, hit.chunk.page_start, hit.chunk.page_end, yes
        )
        for i, (hit, yes) in enumerate(zip(ranked, relevant), 1)
    )
    cut = list(_budget_cut(ranked, budget, counter))
    mine = [(read, pages) for chunk, read, pages, _ in cut if q.doc is None or _is_doc(chunk, q.doc)]
    recall = _recall(q.evidence, [read for read, _ in mine]) if q.evidence else None
    answer = words(q.answer) if q.answer else None
    found = any(_has_run(read, answer) for read, _ in mine) if answer else None
    page_hit = any(_meets(pages, q.pages) for _, pages in mine) if q.pages else None
    return Outcome(q, rank, returned, recall, found, page_hit, len(cut), sum(tokens for *_, tokens in cut))


def _ranked(query: str, index: Path, k: int, budget: int, mode: str, filters: Filters | None, counter) -> list[Hit]:
    """Enough of the ranking for the top k and for the budget (or all there is)."""
    fetch = max(k, _FETCH)
    while True:
        hits = search(index, query, k=fetch, window=0, mode=mode, filters=filters)
        if len(hits) < fetch or sum(counter.count(h.chunk.embed_text) for h in hits) >= budget:
            return hits
        fetch *= 4


Pages = tuple[int | None, int | None]


def _budget_cut(ranked: list[Hit], budget: int, counter) -> Iterable[tuple[Chunk, list[str], Pages, int]]:
    """(chunk, its words read, its pages, tokens read) in rank order until `budget` is spent."""
    left = budget
    for hit in ranked:
        if left <= 0:
            return
        read = hit.chunk.embed_text
        tokens = counter.count(read)
        if tokens <= left:
            yield hit.chunk, words(read), (hit.chunk.page_start, hit.chunk.page_end), tokens
            left -= tokens
        else:  # the last one, cut: its first page is all that can be said to be read
            yield hit.chunk, words(read[: counter.cut(read, left)]), (hit.chunk.page_start, hit.chunk.page_start), left
            left = 0


def _relevant(q: Question, chunk: Chunk) -> bool:
    if q.doc is not None and not _is_doc(chunk, q.doc):
        return False
    if q.heading and not heading_under(chunk.heading_path, q.heading):
        return False
    if q.pages and not _meets((chunk.page_start, chunk.page_end), q.pages):
        return False
    read = words(chunk.embed_text)
    if q.answer and not _has_run(read, words(q.answer)):
        return False
    return not q.evidence or _recall(q.evidence, [read]) >= 0.5


def _is_doc(chunk: Chunk, doc: str) -> bool:
    return names_doc(doc, chunk.doc_id, chunk.source.name, chunk.source.uri)


def names_doc(doc: str, doc_id: str, name: str, uri: str) -> bool:
    """`doc` names the document: its id, its uri, its name or its name without the extension
    (names without letter case)."""
    return doc in (doc_id, uri) or doc.casefold() in (name.casefold(), PurePath(name).stem.casefold())


def heading_under(path: tuple[str, ...], prefix: tuple[str, ...]) -> bool:
    """`path` starts with `prefix`, from its first entry or under its first (the title); case ignored."""
    folded = [p.casefold() for p in path]
    want = [p.casefold() for p in prefix]
    return any(folded[skip : skip + len(want)] == want for skip in (0, 1))


def _meets(pages: Pages, wanted: tuple[int, ...]) -> bool:
    start, end = pages
    if start is None:
        return False
    return any(start <= p <= (end if end is not None else start) for p in wanted)


# Normalisation as rag_eval.py's: NFKC, lower case, thousands separators dropped ("1,577" ->
# "1577"), words = runs of letters and digits.
_THOUSANDS = re.compile(r"(?<=\d),(?=\d)")
_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    return _WORD.findall(_THOUSANDS.sub("", unicodedata.normalize("NFKC", text).lower()))


def _has_run(tokens: list[str], run: list[str]) -> bool:
    n = len(run)
    return n > 0 and any(tokens[i : i + n] == run for i in range(len(tokens) - n + 1))


def _recall(evidence: tuple[str, ...], chunks: list[list[str]]) -> float:
    """Share of the evidence's words found, all passages together (token-weighted)."""
    passages = [words(e) for e in evidence]
    total = sum(len(p) for p in passages)
    return sum(_covered(p, chunks) for p in passages) / total if total else 0.0


def _covered(evidence: list[str], chunks: list[list[str]]) -> int:
    """Evidence words lying inside an n-gram of the evidence that occurs in one chunk; evidence
    shorter than n counts only whole, inside one chunk."""
    if len(evidence) < NGRAM:
        return len(evidence) if any(_has_run(c, evidence) for c in chunks) else 0
    shingles = [set(zip(*(c[i:] for i in range(NGRAM)))) for c in chunks]
    hit = [False] * len(evidence)
    for j in range(len(evidence) - NGRAM + 1):
        if any(tuple(evidence[j : j + NGRAM]) in s for s in shingles):
            hit[j : j + NGRAM] = [True] * NGRAM
    return sum(hit)


def figures(outcomes: Iterable[Outcome]) -> dict[str, Any]:
    """The means, each with the number of questions it is over (a question counts where it applies)."""
    outcomes = list(outcomes)

    def mean(values: list[float]) -> dict[str, Any]:
        return {"value": round(sum(values) / len(values), 4) if values else None, "questions": len(values)}

    return {
        "hit_rate": mean([1.0 if o.hit else 0.0 for o in outcomes]),
        "mrr": mean([1.0 / o.rank if o.rank else 0.0 for o in outcomes]),
        "evidence_recall": mean([o.evidence_recall for o in outcomes if o.evidence_recall is not None]),
        "answer_found": mean([1.0 if o.answer_found else 0.0 for o in outcomes if o.answer_found is not None]),
        "page_hit": mean([1.0 if o.page_hit else 0.0 for o in outcomes if o.page_hit is not None]),
    }


def report_json(report: Report) -> dict[str, Any]:
    """The report as JSON data: settings, figures, bad lines, and every question's outcome."""
    return {
        "questions_file": str(report.questions_file),
        "index": str(report.index),
        "settings": {
            "k": report.k,
            "budget": report.budget,
            "mode": report.mode,
            "scope": report.scope,
            "ngram": NGRAM,
            "tokenizer": BUDGET_TOKENIZER,
        },
        "questions": len(report.outcomes),
        "figures": report.figures,
        "bad_lines": [{"line": b.line, "error": b.message} for b in report.bad_lines],
        "results": [_outcome_json(o) for o in report.outcomes],
    }


def _outcome_json(o: Outcome) -> dict[str, Any]:
    return {
        "line": o.question.line,
        "id": o.question.id,
        "question": o.question.question,
        "expected": o.question.expected(),
        "hit": o.hit,
        "rank": o.rank,
        "evidence_recall": None if o.evidence_recall is None else round(o.evidence_recall, 4),
        "answer_found": o.answer_found,
        "page_hit": o.page_hit,
        "budget": {"chunks": o.budget_chunks, "tokens": o.budget_tokens},
        "returned": [
            {
                "rank": r.rank,
                "citation": r.citation,
                "doc_id": r.doc_id,
                "heading_path": list(r.heading_path),
                "page_start": r.page_start,
                "page_end": r.page_end,
                "relevant": r.relevant,
            }
            for r in o.returned
        ],
    }
