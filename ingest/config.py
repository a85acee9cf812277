"""The run configuration: YAML, `${NAME}` from the environment, checked once at the edge.

Unknown keys and bad values are errors that name the key. Relative paths are taken from the
directory `ingest` runs in, as a shell user expects.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .chunker import ChunkOptions
from .chunker.tokens import get_tokenizer
from .cleaners import Step, build_chain
from .embedders import EmbedderConfig
from .embedders import options_of as embedder_options
from .errors import ConfigError, IngestError
from .loaders import resolve as resolve_loader
from .loaders import use as use_loader
from .loaders.options import LoaderOptions, PdfOptions, PptxOptions
from .options import StrictOptions
from .plugin_stages import plugin_options
from .sources.drive_options import DriveSourceConfig
from .sources.local_options import LocalSourceConfig

_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


class SourceConfig(StrictOptions):
    # Any other key names a plugin source (see plugin_stages.py), checked by its own options model.
    model_config = ConfigDict(extra="allow", frozen=True)
    local: LocalSourceConfig | None = None
    drive: DriveSourceConfig | None = None

    @model_validator(mode="after")
    def _one(self) -> SourceConfig:
        if (self.local is not None) + (self.drive is not None) + len(self.model_extra or {}) != 1:
            raise ValueError("give exactly one source: local (a folder), drive (a Drive folder) or a plugin's name")
        return self


class SinkConfig(StrictOptions):
    model_config = ConfigDict(extra="allow", frozen=True)  # a plugin sink, as for sources
    sqlite: Path | None = None
    jsonl: Path | None = None

    @model_validator(mode="after")
    def _one(self) -> SinkConfig:
        if (self.sqlite is not None) + (self.jsonl is not None) + len(self.model_extra or {}) != 1:
            raise ValueError("give exactly one of sqlite (a file), jsonl (a folder) or a plugin's name")
        return self


class ChunkerConfig(StrictOptions):
    max_tokens: int = Field(512, ge=1)
    min_tokens: int = Field(64, ge=0)
    overlap_tokens: int = Field(48, ge=0)
    tokenizer: str = "cl100k_base"
    card: bool = True
    """Each document's card (title, properties, dropped headers, footers and stamps) as a chunk."""

    def options(self) -> ChunkOptions:
        get_tokenizer(self.tokenizer)  # an unknown name fails here, at the edge, not mid-run
        return ChunkOptions(self.max_tokens, self.min_tokens, self.overlap_tokens, self.tokenizer, self.card)


class LimitsConfig(StrictOptions):
    """What one document may cost before a parser sees it (see `input_limits.py`)."""

    max_text_mb: float = Field(20, gt=0)
    """Markdown, plain text and CSV files over it fail: they are parsed whole (~16x their size)."""
    max_unzipped_mb: float = Field(256, gt=0)
    """A .docx or .xlsx whose parts unzip past it fails (a zip bomb)."""


class MaxDeleteConfig(StrictOptions):
    """A run refuses to delete more than `share` of the documents it knows when that is also more
    than `count` documents: an unmounted share or a renamed folder looks like an empty source."""

    share: float = Field(0.5, ge=0, le=1)
    count: int = Field(10, ge=0)

    def refuses(self, deleting: int, known: int) -> bool:
        return deleting > self.count and deleting > self.share * known


_RAY_ADDRESS = re.compile(r"auto|(ray://)?[A-Za-z0-9_.\-\[\]:]+:[0-9]{1,5}")


class RayConfig(StrictOptions):
    """`executor: {ray: ...}`: documents are processed on a Ray cluster (see `runner/ray_executor.py`)."""

    address: str = "auto"
    """`auto` (the cluster this machine belongs to), `ray://HOST:PORT` (Ray Client) or `HOST:PORT` (the head's GCS)."""
    max_in_flight: int = Field(0, ge=0)
    """Documents submitted and not yet written; 0: four per CPU of the cluster. Bounds the driver's memory."""
    max_retries: int = Field(3, ge=0)
    """Times a document is tried again after its worker or node was lost, before it fails (next run tries again)."""

    @model_validator(mode="after")
    def _address(self) -> RayConfig:
        if not _RAY_ADDRESS.fullmatch(self.address):
            raise ValueError(f"address {self.address!r}: give auto, ray://HOST:PORT or HOST:PORT")
        return self


