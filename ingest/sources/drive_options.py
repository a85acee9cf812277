"""Options of the Google Drive source (`source: {drive: {...}}`), beside its code in `drive.py`.

Kept apart from `drive.py` so that reading a config never loads the Google client libraries.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, model_validator

from ..options import StrictOptions
from .globs import GlobList


class DriveSourceConfig(StrictOptions):
    folder_id: str | None = Field(None, min_length=1)
    """The folder whose tree is synced (the id in its URL), or "root" for all of My Drive."""
    folder_ids: list[Annotated[str, Field(min_length=1)]] = Field(default_factory=list)
    """More folders synced by the same source, beside or instead of `folder_id`; each roots its
    own paths (globs match inside each), and each drive they live in has its own change cursor."""
    follow_shortcuts: bool = True
    """Index what shortcuts in the tree point at (files once each; folders walked as if there)."""
    concurrency: int = Field(8, ge=1, le=64)
    """Files fetched at once, each on its own connection, all under one shared rate-limit back-off."""
    credentials: Path | None = None
    """A service-account or authorized-user JSON key file; unset: Application Default Credentials."""
    subject: str | None = None
    """With a service account and domain-wide delegation: the user to act as."""
    token: str | None = None
    """A ready OAuth access token instead of a key file (e.g. `${DRIVE_TOKEN}`); short-lived."""
    include: GlobList = Field(default_factory=lambda: ["**/*"])
    """Globs over paths inside the folder (folder names joined by "/"), as for local sources."""
    exclude: GlobList = Field(default_factory=list)
    shared_drive_id: str | None = None
    """The shared drive the folder lives in; unset, it is read from the folder itself."""
    max_file_mb: float = Field(100, gt=0)
    """Larger files are reported and skipped rather than downloaded."""
    retries: int = Field(5, ge=0, le=10)
    """Retries of a request that meets a rate limit, a 5xx or a dropped connection, with
    exponential back-off and jitter (or as long as Retry-After asks)."""
    timeout_s: float = Field(60, gt=0)
    drive_endpoint: str = "https://www.googleapis.com/drive/v3/"
    docs_endpoint: str = "https://docs.googleapis.com/"
    sheets_endpoint: str = "https://sheets.googleapis.com/"
    """Endpoints to talk to: Google's by default (a proxy or a test server otherwise)."""

    def roots(self) -> tuple[str, ...]:
        """Every folder synced, `folder_id` first, each once."""
        return tuple(dict.fromkeys([*([self.folder_id] if self.folder_id else []), *self.folder_ids]))

    @model_validator(mode="after")
    def _one_credential(self) -> DriveSourceConfig:
        if not self.roots():
            raise ValueError("give folder_id or folder_ids: the folder(s) to sync")
        if self.credentials is not None and self.token is not None:
            raise ValueError("give credentials (a key file) or token, not both")
        if self.credentials is not None and not self.credentials.is_file():
            raise ValueError(f"credentials file {self.credentials} does not exist")
        return self
