"""Options of the built-in loaders, each under its loader's name at the config's top level
(`pptx: {notes: false}`), checked when the config loads and handed to the loader with each
document. A loader's options are part of the settings stamp of its MIME types, so changing them
re-reads exactly those documents."""

from __future__ import annotations

from ..options import StrictOptions


class PptxOptions(StrictOptions):
    notes: bool = True
    """Speaker notes as blocks of their slide (False: left out)."""


class LoaderOptions(StrictOptions):
    """Every built-in loader's options, by loader name (the names of `BUILTIN_LOADERS`)."""

    pptx: PptxOptions = PptxOptions()

    def of(self, loader: str) -> StrictOptions | None:
        """The options of the built-in loader named `loader`, or None if it takes none."""
        value = getattr(self, loader, None) if loader in type(self).model_fields else None
        return value if isinstance(value, StrictOptions) else None