class SearchConfig(StrictOptions):
    """`search:` in a job: how its SQLite index is kept for search."""

    ann: Literal["auto", "always", "never"] = "auto"
    """An HNSW index of the vectors beside the SQLite file (the `ann` extra, usearch): `auto` from
    `search.ann.AUTO_MIN_VECTORS` vectors on, `always`, or `never` (exact search only)."""


class ExecutorConfig(StrictOptions):
    """Where documents are processed; absent: on this machine, `workers` processes."""

    ray: RayConfig | None = None


class Config(StrictOptions):
    source: SourceConfig
    sink: SinkConfig = SinkConfig(sqlite=Path("out/index.sqlite"))
    state: Path = Path("out/state.sqlite")
    chunker: ChunkerConfig = ChunkerConfig()
    workers: int = Field(0, ge=0)
    """Processes that load, clean and chunk; 0 means one per core, 1 keeps everything in-process."""
    limits: LimitsConfig = LimitsConfig()
    max_delete: MaxDeleteConfig = MaxDeleteConfig()
    """Past it a run deletes nothing unless run with --allow-mass-delete."""
    timeout_s: float = Field(300, gt=0)
    """Time limit to load, clean and chunk one document; past it the document fails (tried again
    next run) and its worker is replaced. With `workers: 1` it stops Python code only."""
    cleaners: list[str | dict[str, dict[str, Any] | bool | None]] = Field(default_factory=list)
    """Ordered names (entry points or module:attr); `{name: {options}}` configures, `{name: false}` switches off."""
    loaders: list[str] = Field(default_factory=list)
    """Plugin loaders (entry points or module:attr), each taking over the MIME types it declares."""
    embedder: EmbedderConfig | None = None
    """`{name: minilm, ...options}`: chunks get vectors, for vector and hybrid search. None: none."""
    pptx: PptxOptions = PptxOptions()
    """The .pptx loader's options (Google Slides too): `{notes: false}` leaves speaker notes out."""
    pdf: PdfOptions = PdfOptions()
    """The PDF loader's options: `{ocr: auto | always | never, ocr_languages: [en]}` (OCR of scanned pages)."""

    search: SearchConfig = SearchConfig()
    """`{ann: auto | always | never}`: when vector search uses an HNSW index (see README, Searching at scale)."""

    executor: ExecutorConfig | None = None
    """`{ray: {...}}`: process documents on a Ray cluster instead of `workers` local processes."""

    def loader_options(self) -> LoaderOptions:
        """The built-in loaders' options, as the workers hand them to each loader."""
        return LoaderOptions(pptx=self.pptx, pdf=self.pdf)

    @model_validator(mode="after")
    def _one_executor(self) -> Config:
        if "workers" in self.model_fields_set and self.executor is not None and self.executor.ray is not None:
            raise ValueError("give `workers` (processes on this machine) or `executor.ray` (a Ray cluster), not both")
        return self


class ChunkSettings(StrictOptions):
    """A settings file for `ingest chunk`, `stats` and `inspect`, which read no source: a chunker
    and cleaners alone (a run's whole config is taken too, and only these two read from it)."""

    chunker: ChunkerConfig = ChunkerConfig()
    cleaners: list[str | dict[str, dict[str, Any] | bool | None]] = Field(default_factory=list)


def load_config(path: str | Path) -> tuple[Config, tuple[Step, ...], ChunkOptions]:
    """Read, expand and validate a config file; also resolve its cleaners and chunker options."""
    path = Path(path)
    return parse_config(_read(path), origin=str(path), base=path.parent)


