"""Try the Drive job without Google: serve the fake Drive on 127.0.0.1 with a local folder's files
in it, kept in step with the folder, and write the `ingest run` config that syncs it.

    python -m tests.drive.fake_google --from tests/fixtures --config out/fake-drive.yaml
    ingest run out/fake-drive.yaml          # in a second terminal; again after editing the folder

Every file under `--from` (but Python sources and caches) becomes a Drive file in a folder tree of
the same shape, under one top folder. The folder is read again every `--poll` seconds: a new file is
added, a changed one updated (a new revision), a removed one deleted, each one entry of Drive's
changes feed, so the next `ingest run` reads only those. Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ingest.loaders import mime_type_of

from .server import FakeGoogle

LEFT_OUT = (".py", ".pyc")
"""Suffixes not mirrored: the fixtures folder holds the scripts that made its files."""


@dataclass
class Mirror:
    """A local folder's files as Drive files under one top folder of the fake, by relative path."""

    fake: FakeGoogle
    root: Path
    top: str
    folders: dict[Path, str] = field(default_factory=dict)
    files: dict[Path, tuple[str, int, int]] = field(default_factory=dict)  # id, mtime_ns, size

    def sync(self) -> list[str]:
        """Apply what changed in the folder since the last call; one line per change."""
        seen = {p.relative_to(self.root): p.stat() for p in self._paths()}
        changes = []
        for rel, st in seen.items():
            known = self.files.get(rel)
            if known is None:
                parent = self._folder(rel.parent)
                file_id = self.fake.add_file(rel.name, parent, (self.root / rel).read_bytes(), mime_type_of(rel))
                changes.append(f"added   {rel}")
            elif (known[1], known[2]) != (st.st_mtime_ns, st.st_size):
                file_id = known[0]
                self.fake.update(file_id, content=(self.root / rel).read_bytes())
                changes.append(f"updated {rel}")
            else:
                continue
            self.files[rel] = (file_id, st.st_mtime_ns, st.st_size)
        for rel in [r for r in self.files if r not in seen]:
            self.fake.delete(self.files.pop(rel)[0])
            changes.append(f"deleted {rel}")
        return changes

    def _paths(self) -> list[Path]:
        return sorted(
            p
            for p in self.root.rglob("*")
            if p.is_file() and p.suffix not in LEFT_OUT and "__pycache__" not in p.parts and not p.name.startswith(".")
        )

    def _folder(self, rel: Path) -> str:
        if rel == Path("."):
            return self.top
        if rel not in self.folders:
            self.folders[rel] = self.fake.add_folder(rel.name, self._folder(rel.parent))
        return self.folders[rel]


def job_config(fake: FakeGoogle, folder_id: str, out: Path) -> dict:
    """The `ingest run` config that syncs the fake's folder into `out`."""
    return {
        "source": {
            "drive": {
                "folder_id": folder_id,
                "token": fake.token,
                "drive_endpoint": fake.drive_endpoint,
                "docs_endpoint": fake.docs_endpoint,
                "sheets_endpoint": fake.docs_endpoint,
            }
        },
        "sink": {"sqlite": str(out / "fake-drive.sqlite")},
        "state": str(out / "fake-drive-state.sqlite"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.drive.fake_google", description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="source", type=Path, default=Path("tests/fixtures"), help="the folder to serve")
    parser.add_argument("--config", type=Path, default=Path("out/fake-drive.yaml"), help="where to write the job")
    parser.add_argument("--port", type=int, default=0, help="the port on 127.0.0.1 (default: a free one)")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between reads of the folder")
    args = parser.parse_args(argv)
    if not args.source.is_dir():
        parser.error(f"--from {args.source}: no such folder")
    fake = FakeGoogle().start(args.port)
    mirror = Mirror(fake, args.source.resolve(), fake.add_folder(args.source.resolve().name))
    added = mirror.sync()
    args.config.parent.mkdir(parents=True, exist_ok=True)
    job = job_config(fake, mirror.top, args.config.parent.resolve())
    args.config.write_text(
        "# Written by python -m tests.drive.fake_google: the fake Drive it serves, while it runs.\n"
        + yaml.safe_dump(job, sort_keys=False)
    )
    print(f"fake Google Drive on {fake.base_url}: {len(added)} files from {args.source} in folder {mirror.top}")
    print(f"sync it with:  ingest run {args.config}   (edit {args.source} and run it again; Ctrl-C stops)")
    sys.stdout.flush()
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    try:
        while not stop:
            time.sleep(args.poll)
            for line in mirror.sync():
                print(line, flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        fake.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
