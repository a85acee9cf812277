"""Google's error answers in both shapes, back-off, the shared rate gate, DNS failures, and what a
run does with a document it could not fetch: through the real google-api-python-client against
the fake server (tests/drive/fake_google/), the real pipeline and SQLite."""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC

import pytest
from googleapiclient.errors import HttpError

from ingest.errors import LoaderError, SourceError
from ingest.runner.pipeline import run
from ingest.sources.drive_auth import credentials
from ingest.sources.drive_calls import GoogleCalls, RateGate
from ingest.sources.drive_errors import read_refusal
from tests.drive.helpers import MD, drive_config, md, texts


@pytest.fixture
def tree(fake_google, corpus):
    g = fake_google
    ids = {"top": g.add_folder("Company")}
    ids["leave"] = g.add_file("leave.md", ids["top"], md("Leave", "Twenty days of paid leave."), MD)
    gdoc = json.loads((corpus / "encoda_gdoc" / "__fixtures__" / "test-fixture-1.gdoc").read_text(encoding="utf-8"))
    ids["travel"] = g.add_google_doc("Travel", ids["top"], gdoc)
    return g, ids


@pytest.fixture
def sleeps(monkeypatch):
    """Every back-off, recorded (seconds, thread name) instead of slept."""
    slept: list[tuple[float, str]] = []
    monkeypatch.setattr(time, "sleep", lambda s: slept.append((s, threading.current_thread().name)))
    return slept


def refusal_of(g, status: int, **fault):
    """What `read_refusal` makes of the fault, as the real client raised it: from the Docs API
    for AIP-193 answers, else from Drive v3 (whose answers carry `errors[]`)."""
    from google.oauth2.credentials import Credentials
    from googleapiclient.discovery import build

    creds = Credentials(token=g.token)
    if "error_info" in fault:
        g.fail("/documents/", status, **fault)
        request = (
            build(
                "docs", "v1", credentials=creds, static_discovery=True, client_options={"api_endpoint": g.docs_endpoint}
            )
            .documents()
            .get(documentId="x")
        )
    else:
        g.fail("/files/x", status, **fault)
        request = (
            build(
                "drive",
                "v3",
                credentials=creds,
                static_discovery=True,
                client_options={"api_endpoint": g.drive_endpoint},
            )
            .files()
            .get(fileId="x")
        )
    with pytest.raises(HttpError) as caught:
        request.execute(num_retries=0)
    return read_refusal(caught.value)


def test_both_error_shapes_are_read(fake_google):
    g = fake_google
    aip = refusal_of(g, 403, error_info="RATE_LIMIT_EXCEEDED", retry_after="7")
    assert aip.kind == "rate_limit" and aip.retry_after == 7.0
    assert "RATE_LIMIT_EXCEEDED" in aip.reasons and "PERMISSION_DENIED" in aip.reasons
    assert "Quota exceeded" in aip.message
    exhausted = refusal_of(g, 429, error_info="RATE_LIMIT_EXCEEDED")
    assert exhausted.kind == "rate_limit" and "RESOURCE_EXHAUSTED" in exhausted.reasons
    v3 = refusal_of(g, 403, reason="userRateLimitExceeded")
    assert v3.kind == "rate_limit" and v3.retry_after is None
    verdict = refusal_of(g, 403, reason="cannotDownloadFile")
    assert verdict.kind == "refused" and isinstance(verdict.error("f"), LoaderError)
    assert isinstance(refusal_of(g, 503).error("f"), SourceError)


def test_an_aip_193_rate_limit_is_retried_after_what_retry_after_asks(tmp_path, tree, sleeps):
    g, ids = tree
    g.fail(r"/documents/", 403, error_info="RATE_LIMIT_EXCEEDED", retry_after="3", times=2)
    summary = run(*drive_config(tmp_path, g, ids["top"]))
    assert summary.ok, summary.failures
    assert "Braeburn" in texts(tmp_path)[ids["travel"]]
    assert sum(1 for s, _ in sleeps if s >= 3) >= 2  # each refusal waited at least its Retry-After
    assert len([p for _, p in g.requests if "/documents/" in p]) == 3


