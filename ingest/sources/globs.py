"""Which paths of a source tree are wanted: include and exclude globs, as in .gitignore.

- `*`, `?` and `[...]` stay within a folder; `**` crosses folders (`**/` also matches none);
- a pattern without a slash matches a name at any depth; a leading `/` anchors it to the root;
- a pattern that names a folder takes everything in it; a trailing `/` matches folders only;
- `!pattern` takes back what an earlier pattern of the same list matched: the last pattern that
  matches a path decides. As in git, nothing inside an excluded folder can be taken back: the
  folder is not even walked, so an unreadable or huge excluded folder costs nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

Rule = tuple[re.Pattern, bool]
"""A compiled pattern and whether it was negated (`!`)."""


@dataclass(frozen=True, slots=True)
class Globs:
    include: tuple[Rule, ...]
    exclude: tuple[Rule, ...]

    @classmethod
    def of(cls, include: Sequence[str], exclude: Sequence[str]) -> Globs:
        return cls(tuple(map(_rule, include)), tuple(map(_rule, exclude)))

    def wanted(self, path: str) -> bool:
        """Whether the file at `path` (relative, "/"-separated) is taken."""
        return _decide(path, self.include) and not _decide(path, self.exclude)

    def excludes_folder(self, path: str) -> bool:
        """Whether everything under the folder at `path` is excluded, so it need not be walked."""
        return _decide(path + "/\x00", self.exclude)


def _decide(path: str, rules: tuple[Rule, ...]) -> bool:
    decision = False
    for pattern, negated in rules:
        if pattern.fullmatch(path):
            decision = not negated
    return decision


def _rule(pattern: str) -> Rule:
    negated = pattern.startswith("!")
    return compile_glob(pattern[1:] if negated else pattern), negated


def compile_glob(pattern: str) -> re.Pattern:
    """One pattern (without `!`) as a regular expression over relative paths."""
    folder = pattern.endswith("/")
    pattern = pattern.rstrip("/")
    if pattern.startswith("/"):
        pattern = pattern.lstrip("/")
    elif "/" not in pattern:
        pattern = "**/" + pattern
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]+/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and (end := pattern.find("]", i + 2)) > 0:
            body = pattern[i + 1 : end]
            negated = body[0] in "!^"
            body = (body[1:] if negated else body).replace("\\", "\\\\")
            out.append(f"[^/{body}]" if negated else f"(?!/)[{body}]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + ("/.*" if folder else "(?:/.*)?"))
