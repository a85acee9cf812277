"""What a page's furniture says, read from the text alone: links, DOIs, copyright lines, download
stamps, volume and issue numbers, journal citations, dates.

A running header is found by recurring on many pages; a journal masthead, a DOI footer or a
"Downloaded from ... on DATE" line appears once, so the PDF loader and the `running_headers`
cleaner judge such a line by what it is made of: when most of it is furniture tokens (and the
rest a few words, such as a journal's name), it is furniture. Footnotes are not: a line opening
with a footnote marker keeps its links.
"""

from __future__ import annotations

import re

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_TOKENS = re.compile(
    r"(?i)"
    r"(?:https?://|www\.)\S+|\b[\w.-]+\.(?:org|com|net|edu|gov|int|io)(?:/\S*)?"  # links
    r"|\bdoi\s*:?\s*10\.\d{4,9}/\S+|\b10\.\d{4,9}/\S+"  # DOIs
    r"|\b(?:e-?)?issn\b[:\s]*[\dx-]*|\bisbn\b[:\s]*[\dx-]*|\b\d{4}-\d{3}[\dx]\b"  # ISSN/ISBN
    r"|©|\(c\)|\bcopyright\b|\ball rights reserved\b|\blicen[cs]ed? under\b"
    r"|\b(?:downloaded|download date|retrieved|accessed|printed|published online|available online)\b(?:\s+(?:from|on|at))?"
    r"|\bvol(?:ume)?\.?\s*\d+|\bissue\s*\d+|\bno\.\s*\d+|\bnr\.\s*\d+|\bpp?\.\s*\d+(?:\s*[-\u2013]\s*\d+)?"
    r"|\b\d{1,4}\s*\(\d{4}\)\s*(?:\d+\s*[-\u2013]\s*\d+|e?\d+)"  # "282 (2015) 150-157"
    r"|\bpage\s+\d+(?:\s+of\s+\d+)?"
    r"|\be\d{3,}\b"  # article numbers ("e2748")
)
# Dates count only beside one of the tokens above: a date alone heads a letter or a table's column.
_DATES = re.compile(
    r"(?i)"
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?\.?\s+{_MONTH},?\s+\d{{4}}|\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\b{_MONTH}\s+\d{{4}}|\b\d{{1,4}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}"
)
_STRONG = re.compile(
    r"(?i)©|\bcopyright\b|\ball rights reserved\b|\bdownload|\bretrieved\b|\baccessed\b"
    r"|\bvol(?:ume)?\.?\s*\d|\bissue\s*\d|\bissn\b|\bdoi\b|\b10\.\d{4,9}/|\b\d{1,4}\s*\(\d{4}\)\s*\d"
)
_PAGE_NUMBER = re.compile(
    r"(?i)(?:page\s*)?[-\u2013\u2014]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-\u2013\u2014]?(?:\s*(?:of|/)\s*\d{1,4})?"
)
CAPTION = re.compile(r"(?i)^(?:fig(?:ure)?|table|tab|listing|chart|plate|exhibit|scheme|graph)\.?\s*[A-Z]?\d")
"""The opening of a caption ("Fig. 7.", "Table 2", "Listing 1:"): body text wherever it is set."""
STAMP = re.compile(
    r"(?i)^(?:exhibit|annex|schedule|attachment)\s+"
    r"(?:\d{1,3}(?:\.\d{1,3})*[a-z]?(?:\s*\(\w{1,4}\))?|[a-z](?:-\d{1,3})?|[ivxlc]{1,6})\.?(?:\s+to\s+\S.{0,80})?$"
)
"""A filing's exhibit stamp atop a page ("Exhibit 10.1(13)", "EXHIBIT A", "Annex II to the Credit
Agreement"): its number alone, or what it is attached to. "Exhibit 2" over a chart reads the
same; a figure's label sits on the drawing, which tells them apart. Not "Appendix B": a report's
or paper's appendix opens its pages with that label, set as plainly as a stamp."""
_FOOTNOTE = re.compile(r"^\s*(?:\d{1,2}|[*\u2020\u2021\u00a7\u00b6])\s*(?=\S)")
_COPYRIGHT = re.compile(r"(?i)^(?:copyright\s*)?(?:\u00a9|\(c\)|copyright\b)\s*(?P<rest>.*)$")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_RESERVED = re.compile(r"(?i)\ball rights reserved\b\.?|\bused under licen[cs]e\b\.?")
_NAME_GLUE = {"and", "of", "the", "for", "in", "by", "on", "und", "de", "du", "des", "la", "le", "et", "y", "&"}
_FILLER = re.compile(r"[\s|\u2022\u00b7/,;:.()\[\]<>\u2013\u2014-]+")


def furniture_like(text: str) -> bool:
    """Mostly furniture tokens: what is left once they are taken out is a few words (a journal's
    name), under two thirds of the line."""
    if not _TOKENS.search(text):
        return False
    if copyright_line(text):
        return True
    strong = _STRONG.search(text) is not None
    if _FOOTNOTE.match(text) and not strong:
        return False  # "1 https://github.com/..." is a footnote, and body text
    rest = _FILLER.sub(" ", _DATES.sub(" ", _TOKENS.sub(" ", text))).split()
    rest = [w for w in rest if not w.isdigit()]
    return len(rest) <= (9 if strong else 6) and sum(map(len, rest)) <= max(16, 0.65 * len(text))


def copyright_line(text: str) -> bool:
    """A copyright notice: the sign or word, then an owner's name and perhaps a year ("\u00a9 2023
    The International Bank for Reconstruction and Development / The World Bank", "\u00a9Lonely
    Planet Publications Pty Ltd"), however long the name, so long as it is a name (its words
    capitalised but for the glue of names) and not a sentence about copyright."""
    m = _COPYRIGHT.match(text.strip())
    if m is None:
        return False
    owner = _FILLER.sub(" ", _RESERVED.sub(" ", _YEAR.sub(" ", m["rest"].replace("\u00a9", " ")))).split()
    named = [w for w in owner if w.lower() not in _NAME_GLUE]
    lower = sum(w[:1].islower() for w in named)
    if m[0].startswith("("):  # "(c)" opens a list's third item too: a year, and a name only
        return _YEAR.match(m["rest"]) is not None and 0 < len(named) <= 12 and lower == 0
    return 0 < len(named) <= 12 and lower <= 1


def band_key(text: str) -> str:
    """A band line's text with digits and case normalised: "Page 3" and "page 4" are one line."""
    return " ".join(re.sub(r"\d+", "#", text.lower()).split())


def is_page_number(text: str) -> bool:
    """A number, roman numeral, "- 3 -", "Page 3" or "3 of 17" standing alone."""
    return _PAGE_NUMBER.fullmatch(text.strip()) is not None
