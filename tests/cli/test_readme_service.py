"""README's "Running it as a service" stays true: its exit codes are the CLI's, and the commands
in its systemd unit and cron line use options `ingest run` has."""

from __future__ import annotations

import re
import subprocess
import sys

from ingest import cli
from tests.paths import ROOT


def section() -> str:
    text = (ROOT / "README.md").read_text()
    return text[text.index("## Running it as a service") : text.index("## The Python API")]


def test_exit_code_table_matches_the_cli():
    rows = dict(re.findall(r"^\| ([\d, ]+) \| (.+) \|$", section(), re.M))
    assert {"0", "1", "2", "3", "4", "5", "6", "130, 143"} == set(rows)
    codes = (cli.SOME_FAILED, cli.BAD_INPUT, cli.RUN_FAILED, cli.LOCKED, cli.SOURCE_UNREACHABLE, cli.CLUSTER_LOST)
    assert codes == (1, 2, 3, 4, 5, 6)
    assert "Ray cluster" in rows["6"]
    assert "some documents failed" in rows["1"] and "another run holds the state" in rows["4"]
    assert "could not be listed" in rows["5"]


def test_service_commands_use_real_options():
    help_text = subprocess.run([sys.executable, "-m", "ingest", "run", "--help"], capture_output=True, text=True).stdout
    used = set(re.findall(r"ingest run \S+((?: --[a-z-]+(?: [^\s-][^\s]*)?)*)", section()))
    options = {o for group in used for o in re.findall(r"--[a-z-]+", group)}
    assert {"--wait", "--summary-json", "--log-format"} <= options
    assert all(o in help_text for o in options), options
    assert "SuccessExitStatus=1" in section() and "[ $rc -eq 4 ]" in section()


def test_the_service_and_cron_line_treat_an_unreachable_source_as_a_failure():
    """systemd counts as success only 0 and SuccessExitStatus; the cron line mails for any code its
    test does not let through. Code 5 (the source could not be listed) must be neither."""
    text = section()
    allowed = {int(c) for c in re.findall(r"^SuccessExitStatus=([\d ]+)$", text, re.M)[0].split()}
    assert cli.SOURCE_UNREACHABLE not in allowed and cli.SOME_FAILED in allowed
    cron = next(line for line in text.splitlines() if line.startswith("*/15 "))
    test = cron.split("rc=$?;", 1)[1].split("|| echo", 1)[0]
    for rc, mails in ((0, False), (1, False), (4, False), (cli.SOURCE_UNREACHABLE, True), (cli.RUN_FAILED, True)):
        done = subprocess.run(["sh", "-c", f"rc={rc}; {test} || echo mail"], capture_output=True, text=True)
        assert (done.stdout.strip() == "mail") == mails, (rc, test)
