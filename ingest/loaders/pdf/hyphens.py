"""A hyphen at a line's end: the word's own ("long-" + "term") or the typesetter's ("infor-" +
"mation"). The document says which: how it spells the two halves where no line breaks them, and,
where it spells neither, how the breaks it does settle go (a filing set ragged-right breaks only
at compounds' hyphens; a justified paper breaks words).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_HEAD = re.compile(r"([^\W\d_]+)-$")
_TAIL = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True)
class Spelling:
    """Words (lower case) a document sets within a line, its hyphenated pairs ("long-term"), and
    whether the line-end breaks its own spelling settles mostly keep their hyphen."""

    words: frozenset[str] = frozenset()
    compounds: frozenset[str] = frozenset()
    keeps: bool = False

    def settles(self, head: str, tail: str) -> bool | None:
        """True: the document spells "head-tail" and never "headtail"; False: the reverse; None
        when it spells both or neither."""
        spelt, joined = f"{head}-{tail}".lower() in self.compounds, (head + tail).lower() in self.words
        return spelt if spelt != joined else None

    def keeps_hyphen(self, before: str, after: str) -> bool:
        """Whether the break between a line ending `before` ("... long-") and the next starting
        `after` ("term value ...") keeps its hyphen."""
        if not (self.keeps or self.words or self.compounds):
            return False  # no evidence (a paragraph's text joined before the document's is read)
        head = _HEAD.search(before[-80:]) if before.endswith("-") else None  # a paragraph so far: its end
        tail = _TAIL.match(after)
        if head is None or tail is None:
            return False
        settled = self.settles(head.group(1), tail.group(0))
        return self.keeps if settled is None else settled


UNKNOWN = Spelling()
"""No evidence: every line-end hyphen between lower-case letters is the typesetter's."""


def breaks(paragraph: Sequence[str]) -> Iterable[tuple[str, str]]:
    """(head, tail) of each line-end hyphen of one paragraph's lines set between lower-case letters."""
    for before, after in zip(paragraph, paragraph[1:]):
        if not before.endswith("-"):
            continue  # most lines: no search from every letter for a hyphen that is not there
        head, tail = _HEAD.search(before), _TAIL.match(after)
        if head and tail and before[-2:-1].islower() and after[:1].islower():
            yield head.group(1), tail.group(0)


def spelling(paragraphs: Sequence[Sequence[str]]) -> Spelling:
    """The spelling evidence of a document, from the lines of its paragraphs (none needed where
    no line ends in a hyphen between lower-case letters: most filings' pages, and no pass then)."""
    found = [pair for lines in paragraphs for pair in breaks(lines)]
    if not found:
        return UNKNOWN
    # One pass over the whole text and a set of its tokens (lines apart, as a line-end hyphen
    # before a newline joins no token): a Python loop per word cost 1% of a 10-K's load.
    tokens = set(_WORD.findall("\n".join(line for lines in paragraphs for line in lines).lower()))
    words = {t for t in tokens if "-" not in t}
    compounds: set[str] = set()
    for token in tokens - words:
        parts = token.split("-")
        words.update(parts)
        compounds.update(f"{a}-{b}" for a, b in zip(parts, parts[1:]))
    evidence = Spelling(frozenset(words), frozenset(compounds))
    votes = [v for h, t in found if (v := evidence.settles(h, t)) is not None]
    return Spelling(evidence.words, evidence.compounds, keeps=sum(votes) * 2 > len(votes))


def join_lines(texts: Sequence[str], spelling: Spelling = UNKNOWN) -> str:
    """Join a paragraph's lines, undoing hyphenation at line ends ("infor-" + "mation") where the
    document's `spelling` does not say the hyphen is the word's own ("long-" + "term")."""
    out = ""
    for text in texts:
        if not out:
            out = text
        elif out.endswith("\u00ad"):
            out = out[:-1] + text
        elif out.endswith("-") and len(out) > 1 and out[-2].islower() and text[:1].islower():
            # A compound already hyphenated ("state-of-the-") keeps its hyphen.
            word = out.rsplit(" ", 1)[-1]
            keep = "-" in word[:-1] or spelling.keeps_hyphen(out, text)
            out = out + text if keep else out[:-1] + text
        elif out.endswith("-") and len(out) > 1 and _attached(out[-2], text[:1]):
            out += text  # no word breaks before a capital or a figure: "non-" + "GAAP", "COVID-" + "19"
        elif _CJK.match(out[-1]) and _CJK.match(text[:1] or " "):
            out += text  # Chinese and Japanese set no spaces between words: a line break is none
        else:
            out += " " + text
    return out.replace("\u00ad", "")


def _attached(before: str, after: str) -> bool:
    """A hyphen between these two letters is no break of a word: a letter before a figure, a
    lower-case letter before a capital."""
    return before.isalpha() and (after.isdigit() or (before.islower() and after.isupper()))


_CJK = re.compile("[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
