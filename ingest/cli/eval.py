"""`ingest eval QUESTIONS.jsonl`: hit rate, MRR and what a token budget holds, on the questions a
team's users ask, with every miss listed. Misses are results, not failures: the exit code is
non-zero only for bad input (a bad line, a missing index, a bad flag)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

from ..search.evaluate import SCOPES, Outcome, Report, evaluate, report_json
from ..search.hybrid import MODES
from ..terminal_text import shown
from .file_args import written_file
from .filters import filter_options, filters_from

BAD_INPUT = 2  # as cli.BAD_INPUT, which imports this module


@click.command("eval")
@click.argument("questions", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--index", default="out/index.sqlite", show_default=True, type=click.Path(path_type=Path))
@click.option(
    "-k",
    "--k",
    "k",
    default=5,
    show_default=True,
    type=click.IntRange(1, 100),
    help="Hit rate and MRR over this many chunks.",
)
@click.option(
    "--budget",
    default=1000,
    show_default=True,
    type=click.IntRange(1),
    help="Evidence, answers and pages over the chunks that fit in this many tokens (the last one cut).",
)
@click.option(
    "--mode",
    type=click.Choice(MODES),
    default="bm25",
    show_default=True,
    help="How search ranks: bm25 (words), vector (meaning; an index built with `embedder:`) or hybrid.",
)
@click.option(
    "--scope",
    type=click.Choice(SCOPES),
    default="all",
    show_default=True,
    help="all: search the whole index for every question; doc: a question naming a document "
    "searches that document only, in place of --doc (the chunks measured apart from finding "
    "the document).",
)
@written_file("--json", "json_out", help="Also write the figures and every question's outcome to this file as JSON.")
@filter_options
def eval_cmd(
    questions: Path, index: Path, k: int, budget: int, mode: str, scope: str, json_out: Path | None, **filter_flags
) -> None:
    """Search the index with each question of QUESTIONS (JSON Lines) and score what comes back.

    A line: {"question": "...", "doc": "handbook.pdf", "heading": "Leave > Parental", "page": 12,
    "answer": "16 weeks", "evidence": "..."}; question and at least one of the others."""
    report = evaluate(
        questions, index, k=k, budget=budget, mode=mode, filters=filters_from(**filter_flags), scope=scope
    )
    err = Console(stderr=True, soft_wrap=True, highlight=False)
    for bad in report.bad_lines:
        err.print(f"[red]error:[/red] {escape(shown(f'{questions}:{bad.line}: {bad.message}'))}")
    show(report, Console(highlight=False, soft_wrap=True))
    if json_out is not None:
        json_out.write_text(json.dumps(report_json(report), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        err.print(f"wrote {escape(str(json_out))}")
    if report.bad_lines or not report.outcomes:
        if not report.outcomes:
            err.print(f"[red]error:[/red] {escape(str(questions))}: no questions to evaluate")
        sys.exit(BAD_INPUT)


def show(report: Report, out: Console) -> None:
    f = report.figures
    out.print(
        f"{len(report.outcomes)} questions from {escape(str(report.questions_file))} against "
        f"{escape(str(report.index))} ({escape(report.mode)}, k={report.k}, budget {report.budget} tokens"
        f"{', each in its own document' if report.scope == 'doc' else ''})"
    )
    if not report.outcomes:
        return
    hits = sum(o.hit for o in report.outcomes)
    rows = [
        (f"hit rate @{report.k}", f["hit_rate"], f"{hits}/{len(report.outcomes)}"),
        (f"MRR @{report.k}", f["mrr"], ""),
        ("evidence recall", f["evidence_recall"], "questions with evidence, within the budget"),
        ("answer found", f["answer_found"], "questions with an answer, within the budget"),
        ("page hit", f["page_hit"], "questions with pages, within the budget"),
    ]
    for label, figure, note in rows:
        if figure["questions"]:
            more = note if not note or "/" in note else f"{figure['questions']} {note}"
            out.print(f"  {label:<17}{figure['value']:.3f}  {escape(more)}".rstrip())
    misses = [(o, why) for o in report.outcomes if (why := missed(o, report))]
    out.print(f"\nmisses: {len(misses)}" if misses else "\nno misses")
    for o, why in misses:
        q = o.question
        named = "" if q.id == f"line {q.line}" else f" {escape(shown(q.id))}"
        out.print(f"\n[bold]line {q.line}[/bold]{named} {escape(shown(json.dumps(q.question, ensure_ascii=False)))}")
        out.print(f"  missed: {escape('; '.join(why))}")
        for key, value in q.expected().items():
            out.print(f"  expected {key}: {escape(shown(_short(value)))}")
        for r in o.returned:
            pages = (
                ""
                if r.page_start is None
                else f" p.{r.page_start}" + (f"-{r.page_end}" if r.page_end not in (None, r.page_start) else "")
            )
            mark = "*" if r.relevant else " "
            out.print(f"  {mark}{r.rank}. {escape(shown(r.citation))}{pages}")
        if not o.returned:
            out.print("  (search returned nothing)")


def missed(o: Outcome, report: Report) -> list[str]:
    """Why a question counts as missed; [] when it does not."""
    why = []
    if not o.hit:
        why.append(f"no relevant chunk in the top {report.k}")
    if o.answer_found is False:
        why.append(f"answer not within {report.budget} tokens")
    if o.evidence_recall is not None and o.evidence_recall < 0.5:
        why.append(f"evidence recall {o.evidence_recall:.2f} within {report.budget} tokens")
    if o.page_hit is False:
        why.append(f"no expected page within {report.budget} tokens")
    return why


def _short(value: object, limit: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"
