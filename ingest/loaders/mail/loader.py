"""E-mail loader: a message's subject is its title; from, to, cc and date its metadata; its text
part (else its HTML part, through the HTML loader) its blocks; each attachment a loader reads a
section headed "Attachment: <name>" (the pipeline keeps one document per file, so attachments
cannot be documents of their own: they stay with the message that holds them, named). An .mbox
is one document with a section per message, for the same reason."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import getaddresses, parsedate_to_datetime
from pathlib import PurePath

from lxml import etree

from ...blocks import Block, BlockMeta, Document, Loaded
from ...errors import LoaderError
from ..text.decoding import decode_text
from ..word.outline import place
from .plain import plain_items

MAX_NESTING = 5
"""Messages attached to messages are read this deep; deeper ones are named in a warning."""

_PARSER = BytesParser(policy=policy.default)


def load_message(data: bytes, document: Document) -> Loaded:
    msg = _parse(data)
    subject = _header(msg, "subject")
    title = subject or document.title or document.name
    reader = _Reader(document)
    blocks = tuple(reader.message(msg, (title,), 0))
    meta = {**document.meta, **_facts(msg)}
    return Loaded(replace(document, title=title, meta=meta), blocks, warnings=tuple(reader.warnings))


def load_mbox(data: bytes, document: Document) -> Loaded:
    messages = list(split_mbox(data))
    if not messages:
        raise LoaderError("not an mbox: no message starts with a 'From ' line")
    title = document.title or document.name
    reader = _Reader(document)
    blocks: list[Block] = []
    for n, raw in enumerate(messages, 1):
        msg = _parse(raw, n)
        heading = _header(msg, "subject") or f"Message {n}"
        path = (title, heading)
        blocks.append(Block("heading", heading, path, level=1))
        facts = _facts(msg)
        said = "; ".join(f"{k.title()}: {', '.join(v) if isinstance(v, list) else v}" for k, v in facts.items())
        if said:
            blocks.append(Block("paragraph", said, path, meta=BlockMeta(mail="headers")))
        blocks.extend(reader.message(msg, path, 0))
    meta = {**document.meta, "messages": len(messages)}
    return Loaded(replace(document, title=title, meta=meta), tuple(blocks), warnings=tuple(reader.warnings))


def split_mbox(data: bytes) -> Iterator[bytes]:
    """The messages of an mbox: each opens with a "From " line at the file's start or after a blank
    line; a body line escaped as ">From " (mboxrd, mboxo) is given back its "From "."""
    lines = data.replace(b"\r\n", b"\n").split(b"\n")
    current: list[bytes] | None = None
    previous_blank = True
    for line in lines:
        if line.startswith(b"From ") and previous_blank:
            if current is not None:
                yield b"\n".join(current).rstrip(b"\n") + b"\n"
            current = []
        elif current is not None:
            stripped = line.lstrip(b">")
            current.append(line[1:] if stripped.startswith(b"From ") and line.startswith(b">") else line)
        previous_blank = not line.strip()
    if current is not None:
        yield b"\n".join(current).rstrip(b"\n") + b"\n"


def _parse(data: bytes, n: int | None = None) -> EmailMessage:
    where = f"message {n}: " if n else ""
    if not data.strip():
        raise LoaderError(f"{where}the message is empty; nothing to read")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or data[:3] == b"\xef\xbb\xbf":
        data = data.decode("utf-8-sig" if data[:1] == b"\xef" else "utf-16").encode("utf-8")
    if b"\x00" in data[:4096] and (wide := _utf16_without_bom(data[:400])):
        data = data.decode(wide, errors="replace").encode("utf-8")
    if b"\x00" in data[:4096]:
        raise LoaderError(f"{where}looks binary (NUL bytes), not an e-mail message; an Outlook .msg is not read")
    msg = _PARSER.parsebytes(data)
    if not isinstance(msg, EmailMessage) or not msg.keys():
        raise LoaderError(f"{where}not an e-mail message: no header lines (From:, Subject:...) at its start")
    return msg


def _utf16_without_bom(head: bytes) -> str | None:
    """UTF-16 by where its NULs fall: ASCII header text puts one in every other byte."""
    odd, even = head[1::2].count(0), head[0::2].count(0)
    if odd > len(head) * 0.4:
        return "utf-16-le"
    if even > len(head) * 0.4:
        return "utf-16-be"
    return None


def _header(msg: Message, name: str) -> str:
    try:
        value = msg.get(name)
    except (ValueError, IndexError):  # a header the policy cannot parse: take it raw
        value = msg.get_all(name, [""])[0] if hasattr(msg, "get_all") else ""
    return " ".join(str(value or "").split())


def _facts(msg: Message) -> dict:
    """from, to, cc (addresses as written), date (ISO-8601 when it parses), message id."""
    out: dict = {}
    for name in ("from", "to", "cc"):
        raw = [_header(msg, name)] if msg.get(name) is not None else []
        people = [_address(n, a) for n, a in getaddresses(raw) if a or n]
        if people:
            out[name] = people[0] if name == "from" else people
    date = _header(msg, "date")
    if date:
        try:
            out["date"] = parsedate_to_datetime(date).isoformat()
        except (TypeError, ValueError, IndexError):
            out["date"] = date
    if _header(msg, "message-id"):
        out["message_id"] = _header(msg, "message-id")
    return out


def _address(name: str, addr: str) -> str:
    return f"{name} <{addr}>" if name and addr else addr or name


class _Reader:
    def __init__(self, document: Document) -> None:
        self.document = document
        self.warnings: list[str] = []

    def message(self, msg: Message, root: tuple[str, ...], nesting: int) -> Iterator[Block]:
        """The message's body under `root`, then each attachment as a section of it."""
        body: Message | None = None
        if isinstance(msg, EmailMessage):
            body = msg.get_body(preferencelist=("plain", "html"))
        if body is None and not msg.is_multipart() and msg.get_content_maintype() == "text":
            body = msg
        if body is not None:
            yield from _under(root, self.body(body))
        if isinstance(msg, EmailMessage):
            for part in msg.iter_attachments():
                yield from self.attachment(part, root, nesting)

    def body(self, part: Message) -> Iterator[Block]:
        text = self.text(part)
        if part.get_content_subtype() == "html":
            from ..html.loader import read_page

            items = read_page(text, classify=classify_html).items
            for item, after in zip(items, items[1:]):  # the "-- " a client sets as text above its signature
                if item.text.strip() in ("--", "-- ") and after.meta.get("mail") == "signature":
                    item.meta = BlockMeta(mail="signature")
        else:
            items = plain_items(text)
        yield from place(items, "", root_heading=False)

    def text(self, part: Message) -> str:
        try:
            content = part.get_content()  # type: ignore[attr-defined]
            if isinstance(content, str):
                return content
        except (LookupError, UnicodeError, ValueError, AssertionError):
            pass  # an unknown or wrong charset: decode the bytes by what they look like
        raw = part.get_payload(decode=True)
        if not isinstance(raw, bytes):
            return ""
        text, warnings = decode_text(raw)
        self.warnings.extend(warnings)
        return text

    def attachment(self, part: Message, root: tuple[str, ...], nesting: int) -> Iterator[Block]:
        from .. import load_bytes, mime_type_of, supports

        name = part.get_filename() or ""
        kind = part.get_content_type()
        heading = f"Attachment: {name or kind}"
        path = (*root, heading)
        if kind == "message/rfc822":
            inner = part.get_payload()
            inner = inner[0] if isinstance(inner, list) and inner else inner
            if not isinstance(inner, Message):
                return
            if nesting >= MAX_NESTING:
                self.warnings.append(
                    f"attached message {name or _header(inner, 'subject')!r} nested too deep, not read"
                )
                return
            heading = f"Attachment: {name or _header(inner, 'subject') or 'message'}"
            path = (*root, heading)
            yield Block("heading", heading, path, level=len(path) - 1, meta=BlockMeta(attachment=name or heading[12:]))
            yield from self.message(inner, path, nesting + 1)
            return
        mime = mime_type_of(name) if name and supports(mime_type_of(name)) else kind
        if not supports(mime):
            self.warnings.append(f"attachment {name or kind!r} ({kind}) not read: no loader for it")
            return
        data = part.get_payload(decode=True)
        if not isinstance(data, bytes):
            return
        doc = Document(
            id=f"{self.document.id}#attachment={name}",
            uri=self.document.uri,
            name=name or kind,
            mime_type=mime,
            modified=self.document.modified,
            version=self.document.version,
            title=PurePath(name).stem if name else kind,
        )
        try:
            loaded = load_bytes(data, doc)
        except LoaderError as exc:
            self.warnings.append(f"attachment {name or kind!r} not read: {exc}")
            return
        # An attachment's document has the message's uri, which a warning would name twice.
        self.warnings.extend(f"attachment {name!r}: {w.removeprefix(f'{doc.uri}: ')}" for w in loaded.warnings)
        if not loaded.blocks:  # an icon, a blank image, an empty file: its warning names it, no empty section
            return
        yield Block("heading", heading, path, level=len(path) - 1, meta=BlockMeta(attachment=name))
        for block in loaded.blocks:
            meta = BlockMeta(**{**block.meta, "attachment": name})
            yield replace(block, path=(*path, *block.path[1:]), start=None, end=None, meta=meta)


