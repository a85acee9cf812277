"""The metadata filter flags of `ingest search` (and `ingest eval`), checked at the edge: a bad value
is an error naming its flag."""

from __future__ import annotations

from pathlib import Path

import click

from ..blocks import CARD, FIGURE
from ..errors import ConfigError
from ..loaders import mime_type_of
from ..search.filters import Filters, heading_prefix, moment


class _Moment(click.ParamType):
    """An ISO-8601 date or date-time."""

    name = "date"

    def convert(self, value, param, ctx):
        try:
            return moment(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


def filter_options(f):
    """Adds --doc, --path, --heading, --type, --modified-after, --modified-before and --no-cards."""
    options = (
        click.option(
            "--doc",
            "docs",
            multiple=True,
            metavar="ID|NAME|URI",
            help="Only this document (its id, uri, name, or name without extension). Repeatable.",
        ),
        click.option(
            "--path",
            "paths",
            multiple=True,
            metavar="PREFIX",
            help="Only documents under this path in the source (handbook/), or whose uri starts so. Repeatable.",
        ),
        click.option(
            "--heading",
            default=None,
            metavar="'A > B'",
            help="Only chunks under this heading path (the document title may be left out).",
        ),
        click.option(
            "--type",
            "types",
            multiple=True,
            metavar="TYPE",
            help="Only this format: a MIME type or a file extension (pdf, docx, md). Repeatable.",
        ),
        click.option(
            "--modified-after",
            type=_Moment(),
            default=None,
            metavar="DATE",
            help="Only documents modified at or after it (2024-03-01, 2024-03-01T09:30Z).",
        ),
        click.option(
            "--modified-before", type=_Moment(), default=None, metavar="DATE", help="Only documents modified before it."
        ),
        click.option(
            "--cards/--no-cards",
            default=True,
            help="Answer from the documents' cards too (title, properties, headers, footers, stamps)  [default: cards]",
        ),
        click.option(
            "--figures/--no-figures",
            default=True,
            help="Answer from figures' text too (a chart's labels with its caption)  [default: figures]",
        ),
    )
    for option in reversed(options):
        f = option(f)
    return f


def filters_from(
    docs: tuple[str, ...],
    paths: tuple[str, ...],
    heading: str | None,
    types: tuple[str, ...],
    modified_after,
    modified_before,
    cards: bool = True,
    figures: bool = True,
) -> Filters | None:
    """The `Filters` the flags ask for; None when none was given."""
    if modified_after and modified_before and modified_after >= modified_before:
        raise click.BadParameter(
            f"--modified-after {modified_after:%Y-%m-%d %H:%M:%S} is not before --modified-before "
            f"{modified_before:%Y-%m-%d %H:%M:%S}: no document could match",
            param_hint="--modified-after/--modified-before",
        )
    try:
        filters = Filters(
            docs=docs,
            paths=tuple(p for given in paths for p in _path_forms(given)),
            heading=heading_prefix(heading) if heading else (),
            mime_types=tuple(_mime_type(t) for t in types),
            modified_after=modified_after,
            modified_before=modified_before,
            exclude_kinds=(() if cards else (CARD,)) + (() if figures else (FIGURE,)),
        )
    except ConfigError as exc:  # say it with the flag's name, not the library's field
        raise click.BadParameter(str(exc).split(": ", 1)[-1], param_hint="--heading") from None
    if heading is not None and not filters.heading:
        raise click.BadParameter("give a heading path such as 'Policies > Travel'", param_hint="--heading")
    return filters or None


def _path_forms(given: str) -> tuple[str, ...]:
    """The prefix as typed and, when it names a local file or folder, its file uri: so
    `--path examples/handbook` finds what a run over `examples` stored as `handbook/...`."""
    local = Path(given).expanduser()
    if not local.exists():
        return (given,)
    uri = local.resolve().as_uri()
    return (given, uri + "/" if local.is_dir() else uri)


def _mime_type(given: str) -> str:
    text = given.strip().lower()
    if "/" in text:
        return text
    found = mime_type_of("x." + text.lstrip("."))
    if found == "application/octet-stream":
        raise click.BadParameter(
            f"{given!r} is not a MIME type (application/pdf) or a known file extension (pdf, docx, xlsx, md, txt)",
            param_hint="--type",
        )
    return found
