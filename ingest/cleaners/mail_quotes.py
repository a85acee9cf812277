"""Drop what an e-mail repeats or signs rather than says: quoted replies, the "On ... wrote:" line
that opens them, and signatures, as the mail loader marked them (`meta["mail"]`). Each message of
a thread is its own file, so the quoted text is indexed where it was written."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pydantic import Field

from ..blocks import Block
from ..options import StrictOptions
from . import CleanContext, Cleaner, drop_blocks


class MailQuoteOptions(StrictOptions):
    keep_quotes: bool = Field(False)
    """Keep quoted replies and their attribution lines."""
    keep_signatures: bool = Field(False)
    """Keep signatures."""


def drop_mail_quotes(blocks: Iterable[Block], ctx: CleanContext) -> Iterator[Block]:
    opts = ctx.options_as(MailQuoteOptions)
    dropped = set()
    if not opts.keep_quotes:
        dropped |= {"quoted", "attribution"}
    if not opts.keep_signatures:
        dropped.add("signature")
    return drop_blocks(blocks, lambda b: b.meta.get("mail") in dropped, ctx)


cleaner = Cleaner(
    name="mail_quotes",
    run=drop_mail_quotes,
    options=MailQuoteOptions,
    default_for=frozenset({"message/rfc822", "application/mbox"}),
)
