"""The base of every options model: typed, checked once at the edge, frozen.

An unknown key is an error naming it (a misspelt option must not be accepted silently), and the
options cannot change once a run has them.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class StrictOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
