"""A flat dump: one JSONL file per document, one `chunk_to_dict` object per line.

The file name is `<slug of the name>.<hash of the id>.jsonl`. The hash makes two "notes.md" in
different folders distinct, and lets `delete(doc_id)` find the file from the id alone, so no index
file is kept. Files are replaced atomically (temp file + `os.replace`), so a reader sees the old
chunks or the new ones.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import unicodedata
import uuid
from collections.abc import Sequence
from pathlib import Path

from ..blocks import Chunk, Document
from ..chunk_json import chunk_to_dict
from ..errors import SinkError
from . import Sink

_HASH_CHARS = 12  # 48 bits: a collision needs ~16 million documents in one folder
_SLUG_CHARS = 60


class JsonlSink(Sink):
    """Writes `<directory>/<slug>.<hash>.jsonl` per document (the directory is created if missing)."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SinkError(f"cannot create the output folder ({exc.strerror})", self.directory) from exc

    def path_for(self, document: Document) -> Path:
        return self.directory / f"{slug(document.name or document.id)}.{doc_hash(document.id)}.jsonl"

    def write(self, document: Document, chunks: Sequence[Chunk]) -> None:
        lines = []
        for chunk in chunks:
            if chunk.doc_id != document.id:
                raise SinkError(
                    f"chunk {chunk.chunk_index} belongs to document {chunk.doc_id!r}; write each document's own chunks",
                    document.uri,
                )
            try:
                lines.append(json.dumps(chunk_to_dict(chunk), ensure_ascii=False) + "\n")
            except (TypeError, ValueError) as exc:
                raise SinkError(
                    f"chunk {chunk.chunk_index} has meta that is not JSON data ({exc}); the previous file is kept",
                    document.uri,
                ) from exc
        target = self.path_for(document)
        _atomic_write(target, "".join(lines))
        # A renamed document leaves its old file behind under the same hash. Removing it after the
        # new file is in place means a crash in between leaves a duplicate, never a loss.
        for stale in self._files(document.id):
            if stale != target:
                stale.unlink(missing_ok=True)

    def delete(self, doc_id: str) -> None:
        for path in self._files(doc_id):
            try:
                path.unlink(missing_ok=True)
            except OSError as exc:
                raise SinkError(f"cannot delete the dump of document {doc_id!r} ({exc.strerror})", path) from exc

    def close(self) -> None:
        pass  # every write is complete when it returns

    def identity(self) -> str:
        marker = self.directory / ".ingest-index-id"
        try:
            return marker.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            _atomic_write(marker, uuid.uuid4().hex)
            return marker.read_text(encoding="ascii").strip()
        except OSError as exc:
            raise SinkError(f"cannot read the dump's id ({exc.strerror})", marker) from exc

    def stored(self) -> dict[str, str]:
        """Ids from each file's first chunk; a document stored with no chunks cannot be named and stays."""
        out: dict[str, str] = {}
        for path in self.directory.glob("*.jsonl"):
            try:
                with path.open(encoding="utf-8") as handle:
                    first = json.loads(handle.readline() or "null")
            except (OSError, ValueError):
                continue
            if isinstance(first, dict) and isinstance(first.get("doc_id"), str):
                out[first["doc_id"]] = str((first.get("source") or {}).get("name", first["doc_id"]))
        return out

    def sync(self) -> None:
        # Each file was fsynced before its rename; the renames are durable once the folder is.
        try:
            fd = os.open(self.directory, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise SinkError(f"cannot make the dump durable ({exc.strerror})", self.directory) from exc

    def _files(self, doc_id: str) -> list[Path]:
        return sorted(self.directory.glob(f"*.{doc_hash(doc_id)}.jsonl"))


def doc_hash(doc_id: str) -> str:
    return hashlib.sha256(doc_id.encode("utf-8")).hexdigest()[:_HASH_CHARS]


def slug(name: str) -> str:
    """A file-name-safe, lower-case form of `name`; letters of any script are kept."""
    text = unicodedata.normalize("NFKC", name).lower()
    text = re.sub(r"[^\w]+|_+", "-", text).strip("-")
    return text[:_SLUG_CHARS].rstrip("-") or "document"


def _atomic_write(target: Path, data: str) -> None:
    # The temp file lives beside the target (os.replace is atomic only within one file system)
    # and ends in ".tmp", so `_files` never mistakes a leftover for a document's dump.
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise SinkError(f"cannot write ({exc.strerror}); the previous file is kept", target) from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise SinkError(f"cannot write ({exc.strerror}); the previous file is kept", target) from exc
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
