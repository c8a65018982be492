"""JSON files checked against a JSON Schema (jsonschema): an unreadable or malformed file is one ConfigError that
names the file and where in it the schema is not met."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from autodw.core.errors import ConfigError


def read_checked(path: str | Path, schema: dict[str, Any], what: str) -> Any:
    """The data of the JSON file `path` (`what` it is, for the message: "the provenance file"), validated against
    `schema`; ConfigError if it cannot be read, is not JSON or does not meet the schema."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"cannot read {what} {path}: {exc}") from None
    try:
        jsonschema.validate(data, schema)
    except jsonschema.ValidationError as exc:
        where = "/".join(map(str, exc.absolute_path)) or "the top level"
        raise ConfigError(f"{path} is malformed at {where}: {exc.message}") from None
    return data