def _under(root: tuple[str, ...], blocks: Iterator[Block]) -> Iterator[Block]:
    """Blocks placed under an empty root, moved under `root`; headings one level below it."""
    for block in blocks:
        yield replace(block, path=(*root, *block.path[1:]))


_QUOTE_CLASSES = {"gmail_quote": "quoted", "gmail_attr": "attribution", "moz-cite-prefix": "attribution",
                  "gmail_signature": "signature", "moz-signature": "signature", "yahoo_quoted": "quoted"}  # fmt: skip


def classify_html(el: etree._Element) -> BlockMeta | None:
    """What a mail client marks in its HTML: a cited reply (`<blockquote type="cite">`, Gmail's
    and Thunderbird's classes, Outlook's reply header and all after it), the attribution line, the
    signature."""
    if el.tag == "blockquote" and (el.get("type") or "").lower() == "cite":
        return BlockMeta(mail="quoted")
    for name in (el.get("class") or "").split():
        if name in _QUOTE_CLASSES:
            return BlockMeta(mail=_QUOTE_CLASSES[name])  # type: ignore[typeddict-item]
    if el.get("data-smartmail") == "gmail_signature":
        return BlockMeta(mail="signature")
    if el.get("id") == "divRplyFwdMsg" or any(s.get("id") == "divRplyFwdMsg" for s in el.itersiblings(preceding=True)):
        return BlockMeta(mail="quoted")
    return None
