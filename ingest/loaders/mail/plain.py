"""A plain-text mail body as items: paragraphs at blank lines, with what is not the writer's own
new text marked in `meta["mail"]`: a quoted reply ("> " lines, or all below an Outlook
"-----Original Message-----" or a rule over a "From:" line), the attribution line that opens it
("On Tue, Ann <a@x> wrote:"), and the signature under the "-- " line (RFC 3676's delimiter)."""

from __future__ import annotations

import re

from ...blocks import BlockMeta
from ..word.outline import Item

SIGNATURE_DELIMITERS = frozenset({"-- ", "--"})
_ATTRIBUTION = re.compile(
    r"^(on\b.+\bwrote|am\b.+\bschrieb|le\b.+\ba [ée]crit|el\b.+\bescribi[óo]|op\b.+\bschreef)\s*:$", re.I | re.S
)
_ORIGINAL = re.compile(r"^-{2,}\s*(original message|ursprüngliche nachricht|message d'origine)\s*-{2,}$", re.I)
_RULE = re.compile(r"^_{10,}$")
_HEADER_LINE = re.compile(r"^(from|von|de)\s*:", re.I)


def plain_items(text: str) -> list[Item]:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    groups: list[tuple[str, list[str]]] = []  # (what, lines): "body", "quoted", "signature"
    region = "body"
    for i, line in enumerate(lines):
        stripped = line.strip()
        if region != "quoted" and (
            _ORIGINAL.match(stripped) or (_RULE.match(stripped) and _next_is_header(lines, i + 1))
        ):
            region = "quoted"  # Outlook quotes the whole thread below, unprefixed
            groups.append(("quoted", []))
            continue
        if region == "body" and line in SIGNATURE_DELIMITERS:
            region = "signature"
            groups.append(("signature", []))
            continue
        what = "quoted" if region == "quoted" or line.lstrip().startswith(">") else region
        if not groups or not stripped or groups[-1][0] != what:
            groups.append((what, []))
        if stripped:
            groups[-1][1].append(line)
    items: list[Item] = []
    kept = [(what, group) for what, group in groups if group]
    for n, (what, group) in enumerate(kept):
        if what == "quoted":
            text = "\n".join(_unquote(line) for line in group).strip()
            if text:
                items.append(Item("quote", text, meta=BlockMeta(mail="quoted")))
            continue
        text = "\n".join(line.rstrip() for line in group).strip()
        mail = what if what == "signature" else None
        following = kept[n + 1][0] if n + 1 < len(kept) else None
        if mail is None and following == "quoted" and _ATTRIBUTION.match(" ".join(text.split())):
            mail = "attribution"
        items.append(Item("paragraph", text, meta=BlockMeta(mail=mail) if mail else BlockMeta()))  # type: ignore[typeddict-item]
    return items


def _unquote(line: str) -> str:
    line = line.lstrip()
    if line.startswith(">"):
        line = line[1:]
        return line[1:] if line.startswith(" ") else line
    return line


def _next_is_header(lines: list[str], start: int) -> bool:
    for line in lines[start : start + 3]:
        if line.strip():
            return bool(_HEADER_LINE.match(line.strip()))
    return False
