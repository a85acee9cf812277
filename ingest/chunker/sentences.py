"""Sentence boundaries for prose, conservative where a period is not a full stop.

A boundary is a run of terminal punctuation (. ! ? and Arabic ؟, Urdu ۔, Devanagari ।), optionally
followed by closing quotes or brackets, then whitespace, then something that can open a sentence (a
capital, a digit, or a letter of a script without case: Arabic, Hangul, Han...); or a run of CJK
stops (。！？), with the quotes and brackets that close after them, whatever follows. It is refused after
abbreviations (Dr., e.g., U.S.), single-letter initials, ellipses, and list numbering ("1." or
"iv." at the start of a line). Decimals ("0.5 C") never qualify: no whitespace follows the point.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# Lower-cased, without the final period.
ABBREVIATIONS = frozenset(
    """
    mr mrs ms mx dr prof sr jr st mt rev hon gen col capt lt sgt cmdr adm gov pres sen rep
    vs etc al eg ie cf viz approx est ca fig figs eq eqs no nos vol vols pp pg ch sec art ed eds
    inc ltd co corp llc plc bros dept univ assn ave blvd rd apt
    jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun
    min max avg dept div op ops ref refs repr tel ext
    """.split()
)

_BOUNDARY = re.compile(
    r"""
    (?: (?<=[^.])[.!?\u061f\u06d4\u0964\u0965]+   # terminal punctuation (Arabic ? and Urdu, Devanagari stops
                                               # too); a lone "..." run is handled below
        [\"'”’)\]»]*                           # closing quotes or brackets stay with the sentence
        (?= \s+ [\"'“‘(\[«]? (?P<opens>[^\W_]) | \s*$ )
      | [。！？｡]+ [\"'”’)\]」』）】〕〉》]*        # CJK stops end a sentence with or without a space,
    )                                          # its closing quotes and brackets with it
    """,
    re.VERBOSE,
)
_WORD_BEFORE = re.compile(r"([\w.'-]*)$")
_LIST_NUMBER = re.compile(r"[ \t]*(?:\d{1,3}|[ivxlcdm]{1,6}|[a-z])", re.IGNORECASE)


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int]]:
    """Spans (begin, end) of the sentences in `text[start:end]`, whitespace excluded."""
    end = len(text) if end is None else end
    begin = _skip_space(text, start, end)
    for match in _BOUNDARY.finditer(text, begin, end):
        stop = match.end()
        if not _can_open(match.group("opens")) or not _is_full_stop(text, begin, match.start(), match.group()):
            continue
        if stop > begin:
            yield begin, stop
        begin = _skip_space(text, stop, end)
    stop = _trim_end(text, begin, end)
    if stop > begin:
        yield begin, stop


def _can_open(letter: str | None) -> bool:
    """What follows the stop can open a sentence: a capital of any script with case (Latin with
    its accents, "Šel", "Łódź"; Greek; Cyrillic, "Ґанок"), a digit, or a letter of a script without
    case (Hebrew, Arabic, Indic, Thai, kana, Han, Hangul), where no capital marks the start. The
    stop before a lower-case word is an abbreviation's. (None: the text ends there.)"""
    if letter is None:
        return True
    return letter.isdecimal() or (letter.isalpha() and not letter.islower())


def _is_full_stop(text: str, begin: int, at: int, punct: str) -> bool:
    if not punct.startswith("."):
        return True
    if punct.startswith("..") or text[at - 1 : at] == "…":
        return False  # an ellipsis trails off; it rarely ends the thought
    found = _WORD_BEFORE.search(text, begin, at)  # matches, if only the empty word
    word = found.group(1) if found else ""
    bare = word.rstrip(".").lower()
    if not bare:
        return True
    if bare in ABBREVIATIONS or bare.replace(".", "") in ABBREVIATIONS:
        return False
    if len(bare) == 1 and bare.isalpha() and bare != bare.upper() and not _after_number(text, begin, at - 1):
        return False  # an initial ("J. Smith"), but not a unit ("39 C. Above") nor a caseless word ("다.")
    if "." in bare and all(len(part) <= 2 for part in bare.split(".")):
        return False  # "U.S.", "e.g", "Ph.D"
    line_start = max(text.rfind("\n", 0, at) + 1, begin)
    if _LIST_NUMBER.fullmatch(text, line_start, at):
        return False  # "1." or "iv." opening a line or sentence is numbering, not a sentence
    return True


def _after_number(text: str, begin: int, at: int) -> bool:
    i = at
    while i > begin and text[i - 1] in " \t\n":
        i -= 1
    return i > begin and i < at and text[i - 1].isdigit()


def _skip_space(text: str, i: int, end: int) -> int:
    while i < end and text[i].isspace():
        i += 1
    return i


def _trim_end(text: str, begin: int, end: int) -> int:
    while end > begin and text[end - 1].isspace():
        end -= 1
    return end
