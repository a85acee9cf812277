"""Partial responses: parsing the `fields` selector, validating it against the client's own
discovery schemas, and applying it to an answer."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import googleapiclient

from .errors import ApiError, invalid

_DISCOVERY = Path(googleapiclient.__file__).parent / "discovery_cache" / "documents"
DRIVE_SCHEMAS = json.loads((_DISCOVERY / "drive.v3.json").read_text())["schemas"]
DOCS_SCHEMAS = json.loads((_DISCOVERY / "docs.v1.json").read_text())["schemas"]
SHEETS_SCHEMAS = json.loads((_DISCOVERY / "sheets.v4.json").read_text())["schemas"]

# Drive's default partial response when a request names no `fields` (a shared drive's items carry
# their driveId and teamDriveId in it too: only they have those fields).
_DEFAULT_FILE = "kind,id,name,mimeType,driveId,teamDriveId"
_DEFAULT_FIELDS = {
    "get": _DEFAULT_FILE,
    "list": f"kind,incompleteSearch,nextPageToken,files({_DEFAULT_FILE})",
    "changes": (
        f"kind,nextPageToken,newStartPageToken,changes(kind,changeType,type,time,removed,fileId,driveId,"
        f"drive(kind,id,name),file({_DEFAULT_FILE}))"
    ),
}


def parse_fields(text: str) -> dict[str, Any]:
    """`a,b(c,d/e),f/g` -> {"a": {}, "b": {"c": {}, "d": {"e": {}}}, "f": {"g": {}}}; {} = whole value."""
    pos = 0

    def parse_list(end: str | None) -> dict[str, Any]:
        nonlocal pos
        tree: dict[str, Any] = {}
        while True:
            m = re.compile(r"\s*([A-Za-z_*][\w*]*(?:/[A-Za-z_*][\w*]*)*)\s*").match(text, pos)
            if not m:
                raise invalid("fields", f"Invalid field selection {text[pos:] or text}")
            pos = m.end()
            node = tree
            for part in m.group(1).split("/"):
                node = node.setdefault(part, {})
            if pos < len(text) and text[pos] == "(":
                pos += 1
                node.update(parse_list(")"))
            if pos < len(text) and text[pos] == ",":
                pos += 1
                continue
            if end and pos < len(text) and text[pos] == end:
                pos += 1
                return tree
            if end is None and pos == len(text):
                return tree
            raise invalid("fields", f"Invalid field selection {text}")

    return parse_list(None)


def check_fields(tree: dict[str, Any], schema: dict[str, Any], schemas: dict[str, Any]) -> None:
    while "$ref" in schema or "items" in schema:
        schema = schemas[schema["$ref"]] if "$ref" in schema else schema["items"]
    props = schema.get("properties")
    if props is None:
        if tree and "additionalProperties" in schema:
            for sub in tree.values():
                check_fields(sub, schema["additionalProperties"], schemas)
        return
    for name, sub in tree.items():
        if name == "*":
            continue
        if name not in props:
            raise ApiError(400, f"Invalid field selection {name}", "invalidParameter", location="fields")
        if sub:
            check_fields(sub, props[name], schemas)


def select(value: Any, tree: dict[str, Any]) -> Any:
    if not tree or "*" in tree:
        return value
    if isinstance(value, list):
        return [select(v, tree) for v in value]
    if isinstance(value, dict):
        return {k: select(value[k], sub) for k, sub in tree.items() if k in value}
    return value


def json_response(
    value: dict[str, Any], p: dict[str, str], schema: str, schemas: dict[str, Any], default: str | None
) -> tuple[int, dict[str, str], bytes]:
    spec = p["fields"] if "fields" in p else _DEFAULT_FIELDS.get(default or "")
    if spec is not None:
        if spec.strip() == "":
            value = {}
        else:
            tree = parse_fields(spec)
            check_fields(tree, schemas[schema], schemas)
            value = select(value, tree)
    return 200, {"Content-Type": "application/json; charset=UTF-8"}, json.dumps(value).encode()
