"""Google credentials from the config: a ready token, a service-account or authorized-user key
file, or Application Default Credentials."""

from __future__ import annotations

import json

from ..errors import ConfigError
from .drive_options import DriveSourceConfig

SCOPES = (
    "https://www.googleapis.com/auth/drive.readonly",
    "https://www.googleapis.com/auth/documents.readonly",
)
"""drive.readonly also opens the Sheets API's spreadsheets.get (a sheet's tab ids, for links), so
no scope a domain administrator granted before has to be added."""


def credentials(config: DriveSourceConfig):
    from google.oauth2 import credentials as user
    from google.oauth2 import service_account

    if config.token:
        return user.Credentials(token=config.token)
    if config.credentials is None:
        import google.auth
        from google.auth.exceptions import DefaultCredentialsError

        try:
            found, _ = google.auth.default(scopes=SCOPES)
        except DefaultCredentialsError as exc:
            raise ConfigError(
                "no Google credentials: set source.drive.credentials (a key file) or "
                "source.drive.token, or configure Application Default Credentials",
                subject="source.drive",
            ) from exc
        return found
    path = str(config.credentials)
    try:
        info = json.loads(config.credentials.read_text(encoding="utf-8"))
        kind = info.get("type")
        if kind == "service_account":
            creds = service_account.Credentials.from_service_account_info(info, scopes=SCOPES)
            return creds.with_subject(config.subject) if config.subject else creds
        if kind == "authorized_user":
            return user.Credentials.from_authorized_user_info(info, scopes=SCOPES)
    except (OSError, ValueError, AttributeError) as exc:
        raise ConfigError(f"not a usable Google key file: {exc}", subject=path) from exc
    raise ConfigError("a key file of type service_account or authorized_user is needed", subject=path)
