"""Which paths of a source tree are wanted: include and exclude globs, read as git reads .gitignore.

- `*`, `?` and `[...]` stay within a folder; `**` crosses folders (`**/` also matches none);
  `\\` makes the next character literal (`*\\[DRAFT\\]*`);
- a pattern without a slash matches a name at any depth; a leading `/` anchors it to the root;
  a trailing `/` matches folders only;
- `!pattern` takes back what an earlier pattern of the same list matched: the last pattern that
  matches a path decides;
- a folder a list matches takes everything in it, and, as in git, nothing inside it can be taken
  back: an excluded folder is not even walked. `docs/*` matches what is in `docs`, not `docs`
  itself, so `!docs/keep.md` after it keeps that file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated

from pydantic import AfterValidator


@dataclass(frozen=True, slots=True)
class Rule:
    pattern: re.Pattern
    negated: bool
    """`!pattern`: a match takes the path back."""
    folders_only: bool
    """`pattern/`: matches folders, never files."""


@dataclass(frozen=True, slots=True)
class Globs:
    include: tuple[Rule, ...]
    exclude: tuple[Rule, ...]

    @classmethod
    def of(cls, include: Sequence[str], exclude: Sequence[str]) -> Globs:
        return cls(tuple(map(rule, include)), tuple(map(rule, exclude)))

    def wanted(self, path: str) -> bool:
        """Whether the file at `path` (relative, "/"-separated) is taken."""
        return _matched(path, self.include, folder=False) and not _matched(path, self.exclude, folder=False)

    def excludes_folder(self, path: str) -> bool:
        """Whether the folder at `path` is excluded, with all it holds: it need not be walked."""
        return _matched(path, self.exclude, folder=True)


def _matched(path: str, rules: tuple[Rule, ...], folder: bool) -> bool:
    """git's walk: a folder above `path` that the rules match takes it; otherwise the last rule
    that matches `path` itself decides."""
    parts = path.split("/")
    for i in range(1, len(parts)):
        if _last(rules, "/".join(parts[:i]), folder=True):
            return True
    return _last(rules, path, folder)


def _last(rules: tuple[Rule, ...], path: str, folder: bool) -> bool:
    decision = False
    for r in rules:
        if (folder or not r.folders_only) and r.pattern.fullmatch(path):
            decision = not r.negated
    return decision


def rule(text: str) -> Rule:
    """One pattern as written in a config; a malformed one raises ValueError saying why."""
    negated = text.startswith("!")
    body = text[1:] if negated else text
    folders_only = body.endswith("/") and not body.endswith("\\/")
    try:
        return Rule(compile_glob(body.rstrip("/") if folders_only else body), negated, folders_only)
    except re.error as exc:
        raise ValueError(f"{text!r} is not a valid glob ({exc})") from None


def compile_glob(pattern: str) -> re.Pattern:
    """One pattern (without `!` or a trailing `/`) as a regular expression over relative paths."""
    if pattern.startswith("/"):
        pattern = pattern.lstrip("/")
    elif "/" not in pattern:
        pattern = "**/" + pattern
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
        elif pattern.startswith("**/", i):
            out.append("(?:[^/]+/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[" and (end := _class_end(pattern, i)) > 0:
            body = pattern[i + 1 : end]
            negated = body[:1] in ("!", "^")
            body = body[1:] if negated else body
            body = re.sub(r"\\(.)", lambda m: re.escape(m.group(1)), body.replace("[", "\\["))
            out.append(f"[^/{body}]" if negated else f"(?!/)[{body}]")
            i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out))


def _class_end(pattern: str, start: int) -> int:
    """Index of the `]` closing the class opened at `start` (-1: a literal `[`); a `]` right
    after the opening (or after `!`/`^`) belongs to the class, and `\\]` is escaped."""
    i = start + 1
    if i < len(pattern) and pattern[i] in "!^":
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        i += 1
    while i < len(pattern):
        if pattern[i] == "\\":
            i += 2
            continue
        if pattern[i] == "]":
            return i
        i += 1
    return -1


def _valid(patterns: list[str]) -> list[str]:
    for pattern in patterns:
        rule(pattern)  # a malformed glob is a config error now, not a traceback mid-run
    return patterns


GlobList = Annotated[list[str], AfterValidator(_valid)]
"""A config's list of globs, each checked when the config loads."""
