"""Metadata filters on a real index: each narrows what search answers from, they combine, and
bad values are refused naming the flag or field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest.errors import ConfigError
from ingest.runner.pipeline import run
from ingest.search.bm25 import search
from ingest.search.filters import Filters
from tests.drive.helpers import MD, drive_config, md
from tests.retrieval.examples_index import build, ingest

# One word or more from every example document, so an unfiltered search returns chunks of all six.
QUERY = "delivery orders returns pricing fever ibuprofen travel flights allowances incident certificate budget headcount release export"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("filters"))


def found(index: Path, filters: Filters | None = None, query: str = QUERY) -> set[tuple[str, tuple[str, ...]]]:
    return {(h.chunk.doc_id, h.chunk.heading_path) for h in search(index, query, k=100, window=0, filters=filters)}


def docs(hits: set) -> set[str]:
    return {doc for doc, _ in hits}


ALL = {
    "travel-policy.docx",
    "incident-review.pdf",
    "planning.xlsx",
    "release-notes.txt",
    "paediatric-fever.md",
    "handbook/delivery.md",
}


def test_unfiltered_search_reaches_every_document(index: Path) -> None:
    assert docs(found(index)) == ALL
    assert found(index, Filters()) == found(index)


def test_documents_by_id_name_or_uri(index: Path) -> None:
    everything = found(index)
    by_id = found(index, Filters(docs="handbook/delivery.md"))
    assert docs(by_id) == {"handbook/delivery.md"}
    assert by_id == {h for h in everything if h[0] == "handbook/delivery.md"} and len(by_id) > 1
    assert found(index, Filters(docs=["delivery.md"])) == by_id  # its name
    uri = (index.parent / "docs" / "handbook" / "delivery.md").resolve().as_uri()
    assert found(index, Filters(docs=(uri,))) == by_id
    assert docs(found(index, Filters(docs=("travel-policy.docx", "planning.xlsx")))) == {
        "travel-policy.docx",
        "planning.xlsx",
    }
    assert found(index, Filters(docs="delivery")) == by_id  # its name without the extension
    assert found(index, Filters(docs="deliver")) == found(index, Filters(docs="delivery.m")) == set()  # no part of one


def test_path_prefix_in_the_source_or_of_the_uri(index: Path) -> None:
    assert docs(found(index, Filters(paths="handbook/"))) == {"handbook/delivery.md"}
    assert docs(found(index, Filters(paths="p"))) == {"paediatric-fever.md", "planning.xlsx"}
    folder = (index.parent / "docs").resolve().as_uri()
    assert docs(found(index, Filters(paths=folder + "/handbook/"))) == {"handbook/delivery.md"}
    assert docs(found(index, Filters(paths=folder + "/"))) == ALL
    assert found(index, Filters(paths="handbook_/")) == set()  # `_` is a character, not LIKE's wildcard


def test_heading_prefix_with_or_without_the_title_by_whole_entries(index: Path) -> None:
    under = found(index, Filters(heading="Delivery"))
    # since #25 "Delivery"'s short introduction opens "Connecticut"'s chunk and "Returns", a
    # heading with no body of its own, travels in the text of the next section's chunk
    assert {path for _, path in under} == {
        ("Operations Manual", "Delivery", "Connecticut"),
        ("Operations Manual", "Delivery", "Setext headings work too"),
    }
    assert ("handbook/delivery.md", ("Operations Manual", "Pricing")) in found(index)  # a sibling section, left out
    assert found(index, Filters(heading="Operations Manual > Delivery")) == under
    assert found(index, Filters(heading=("operations manual", "DELIVERY"))) == under  # letter case ignored
    assert found(index, Filters(heading="delivery > connecticut")) == {
        ("handbook/delivery.md", ("Operations Manual", "Delivery", "Connecticut"))
    }
    assert found(index, Filters(heading="Deliver")) == set()  # whole entries, not the start of one
    assert found(index, Filters(heading="Connecticut")) == set()  # under the title at most, not anywhere
    assert docs(found(index, Filters(heading="Paediatric fever"))) == {"paediatric-fever.md"}


def test_mime_types(index: Path) -> None:
    assert docs(found(index, Filters(mime_types="application/pdf"))) == {"incident-review.pdf"}
    assert docs(found(index, Filters(mime_types="Application/PDF"))) == {"incident-review.pdf"}
    assert docs(found(index, Filters(mime_types=("text/markdown", "text/plain")))) == {
        "paediatric-fever.md",
        "handbook/delivery.md",
        "release-notes.txt",
    }


def test_modified_after_and_before_a_moment(index: Path) -> None:
    assert docs(found(index, Filters(modified_after="2025-01-01"))) == {
        "release-notes.txt",
        "paediatric-fever.md",
        "handbook/delivery.md",
    }
    assert docs(found(index, Filters(modified_before="2024-03-03T09:00:00Z"))) == {"travel-policy.docx"}
    assert docs(found(index, Filters(modified_after="2024-03-03T09:00:00Z", modified_before="2025-01-10"))) == {
        "incident-review.pdf",
        "planning.xlsx",
    }  # after is inclusive
    # 23:30 UTC on 30 June is 1 July in Berlin (+02:00): offsets are compared as moments.
    assert docs(found(index, Filters(modified_after="2025-07-01T00:00:00+02:00"))) == {
        "paediatric-fever.md",
        "handbook/delivery.md",
    }
    assert docs(found(index, Filters(modified_after="2025-07-01"))) == {"handbook/delivery.md"}


def test_filters_combine_with_and(index: Path) -> None:
    markdown = Filters(mime_types="text/markdown")
    recent = Filters(modified_after="2025-07-01")
    both = Filters(mime_types="text/markdown", modified_after="2025-07-01", heading="Delivery > Connecticut")
    assert docs(found(index, markdown)) == {"paediatric-fever.md", "handbook/delivery.md"}
    assert docs(found(index, recent)) == {"handbook/delivery.md"}
    assert found(index, both) == {("handbook/delivery.md", ("Operations Manual", "Delivery", "Connecticut"))}
    assert found(index, Filters(mime_types="application/pdf", paths="handbook/")) == set()


def test_values_are_bound_never_read_as_sql(index: Path) -> None:
    for hostile in ("x' OR 1=1 --", '") OR 1=1 --', "%", "*"):
        assert found(index, Filters(docs=hostile, paths=hostile, heading=hostile, mime_types=hostile)) == set()


def test_bad_filter_values_name_the_field() -> None:
    with pytest.raises(ConfigError, match=r"filters\.modified_after: 'last week' is not a date or time"):
        Filters(modified_after="last week")
    with pytest.raises(ConfigError, match=r"filters\.mime_types: expected text or a list of texts, got \[3\]"):
        Filters(mime_types=[3])
    with pytest.raises(ConfigError, match="nothing could match"):
        Filters(modified_after="2025-01-01", modified_before="2024-01-01")
    assert Filters(docs="a.md").docs == ("a.md",) and not Filters(docs=" ", heading=" > ")


def test_search_flags(index: Path) -> None:
    def cited(*flags: str) -> list[str]:
        proc = ingest("search", QUERY, "--index", index, "-k", "100", "--window", "0", "--json", *flags)
        assert proc.returncode == 0, proc.stderr
        return [json.loads(line)["chunk"]["doc_id"] for line in proc.stdout.splitlines()]

    assert set(cited()) == ALL
    assert set(cited("--type", "pdf")) == {"incident-review.pdf"}
    assert set(cited("--type", "md", "--type", "txt")) == {
        "paediatric-fever.md",
        "handbook/delivery.md",
        "release-notes.txt",
    }
    assert set(cited("--doc", "planning.xlsx", "--doc", "travel-policy.docx")) == {
        "planning.xlsx",
        "travel-policy.docx",
    }
    assert set(cited("--modified-after", "2025-01-01", "--modified-before", "2025-07-01")) == {
        "release-notes.txt",
        "paediatric-fever.md",
    }
    assert cited("--heading", "Delivery > Connecticut") == ["handbook/delivery.md"]
    # A folder on disk is also its file uri: the run over docs/ stored handbook/delivery.md.
    assert set(cited("--path", str(index.parent / "docs" / "handbook"))) == {"handbook/delivery.md"}
    assert set(cited("--path", "handbook/", "--type", "pdf")) == set()


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (
            ("--modified-after", "2024-02-30"),
            "Invalid value for '--modified-after': '2024-02-30' is not a date or time",
        ),
        (("--modified-before", "soon"), "Invalid value for '--modified-before': 'soon' is not a date or time"),
        (
            ("--modified-after", "2025-01-01", "--modified-before", "2024-01-01"),
            "--modified-after 2025-01-01 00:00:00 is not before",
        ),
        (("--type", "banana"), "Invalid value for --type: 'banana' is not a MIME type"),
        (("--heading", " > "), "Invalid value for --heading: give a heading path"),
    ],
)
def test_bad_flags_name_the_flag_and_the_value(index: Path, flags: tuple[str, ...], message: str) -> None:
    proc = ingest("search", "delivery", "--index", index, *flags)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert proc.stdout == ""


def test_a_drive_files_path_is_its_folder_path(tmp_path: Path, fake_google) -> None:
    g = fake_google
    top = g.add_folder("Company", None)
    hr, ops = g.add_folder("HR", top), g.add_folder("Ops", top)
    leave = g.add_file("leave.md", hr, md("Leave", "Holiday requests go to your manager."), MD)
    g.add_file("rota.md", ops, md("Rota", "Holiday cover is agreed a month ahead."), MD)
    summary = run(*drive_config(tmp_path, g, top))
    assert summary.ok, summary.failures
    index = tmp_path / "index.sqlite"

    def names(filters: Filters | None) -> set[str]:
        return {h.chunk.source.name for h in search(index, "holiday", k=10, filters=filters)}

    assert names(None) == {"leave.md", "rota.md"}
    assert names(Filters(paths="HR/")) == {"leave.md"}
    assert names(Filters(paths=("Ops/", "HR/leave"))) == {"leave.md", "rota.md"}
    assert names(Filters(paths="Company/")) == set()  # paths start under the synced folder, as a run names them
    assert names(Filters(docs=leave)) == {"leave.md"}  # the Drive file id
    assert names(Filters(paths="https://")) == {"leave.md", "rota.md"}  # the uri: its webViewLink
    # Drive's own times ("2024-01-02T00:00:00.001Z", the fake's clock) compare as moments too.
    assert names(Filters(modified_after="2024-01-02")) == {"leave.md", "rota.md"}
    assert names(Filters(modified_before="2024-01-02")) == set()
