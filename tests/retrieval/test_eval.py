"""`ingest eval` on a tiny real index whose rankings are plain from the text (one term, more often
in one chunk than another), so every figure below is worked out by hand from the documents."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.chunker.tokens import encoding
from ingest.search.evaluate import NGRAM, _covered, _recall, evaluate, read_questions, words
from tests.retrieval.examples_index import EXAMPLES, build, ingest

ALPHA = """# Alpha

## Zebra care

Zebras need 12 kg of hay a day. Zebra stripes help zebra herds confuse biting flies.

## Feeding schedule

Morning hay is served at 07:00 and evening hay at 18:00. Each zebra gets extra salt in summer.
"""
BETA = """# Beta

## Penguins

Penguins are fed 2 kg of herring twice a day, at the pool's edge.
"""
ZEBRA_CARE = "Zebra care\n\nZebras need 12 kg of hay a day. Zebra stripes help zebra herds confuse biting flies."


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """alpha.md (two sections), beta.md (one) and the two-page incident-review.pdf, indexed by a run."""
    where = tmp_path_factory.mktemp("eval")
    docs = where / "docs"
    docs.mkdir()
    (docs / "alpha.md").write_text(ALPHA)
    (docs / "beta.md").write_text(BETA)
    shutil.copy(EXAMPLES / "incident-review.pdf", docs)
    proc = ingest("run", docs, "--index", where / "index.sqlite", "--quiet", "--log-format", "text")
    assert proc.returncode == 0, proc.stderr
    return where / "index.sqlite"


def questions(tmp_path: Path, *lines: object) -> Path:
    path = tmp_path / "questions.jsonl"
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n")
    return path


QUESTIONS = [
    # "zebra": Zebra care says it three times (and in its heading), Feeding schedule once: ranks 1 and 2.
    {"id": "q1", "question": "zebra stripes", "doc": "alpha.md", "heading": "Zebra care"},  # rank 1
    {"id": "q2", "question": "zebra", "heading": "Feeding schedule"},  # rank 2
    {"id": "q3", "question": "penguin herring", "doc": "alpha", "answer": "2 kg of herring"},  # beta's: miss
    {"id": "q4", "question": "xylophone", "doc": "beta.md"},  # nothing matches: miss
    {
        "id": "q5",
        "question": "certificates renewed expiry",
        "doc": "incident-review",
        "page": 2,
        "answer": "30 days before expiry",
    },  # Actions, page 2: rank 1
    # Relevant needs both: Summary is on page 1 without the answer, Actions has it on page 2.
    {"id": "q6", "question": "certificates renewed expiry", "page": [1], "answer": "renewed 30 days"},
    {"id": "q7", "question": "penguin herring", "answer": "2 kg of herring"},  # any document: rank 1
    {"id": "q8", "question": "zebra", "doc": "alpha.md", "evidence": "Zebras need 12 kg of hay a day."},  # rank 1
]


def test_figures_at_k_and_within_the_budget(tiny: Path, tmp_path: Path) -> None:
    report = evaluate(questions(tmp_path, *QUESTIONS), tiny, k=2, budget=1000)
    ranks = {o.question.id: o.rank for o in report.outcomes}
    assert ranks == {"q1": 1, "q2": 2, "q3": None, "q4": None, "q5": 1, "q6": None, "q7": 1, "q8": 1}
    f = report.figures
    assert f["hit_rate"] == {"value": 0.625, "questions": 8}  # 5 of 8
    assert f["mrr"] == {"value": 0.5625, "questions": 8}  # (1 + 1/2 + 0 + 0 + 1 + 0 + 1 + 1) / 8
    # q3: the answer is only in beta.md, and q3 expects alpha; q5, q6, q7 find theirs.
    assert f["answer_found"] == {"value": 0.75, "questions": 4}
    assert f["page_hit"] == {"value": 1.0, "questions": 2}  # q6: Summary on page 1 is within the budget
    assert f["evidence_recall"] == {"value": 1.0, "questions": 1}
    assert report.bad_lines == ()

    q6 = next(o for o in report.outcomes if o.question.id == "q6")
    assert [(r.heading_path[-1], r.page_start, r.relevant) for r in q6.returned] == [
        ("Actions", 2, False),
        ("Summary", 1, False),
    ]
    q2 = next(o for o in report.outcomes if o.question.id == "q2")
    assert [r.relevant for r in q2.returned] == [False, True]
    q4 = next(o for o in report.outcomes if o.question.id == "q4")
    assert q4.returned == () and q4.budget_chunks == 0 and q4.budget_tokens == 0
    # Every chunk fits: what was read is the two zebra chunks, heading path and text, in full.
    q8 = next(o for o in report.outcomes if o.question.id == "q8")
    assert q8.budget_chunks == 2


def test_the_budget_cuts_the_last_chunk_and_recall_counts_shingles(tiny: Path, tmp_path: Path) -> None:
    enc = encoding("cl100k_base")
    ids = enc.encode_ordinary(ZEBRA_CARE)
    upto = next(n for n in range(len(ids)) if enc.decode(ids[:n]).endswith("Zebras need 12"))
    path = questions(
        tmp_path,
        {"question": "zebra", "doc": "alpha.md", "evidence": "Zebras need 12 kg of hay a day."},
        {"question": "zebra", "doc": "alpha.md", "answer": "12 kg"},
    )
    report = evaluate(path, tiny, k=5, budget=upto)
    evidence, answer = report.outcomes
    # Read: "zebra care zebras need 12" (embed_text: the title, the path root, is left out); of the 8 evidence words, the 3-gram "zebras need 12".
    assert evidence.evidence_recall == 3 / 8
    assert (evidence.budget_chunks, evidence.budget_tokens) == (1, upto)
    assert answer.answer_found is False and answer.hit  # the top k holds it; the budget cut it off
    whole = evaluate(path, tiny, k=5, budget=len(ids))
    assert whole.outcomes[0].evidence_recall == 1.0 and whole.outcomes[1].answer_found is True
    assert whole.outcomes[0].budget_chunks == 1  # the budget spent exactly: no piece of the next


def test_evidence_across_two_chunks_counts_both(tiny: Path, tmp_path: Path) -> None:
    passage = "Zebra stripes help zebra herds confuse biting flies. Morning hay is served at 07:00."
    path = questions(tmp_path, {"question": "zebra", "evidence": passage})
    [both] = evaluate(path, tiny, budget=1000).outcomes
    assert both.evidence_recall == 1.0  # 8 words in one chunk, 7 in the other
    # Relevant: a chunk holding half of the evidence or more: Zebra care's 8 of 15, not the other's 7.
    assert [(r.heading_path[-1], r.relevant) for r in both.returned] == [
        ("Zebra care", True),
        ("Feeding schedule", False),
    ]
    assert len(words(passage)) == 15


def test_words_are_normalised_as_rag_eval_does() -> None:
    assert words("Revenue of $1,577 million (ﬁscal 2023)") == ["revenue", "of", "1577", "million", "fiscal", "2023"]
    assert words("under_score, 3.5") == ["under", "score", "3", "5"]


def test_bad_lines_are_named_by_number_and_the_rest_is_scored(tmp_path: Path, tiny: Path) -> None:
    path = questions(
        tmp_path,
        {"question": "zebra stripes", "doc": "alpha.md"},  # 1: good
        "",  # 2: blank, skipped
        '{"question": "zebra", "doc": ',  # 3
        '["zebra"]',  # 4
        {"question": "zebra", "heading_path": "Zebra care"},  # 5
        {"question": "zebra", "page": "two"},  # 6
        {"doc": "alpha.md"},  # 7
        {"question": "zebra"},  # 8
        {"question": "zebra", "page": 0},  # 9
        {"question": "  ", "doc": "alpha.md"},  # 10
        {"question": "zebra", "heading": "Feeding schedule"},  # 11: good
    )
    parsed, bad = read_questions(path)
    assert [q.line for q in parsed] == [1, 11]
    assert [(b.line, b.message) for b in bad] == [
        (3, "not JSON (Expecting value at column 30)"),
        (4, 'expected an object such as {"question": "...", "doc": "..."}, got list'),
        (5, "'heading_path' is not a question field (use question, id, doc, heading, page, answer, evidence)"),
        (6, "page.0: Input should be a valid integer, unable to parse string as an integer"),
        (7, "question: Field required"),
        (8, "expects nothing to check: give doc, heading, page, answer or evidence"),
        (9, "page: Value error, pages are counted from 1"),
        (10, "question is empty"),
    ]

    proc = ingest("eval", path, "--index", tiny, "-k", "2")
    assert proc.returncode == 2  # bad input, though the good lines were scored
    assert f"error: {path}:3: not JSON" in proc.stderr and f"error: {path}:10: question is empty" in proc.stderr
    assert "2 questions from" in proc.stdout
    assert "hit rate @2      1.000  2/2" in proc.stdout
    assert "MRR @2           0.750" in proc.stdout  # line 1 first, line 11 second: (1 + 1/2) / 2


def test_eval_command_lists_misses_and_writes_json(tiny: Path, tmp_path: Path) -> None:
    path = questions(tmp_path, *QUESTIONS)
    out = tmp_path / "report.json"
    proc = ingest("eval", path, "--index", tiny, "--k", "2", "--budget", "1000", "--json", out)
    assert proc.returncode == 0, proc.stderr  # misses are results, not errors
    assert "8 questions from" in proc.stdout and "(bm25, k=2, budget 1000 tokens)" in proc.stdout
    assert "hit rate @2      0.625  5/8" in proc.stdout
    assert "misses: 3" in proc.stdout
    q3 = proc.stdout.split("line 3 q3")[1].split("\nline ")[0]
    assert "missed: no relevant chunk in the top 2; answer not within 1000 tokens" in q3
    assert "expected doc: alpha" in q3 and "expected answer: 2 kg of herring" in q3
    assert "1. beta.md > Penguins" in q3
    assert "line 4 q4" in proc.stdout and "(search returned nothing)" in proc.stdout

    data = json.loads(out.read_text())
    assert data["settings"] == {
        "k": 2,
        "budget": 1000,
        "mode": "bm25",
        "scope": "all",
        "ngram": 3,
        "tokenizer": "cl100k_base",
    }
    assert data["figures"]["mrr"] == {"value": 0.5625, "questions": 8}
    assert [r["id"] for r in data["results"] if not r["hit"]] == ["q3", "q4", "q6"]
    q5 = next(r for r in data["results"] if r["id"] == "q5")
    assert q5["expected"] == {"doc": "incident-review", "pages": [2], "answer": "30 days before expiry"}
    assert q5["returned"][0]["heading_path"][-1] == "Actions" and q5["returned"][0]["relevant"]


def test_eval_takes_the_search_filters(tiny: Path, tmp_path: Path) -> None:
    path = questions(tmp_path, {"question": "zebra", "heading": "Feeding schedule"})
    assert evaluate(path, tiny, k=1).outcomes[0].rank is None
    proc = ingest("eval", path, "--index", tiny, "-k", "1", "--heading", "Alpha > Feeding schedule")
    assert proc.returncode == 0 and "hit rate @1      1.000  1/1" in proc.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--mode", "fuzzy"), "Invalid value for '--mode'"),
        (("--budget", "0"), "Invalid value for '--budget'"),
        (("--index", "nowhere.sqlite"), "run `ingest run` first"),
    ],
)
def test_bad_input_is_exit_code_2(tiny: Path, tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    path = questions(tmp_path, {"question": "zebra", "doc": "alpha.md"})
    proc = ingest("eval", path, *(("--index", tiny) if "--index" not in args else ()), *args, cwd=tmp_path)
    assert proc.returncode == 2
    assert message in proc.stderr


def test_the_example_questions_on_the_default_job(tmp_path: Path) -> None:
    """questions/examples.jsonl over the index README's default job builds: every question but one
    names words of its section; the one in a user's own words (Advil, chicken pox for ibuprofen,
    chickenpox) is the miss it is there to show."""
    index = build(tmp_path)
    proc = ingest(
        "eval", EXAMPLES.parent / "questions" / "examples.jsonl", "--index", index, "--json", tmp_path / "r.json"
    )
    assert proc.returncode == 0, proc.stderr
    results = json.loads((tmp_path / "r.json").read_text())["results"]
    assert len(results) == 12
    assert [r["id"] for r in results if not r["hit"]] == ["advil-chickenpox"]
    assert "misses: 1" in proc.stdout and "line 3 advil-chickenpox" in proc.stdout


@pytest.fixture(scope="module")
def rag_eval(corpus: Path):
    """The shared benchmark's scorer, whose definitions `ingest eval` follows."""
    spec = importlib.util.spec_from_file_location("rag_eval", corpus.parent / "ragbench" / "tools" / "rag_eval.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_words_and_recall_agree_with_rag_eval_on_financebench_evidence(rag_eval, corpus: Path) -> None:
    records = [json.loads(line) for line in (corpus.parent / "ragbench" / "financebench" / "questions.jsonl").open()]
    passages = [e["text"] for r in records for e in r["evidence"]]
    assert len(passages) > 50
    for text in passages:
        assert words(text) == rag_eval.words(text)
    # Each passage against pieces of the passage before it and of itself (a chunk border inside it).
    for before, text in zip(passages, passages[1:]):
        mine, other = words(text), words(before)
        chunks = [mine[: len(mine) // 3], other + mine[len(mine) // 3 : len(mine) // 2]]
        grams = [rag_eval.grams(c, NGRAM) for c in chunks]
        assert _recall((text,), chunks) == rag_eval.covered(mine, grams, NGRAM) / max(1, len(mine))


@settings(max_examples=300, deadline=None)
@given(
    evidence=st.lists(st.sampled_from("abcd"), max_size=12),
    chunks=st.lists(st.lists(st.sampled_from("abcd"), max_size=15), max_size=3),
)
def test_shingle_cover_is_rag_evals(rag_eval, evidence: list[str], chunks: list[list[str]]) -> None:
    grams = [rag_eval.grams(c, NGRAM) for c in chunks]
    assert _covered(evidence, chunks) == rag_eval.covered(evidence, grams, NGRAM)


def test_scope_doc_searches_each_question_in_its_own_document(tiny: Path, tmp_path: Path) -> None:
    # "penguin herring" finds only beta.md's chunk; asked of alpha (by its stem) it finds nothing there.
    path = questions(
        tmp_path,
        {"id": "a", "question": "penguin herring zebra", "doc": "ALPHA", "answer": "extra salt"},
        {"id": "b", "question": "zebra", "doc": "nowhere.md"},
        {"id": "c", "question": "zebra", "heading": "Feeding schedule"},
    )
    everywhere = {o.question.id: o for o in evaluate(path, tiny, k=1).outcomes}
    assert [r.doc_id for r in everywhere["a"].returned] == ["beta.md"] and everywhere["a"].rank is None
    own = {o.question.id: o for o in evaluate(path, tiny, k=1, scope="doc").outcomes}
    # Within alpha.md: "zebra" ranks Zebra care first; Feeding schedule (the salt) is second, so the
    # answer is found within the budget but no relevant chunk is in the top 1.
    assert [r.heading_path[-1] for r in own["a"].returned] == ["Zebra care"] and own["a"].answer_found is True
    assert own["b"].returned == () and own["b"].rank is None  # a document the index does not hold
    assert own["c"].rank == everywhere["c"].rank is None  # no doc named: the whole index, as before
    proc = ingest("eval", path, "--index", tiny, "--scope", "doc", "--doc", "beta.md", "-k", "1")
    assert proc.returncode == 0 and "each in its own document" in proc.stdout
    assert "1. alpha.md > Zebra care" in proc.stdout.split("line 1 a")[1]  # its doc in place of --doc