def load_chunk_settings(path: str | Path) -> tuple[list[tuple[str, Any]], ChunkOptions]:
    """The cleaner items and chunk options of a config file, or of a file of `chunker` and
    `cleaners` only (no source: `ingest chunk` lists no documents)."""
    path = Path(path)
    raw = _read(path)
    if "source" in raw:
        config, _steps, options = parse_config(raw, origin=str(path), base=path.parent)
        return _cleaner_items(config.cleaners), options
    settings = _validated(ChunkSettings, _expand(raw, ()), str(path))
    try:
        return _cleaner_items(settings.cleaners), settings.chunker.options()
    except IngestError as exc:
        raise ConfigError(str(exc), subject=str(path)) from exc


def _read(path: Path) -> Mapping[str, Any]:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read config: {exc.strerror}", subject=str(path)) from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"not valid YAML: {exc}", subject=str(path)) from exc
    if not isinstance(raw, Mapping):
        raise ConfigError("must be a mapping with at least a `source` key", subject=str(path))
    return raw


_Model = TypeVar("_Model", bound=BaseModel)


def _validated(model: type[_Model], data: Any, origin: str) -> _Model:
    """`data` as `model`, or a ConfigError naming the first bad key."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"]) or "(top level)"
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise ConfigError(f"{key}: {err['msg']}{more}", subject=origin) from None


def parse_config(
    raw: Mapping[str, Any], origin: str = "config", base: Path | None = None
) -> tuple[Config, tuple[Step, ...], ChunkOptions]:
    """`base`: the config's folder, where `module:attr` plugins it names are importable from."""
    config = _validated(Config, _expand(raw, ()), origin)
    try:
        steps = build_chain(_cleaner_items(config.cleaners), base)
        options = config.chunker.options()
        for name in config.loaders:
            use_loader(resolve_loader(name, base)[0])
        plugin_options("source", config.source.model_extra, base)  # a plugin's options, checked now
        plugin_options("sink", config.sink.model_extra, base)
        if config.search.ann == "always" and config.sink.sqlite is not None:
            from .search.ann import require

            require("search.ann")
        if config.embedder is not None:
            embedder_options(config.embedder, base)  # its options checked now; the model loads at the first write
    except IngestError as exc:
        raise ConfigError(str(exc), subject=origin) from exc
    return config, steps, options


def _cleaner_items(items: list) -> list[tuple[str, Any]]:
    out = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            out.append((item, None))
        elif len(item) == 1:
            out.append(next(iter(item.items())))
        else:
            raise ConfigError(f"cleaners[{i}]: one cleaner per item, as `name` or `name: {{options}}`")
    return out


def _expand(value: Any, key: tuple) -> Any:
    """Replace `${NAME}` in every string with the environment variable's value."""
    if isinstance(value, str):

        def sub(m: re.Match) -> str:
            name = m.group(1)
            if name not in os.environ:
                where = ".".join(map(str, key)) or "(top level)"
                raise ConfigError(f"{where}: environment variable {name} is not set")
            return os.environ[name]

        return _ENV.sub(sub, value)
    if isinstance(value, Mapping):
        return {k: _expand(v, key + (k,)) for k, v in value.items()}
    if isinstance(value, list):
        return [_expand(v, key + (i,)) for i, v in enumerate(value)]
    return value


def with_executor(config: Config, executor: str | None, ray_address: str | None) -> Config:
    """The config with the command line's `--executor local|ray` and `--ray-address` applied: the
    command line wins over the file, checked by the same rules (`workers` and Ray both is an error)."""
    if ray_address is not None and executor is None:
        ray = config.executor.ray if config.executor is not None else None
        if ray is None:
            raise ConfigError("--ray-address goes with --executor ray (or `executor: {ray: ...}` in the config)")
        executor = "ray"
    if executor is None:
        return config
    raw = config.model_dump(exclude_unset=True, by_alias=True)
    if executor == "local":
        raw.pop("executor", None)
    else:
        ray_raw = dict((raw.get("executor") or {}).get("ray") or {})
        if ray_address is not None:
            ray_raw["address"] = ray_address
        raw["executor"] = {"ray": ray_raw}
    try:
        return Config.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"]) or "(top level)"
        raise ConfigError(f"{key}: {err['msg']}", subject="--executor") from None
