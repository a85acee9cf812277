"""Google credentials from the config: a ready token, a service-account or authorized-user key
file, or Application Default Credentials.

The secret itself travels as a `DriveKey`: the token or the key file's text, read once on the
driver, so a Ray worker on another machine builds its own client without the file. Its repr
hides what it holds, so a log line or a traceback that prints it shows nothing to reuse.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..errors import ConfigError
from .drive_options import DriveSourceConfig

SCOPES = (
    "https://www.googleapis.com/auth/drive.readonly",
    "https://www.googleapis.com/auth/documents.readonly",
)
"""drive.readonly also opens the Sheets API's spreadsheets.get (a sheet's tab ids, for links), so
no scope a domain administrator granted before has to be added."""


@dataclass(frozen=True, slots=True)
class DriveKey:
    """What signs the requests in: a token, a key file's JSON text, or neither (Application Default
    Credentials, found where the client runs). Never shown: its repr names only its kind."""

    token: str | None = field(default=None, repr=False)
    key_json: str | None = field(default=None, repr=False)
    origin: str = ""
    """Where the key file was read (named in errors; not secret)."""
    subject: str | None = None

    def __repr__(self) -> str:
        kind = "token" if self.token else "key file" if self.key_json else "default credentials"
        return f"DriveKey({kind}, hidden)"

    __str__ = __repr__

    @classmethod
    def of(cls, config: DriveSourceConfig) -> DriveKey:
        if config.token:
            return cls(token=config.token)
        if config.credentials is None:
            return cls()
        try:
            text = config.credentials.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"not a usable Google key file: {exc}", subject=str(config.credentials)) from exc
        return cls(key_json=text, origin=str(config.credentials), subject=config.subject)


def credentials(config: DriveSourceConfig):
    return credentials_of(DriveKey.of(config))


def credentials_of(key: DriveKey):
    """Google credentials built from `key`, here (on the driver or on a worker)."""
    from google.oauth2 import credentials as user
    from google.oauth2 import service_account

    if key.token:
        return user.Credentials(token=key.token)
    if key.key_json is None:
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
    try:
        info = json.loads(key.key_json)
        kind = info.get("type")
        if kind == "service_account":
            creds = service_account.Credentials.from_service_account_info(info, scopes=SCOPES)
            return creds.with_subject(key.subject) if key.subject else creds
        if kind == "authorized_user":
            return user.Credentials.from_authorized_user_info(info, scopes=SCOPES)
    except (ValueError, AttributeError) as exc:  # their messages name what is wrong, not the key's values
        raise ConfigError(f"not a usable Google key file: {exc}", subject=key.origin) from None
    raise ConfigError("a key file of type service_account or authorized_user is needed", subject=key.origin)
