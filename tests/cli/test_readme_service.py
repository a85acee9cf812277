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
    assert {"0", "1", "2", "3", "4", "130, 143"} == set(rows)
    assert (cli.SOME_FAILED, cli.BAD_INPUT, cli.RUN_FAILED, cli.LOCKED) == (1, 2, 3, 4)
    assert "some documents failed" in rows["1"] and "another run holds the state" in rows["4"]


def test_service_commands_use_real_options():
    help_text = subprocess.run([sys.executable, "-m", "ingest", "run", "--help"], capture_output=True, text=True).stdout
    used = set(re.findall(r"ingest run \S+((?: --[a-z-]+(?: [^\s-][^\s]*)?)*)", section()))
    options = {o for group in used for o in re.findall(r"--[a-z-]+", group)}
    assert {"--wait", "--summary-json", "--log-format"} <= options
    assert all(o in help_text for o in options), options
    assert "SuccessExitStatus=1" in section() and "[ $rc -eq 4 ]" in section()
