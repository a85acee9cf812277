"""What a Drive sync stores between runs: a changes-feed token per change log it follows (the
user's, "", and one per shared drive), the folders of the tree (id -> path), the shortcuts it
followed and the file targets they reached, and the settings the tree was listed under."""

from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class DriveCursor:
    tokens: dict[str, str]
    """Change log ("" for the user's, else a shared drive's id) -> the token to read it from."""
    folders: dict[str, str]
    """Every folder of the tree, shortcut targets included -> its path ("" for a root)."""
    scope: str
    """The settings that decide what belongs (`DriveSource.scope_key`); new settings list again."""
    shortcuts: dict[str, str] = field(default_factory=dict)
    """Shortcut id -> target id, for every shortcut followed."""
    targets: dict[str, str] = field(default_factory=dict)
    """File targets reached only through a shortcut -> the path they are indexed under."""

    @classmethod
    def parse(cls, text: str | None) -> DriveCursor | None:
        if not text:
            return None
        try:
            raw = json.loads(text)
            if raw.get("v") != 2:
                return None  # an older cursor (one token, no shortcuts): list everything once
            strings = lambda d: {str(k): str(v) for k, v in d.items()}  # noqa: E731
            return cls(
                strings(raw["tokens"]),
                strings(raw["folders"]),
                str(raw["scope"]),
                strings(raw["shortcuts"]),
                strings(raw["targets"]),
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            return None  # not ours: list everything

    def dump(self) -> str:
        return json.dumps(
            {
                "v": 2,
                "tokens": self.tokens,
                "folders": self.folders,
                "scope": self.scope,
                "shortcuts": self.shortcuts,
                "targets": self.targets,
            },
            sort_keys=True,
        )
