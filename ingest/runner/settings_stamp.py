"""The settings stamp of a document: what its chunks were made with, so that a change to any of it
re-processes exactly the documents it can change (see `code_stamp.py` for the code part)."""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import asdict
from pathlib import Path

from .._version import __version__
from ..chunker import ChunkOptions
from ..cleaners import Step, code_version
from ..embedders import EmbedderConfig
from ..loaders import loader_module, options_for, supported
from ..loaders.options import LoaderOptions
from . import code_stamp


class SettingsStamps:
    """The settings stamp per MIME type: chunker options, the cleaners that run on that type (their
    options and, for plugins, their code), and the code of ingest that makes its output
    (`code_stamp.py`). A change re-processes exactly the documents whose output it can change."""

    def __init__(
        self,
        steps: tuple[Step, ...],
        options: ChunkOptions,
        embedder: EmbedderConfig | None = None,
        loaders: LoaderOptions | None = None,
    ) -> None:
        self.steps, self.options, self.embedder = steps, options, embedder
        self.loaders = loaders or LoaderOptions()
        self._cache: dict[str, str] = {}

    def __call__(self, mime_type: str) -> str:
        if mime_type not in self._cache:
            self._cache[mime_type] = self._stamp(mime_type)
        return self._cache[mime_type]

    def all(self) -> set[str]:
        """Today's stamp of every type a loader takes: a stored stamp outside it is out of date."""
        return {self(m) for m in supported()}

    def _stamp(self, mime_type: str) -> str:
        steps = [s for s in self.steps if s.explicit or s.cleaner.applies_to(mime_type)]
        loader = loader_module(mime_type)
        ours = [
            m
            for m in [loader, *(getattr(s.cleaner.run, "__module__", "") for s in steps)]
            if m and (m == "ingest" or m.startswith("ingest."))
        ]
        described = {
            "version": __version__,
            "chunker": asdict(self.options),
            "cleaners": [
                (s.cleaner.name, s.options.model_dump() if s.options else None, code_version(s.cleaner)) for s in steps
            ],
            "loader": loader if loader in ours else (loader, _module_digest(loader)),
            "code": code_stamp.digest([*code_stamp.COMMON, *ours]),
        }
        # Another embedder writes every document again (a text keeps its vector if the model's name
        # is the same); a job without one keeps the stamps it had before embedders existed.
        if self.embedder is not None:
            described["embedder"] = self.embedder.spec()
        # Only a loader that takes options adds them, so other types keep the stamps they had.
        loader_options = options_for(mime_type, self.loaders)
        if loader_options is not None:
            described["loader_options"] = loader_options.model_dump()
        return hashlib.sha256(json.dumps(described, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _module_digest(name: str | None) -> str:
    """A plugin loader's module source, hashed (as `code_version` does for plugin cleaners)."""
    module = sys.modules.get(name or "")
    path = getattr(module, "__file__", None)
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16] if path else ""
    except OSError:
        return ""