def test_a_rate_limit_that_outlasts_the_retries_is_tried_again_next_run_without_an_edit(tmp_path, tree, sleeps):
    g, ids = tree
    assert run(*drive_config(tmp_path, g, ids["top"])).ok
    g.update(ids["leave"], content=md("Leave", "Thirty days of paid leave."))
    g.fail(r"/files/" + ids["leave"] + r"\?.*alt=media", 429, error_info="RATE_LIMIT_EXCEEDED", times=3)
    held = run(*drive_config(tmp_path, g, ids["top"], retries=2))
    (failure,) = held.failures
    assert failure.doc_id == ids["leave"] and failure.retry and "429" in failure.error
    assert "Twenty days" in texts(tmp_path)[ids["leave"]]  # the old chunks stay meanwhile
    again = run(*drive_config(tmp_path, g, ids["top"], retries=2))  # nothing edited since
    assert again.ok and again.changed == 1 and "Thirty days" in texts(tmp_path)[ids["leave"]]


def test_a_rate_limit_closes_the_gate_for_every_thread(tmp_path, tree, sleeps):
    g, ids = tree
    config = drive_config(tmp_path, g, ids["top"])[0].source.drive
    calls = GoogleCalls(config, credentials(config))
    g.fail(r"/files/" + ids["leave"], 429, retry_after="60")

    def get(file_id: str) -> None:
        calls.call(calls.files().get(fileId=file_id, fields="id"), file_id)

    first = threading.Thread(target=get, args=(ids["leave"],), name="first")
    first.start(), first.join()
    second = threading.Thread(target=get, args=(ids["travel"],), name="second")  # never refused itself
    second.start(), second.join()
    waited = {name: s for s, name in sleeps}
    assert waited["first"] >= 59 and waited["second"] >= 59 and calls.gate.holds == 1


def test_the_gate_waits_out_the_longest_hold():
    now = [100.0]
    slept: list[float] = []
    gate = RateGate(clock=lambda: now[0], sleep=slept.append)
    assert gate.wait() == 0 and slept == []
    gate.hold(5)
    gate.hold(2)  # a shorter hold does not shorten the first
    assert gate.wait() == 5
    now[0] += 5
    assert gate.wait() == 0 and slept == [5]


def test_a_dns_failure_at_sign_in_says_dns_not_refused_credentials(tmp_path, tree, sleeps):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    g, ids = tree
    pem = (
        rsa.generate_private_key(public_exponent=65537, key_size=2048)
        .private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        .decode()
    )
    key = tmp_path / "key.json"
    key.write_text(
        json.dumps(
            {
                "type": "service_account",
                "project_id": "p",
                "private_key_id": "k",
                "private_key": pem,
                "client_email": "indexer@p.iam.gserviceaccount.com",
                "client_id": "1",
                "token_uri": "http://oauth2.invalid/token",
            }
        )
    )
    cfg, steps, options = drive_config(tmp_path, g, ids["top"], retries=1)
    drive = cfg.source.drive.model_copy(update={"token": None, "credentials": key})
    summary = run(cfg.model_copy(update={"source": cfg.source.model_copy(update={"drive": drive})}), steps, options)
    (failure,) = summary.failures
    assert "DNS lookup failed" in failure.error and "refused" not in failure.error
    assert "sign-in" in failure.error and failure.retry


def test_an_unresolvable_endpoint_is_said_to_be_a_dns_failure(tmp_path, tree, sleeps):
    g, ids = tree
    offline = drive_config(tmp_path, g, ids["top"], retries=0, drive_endpoint="http://drive.invalid/drive/v3/")
    summary = run(*offline)
    (failure,) = summary.failures
    assert "DNS lookup failed" in failure.error and "drive.invalid" in failure.error and failure.retry


def test_retry_after_in_seconds_or_as_an_http_date():
    from datetime import datetime, timedelta
    from email.utils import format_datetime

    from ingest.sources.drive_errors import retry_after

    assert retry_after("30") == 30.0 and retry_after(None) is None and retry_after("soon") is None
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=120), usegmt=True)
    assert 100 < retry_after(later) <= 120
    assert retry_after(format_datetime(datetime(2000, 1, 1, tzinfo=UTC), usegmt=True)) == 0.0
