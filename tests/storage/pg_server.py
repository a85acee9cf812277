"""A real PostgreSQL server with pgvector, for the tests of the pgvector sink.

The server binaries come from the `pgserver` wheel (PostgreSQL 16 with pgvector, from PyPI, in
the dev extra); this helper runs them itself rather than through pgserver's Python wrapper, which
would add a system user when run as root. One server per test session: initdb and start take
about a second; each test gets its own schema in one shared database (a database is ~300 files to
create and delete), or its own database where it must refuse connections to it.

PostgreSQL refuses to run as root. Under root (CI containers) the server runs as `nobody`, from a
copy of the binaries in the temporary folder when the checkout sits in a folder `nobody` cannot
enter.
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_START_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class PgServer:
    port: int
    process: subprocess.Popen
    admin_dsn: str

    def dsn(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.admin_dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)


@dataclass(frozen=True)
class PgPlace:
    """Where one test's tables go: a database and a schema of its own."""

    dsn: str
    schema: str

    def options(self, **more: object) -> dict:
        """The pgvector sink's options for this place, as a job's `sink: {pgvector: ...}` holds them."""
        return {"dsn": self.dsn, "schema_name": self.schema, **more}

    def table(self, name: str) -> str:
        return f'"{self.schema}"."{name}"'


def install_dir() -> Path:
    spec = importlib.util.find_spec("pgserver")  # found, not imported: its module sets up lock files
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the pgserver package (PostgreSQL + pgvector binaries) is missing: pip install -e '.[test]'")
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_server() -> Iterator[PgServer]:
    """Start a server on 127.0.0.1 at a free port in a temporary data folder; stop and remove it after."""
    root = Path(tempfile.mkdtemp(prefix="ingest-pg-"))
    user = _run_as()
    try:
        install = install_dir()
        if user is not None:
            root.chmod(0o755)
            if not _runs(install, user):  # `nobody` cannot reach the checkout: it runs a copy it can
                install = _copy(install, root / "site")
        data, sockets = root / "data", root / "sock"
        for folder in (data, sockets):
            folder.mkdir(mode=0o700)
            if user is not None:
                os.chown(folder, user.pw_uid, user.pw_gid)
        subprocess.run(
            [
                str(install / "bin" / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
            **_as(user),
        )
        port = free_port()
        log = (root / "server.log").open("wb")
        process = subprocess.Popen(
            [
                str(install / "bin" / "postgres"),
                "-D",
                str(data),
                "-p",
                str(port),
                "-k",
                str(sockets),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "max_connections=50",
                # A crash here is the client's, never the machine's: skip fsync, which on a disk shared
                # with other builds makes CREATE DATABASE and the shutdown checkpoint take seconds.
                "-c",
                "fsync=off",
                "-c",
                "full_page_writes=off",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            **_as(user),
        )
        server = PgServer(port, process, f"postgresql://postgres@127.0.0.1:{port}/postgres")
        try:
            _wait_ready(server, root / "server.log")
            yield server
        finally:
            process.send_signal(signal.SIGINT)  # "fast" shutdown: ends sessions, checkpoints, exits
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _runs(install: Path, user: pwd.struct_passwd) -> bool:
    try:
        return (
            subprocess.run(
                [str(install / "bin" / "postgres"), "--version"], capture_output=True, **_as(user)
            ).returncode
            == 0
        )
    except OSError:
        return False


def _copy(install: Path, site: Path) -> Path:
    """The install (but its C headers) and the shared libraries its binaries find at
    $ORIGIN/../../../pgserver.libs."""
    package = install.parent
    shutil.copytree(package.parent / "pgserver.libs", site / "pgserver.libs", symlinks=True)
    target = site / package.name / install.name
    for part in ("bin", "lib", "share"):
        shutil.copytree(install / part, target / part, symlinks=True)
    return target


def _run_as() -> pwd.struct_passwd | None:
    return pwd.getpwnam("nobody") if os.geteuid() == 0 else None


def _as(user: pwd.struct_passwd | None) -> dict:
    return {} if user is None else {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}


def _wait_ready(server: PgServer, log: Path) -> None:
    import psycopg

    deadline = time.monotonic() + _START_TIMEOUT_S
    while True:
        if server.process.poll() is not None:
            raise RuntimeError(f"postgres exited with {server.process.returncode}:\n{log.read_text(errors='replace')}")
        try:
            psycopg.connect(server.admin_dsn, connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"postgres did not start in {_START_TIMEOUT_S:.0f} s:\n{log.read_text(errors='replace')}"
                ) from None
            time.sleep(0.05)
