"""Placeholder: filled in next."""
from __future__ import annotations
def chunk(loaded, options=None, blocks=None):
    raise NotImplementedError
