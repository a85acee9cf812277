"""A local folder tree, filtered by include/exclude globs.

Folders other people fill hold more than documents: only regular files are read (a FIFO would
hang the run, a link to /dev/zero would eat memory), links out of the folder are not followed
unless `follow_symlinks` is on (whoever can write in the folder could otherwise pull any file the
sync user can read into the index), and dangling links and loops are reported as skipped. A file
name that is not valid UTF-8 is indexed under an id with its bad bytes escaped (`caf\\xe9.md`).
"""

from __future__ import annotations

import errno
import os
import stat as stat_mode
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from ..blocks import Document
from ..errors import LoaderError, SourceError, SourceUnreachable
from ..loaders import local_document, mime_type_of
from . import Item, Sync
from .globs import Globs
from .local_options import LocalSourceConfig

_MB = 1024 * 1024


class LocalSource:
    concurrency = 1  # a local read is a file read: threads would only add overhead

    def __init__(self, config: LocalSourceConfig) -> None:
        self.root = config.path.resolve()
        self.globs = Globs.of(config.include, config.exclude)
        self.hidden = config.include_hidden
        self.follow = config.follow_symlinks
        self.max_bytes = int(config.max_file_mb * _MB)
        self.key = f"local:{self.root}"
        self.errors: list[SourceError] = []
        """Folders the last listing could not read; the run reports them and deletes nothing."""
        self._paths: dict[str, Path] = {}
        """Ids that are not the path as written (escaped bytes), to the path they stand for."""
        if not self.root.is_dir():
            raise SourceUnreachable(
                "is not a folder (missing, or not mounted); check source.local.path", subject=str(config.path)
            )

    def sync(self, cursor: str | None) -> Sync:
        """A folder has no change feed: every run lists it; size and mtime say what changed."""
        return Sync(self.items(), complete=True)

    def items(self) -> Iterator[Item]:
        """Matching files in a stable order; ids are paths relative to the root."""
        self.errors.clear()
        visited: set[tuple[int, int]] = set()  # folders walked, by device and inode: a linked loop ends
        for dirpath, dirnames, filenames in os.walk(self.root, onerror=self._walk_error, followlinks=self.follow):
            try:
                st = os.stat(dirpath)
                visited.add((st.st_dev, st.st_ino))
            except OSError:
                pass
            here = Path(dirpath).relative_to(self.root).as_posix()
            kept = []
            for d in sorted(dirnames):
                rel = d if here == "." else f"{here}/{d}"
                if (not self.hidden and d.startswith(".")) or self.globs.excludes_folder(rel):
                    continue
                skip = self._folder_problem(Path(dirpath, d), visited)
                if skip:
                    yield self._skipped(rel, d, skip)
                else:
                    kept.append(d)
            dirnames[:] = kept
            for filename in sorted(filenames):
                if not self.hidden and filename.startswith("."):
                    continue
                path = Path(dirpath, filename)
                rel = path.relative_to(self.root).as_posix()
                if not self.globs.wanted(rel):
                    continue
                try:
                    found, skip = self._file_stat(path)
                except FileNotFoundError:
                    continue  # vanished between listing and stat: it is not there
                if found is None:
                    yield self._skipped(rel, filename, skip)
                    continue
                doc_id, name = _escaped(rel), _escaped(filename)
                if doc_id != rel:
                    self._paths[doc_id] = path
                yield Item(doc_id, name, mime_type_of(path), f"{found.st_size}:{found.st_mtime_ns}")

    def read(self, item: Item) -> bytes:
        path = self._paths.get(item.doc_id, self.root / item.doc_id)
        try:
            if not self.follow:
                target = path.resolve(strict=True)
                if not target.is_relative_to(self.root):  # replaced by an outside link since the listing
                    raise SourceError("links outside the source folder (follow_symlinks is off)", subject=item.doc_id)
                path = target
            mode = path.stat().st_mode
            if not stat_mode.S_ISREG(mode):
                raise SourceError(
                    f"cannot read: not a regular file ({_kind(mode)}); only regular files are read", subject=item.doc_id
                )
            # Non-blocking, so a file swapped for a FIFO since the check above cannot hang the run.
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError as exc:
            raise SourceError(f"cannot read: {exc.strerror}", subject=item.doc_id) from exc
        with os.fdopen(fd, "rb") as handle:
            st = os.fstat(handle.fileno())
            if not stat_mode.S_ISREG(st.st_mode):
                raise SourceError(f"cannot read: not a regular file ({_kind(st.st_mode)})", subject=item.doc_id)
            if st.st_size > self.max_bytes:
                raise LoaderError(
                    f"is {st.st_size / _MB:.0f} MB, over the limit of {self.max_bytes / _MB:g} MB "
                    "(source.local.max_file_mb); it was not read",
                    subject=item.doc_id,
                )
            try:
                return handle.read(self.max_bytes + 1)  # a file growing past the limit stops here
            except OSError as exc:
                raise SourceError(f"cannot read: {exc.strerror}", subject=item.doc_id) from exc

    def document(self, item: Item, data: bytes) -> Document:
        path = self._paths.get(item.doc_id, self.root / item.doc_id)
        mtime = int(item.fingerprint.split(":")[1]) / 1e9
        document = local_document(path, data, mtime, doc_id=item.doc_id)
        if item.doc_id in self._paths:  # a name with bytes that are not UTF-8: the escaped form
            document = replace(document, name=item.name, title=_escaped(path.stem))
        return replace(document, mime_type=item.mime_type)

    def _file_stat(self, path: Path) -> tuple[os.stat_result | None, str]:
        """The file's stat and "" if it is to be read, else (None, why it is skipped)."""
        st = path.lstat()
        if stat_mode.S_ISLNK(st.st_mode):
            problem = self._link_problem(path)
            if problem:
                return None, problem
            st = path.stat()
        return st, ""  # a FIFO or a device is listed, and `read` refuses it: reported every run

    def _link_problem(self, path: Path) -> str:
        try:
            target = path.resolve(strict=True)
        except FileNotFoundError:
            return "a dangling symlink (its target does not exist)"
        except (RuntimeError, OSError) as exc:
            if isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == errno.ELOOP:
                return "a symlink loop"
            return f"a symlink that cannot be followed ({exc})"
        if not self.follow and not target.is_relative_to(self.root):
            return "a symlink out of the source folder, not followed (set source.local.follow_symlinks to follow it)"
        return ""

    def _folder_problem(self, path: Path, visited: set[tuple[int, int]]) -> str:
        if not path.is_symlink():
            return ""
        problem = self._link_problem(path)
        if problem:
            return problem
        if not self.follow:
            return "a symlink to a folder, not followed (set source.local.follow_symlinks to follow it)"
        st = path.stat()
        if (st.st_dev, st.st_ino) in visited:  # an ancestor (a loop) or a folder listed already
            return "a symlink loop (its folder is listed already)"
        return ""

    def _skipped(self, rel: str, name: str, why: str) -> Item:
        return Item(_escaped(rel), _escaped(name), "", "", skip=why)

    def _walk_error(self, exc: OSError) -> None:
        self.errors.append(SourceError(f"cannot list folder: {exc.strerror}", subject=exc.filename))


def _escaped(text: str) -> str:
    """`text` with the undecodable bytes of a file name (surrogate escapes) as `\\xNN`."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return os.fsencode(text).decode("utf-8", errors="backslashreplace")


def _kind(mode: int) -> str:
    for test, word in (
        (stat_mode.S_ISFIFO, "a FIFO"),
        (stat_mode.S_ISSOCK, "a socket"),
        (stat_mode.S_ISCHR, "a device"),
        (stat_mode.S_ISBLK, "a device"),
        (stat_mode.S_ISDIR, "a folder"),
    ):
        if test(mode):
            return word
    return "not a file"
