"""Untrusted model output: find the JSON object in a completion and validate it against a schema.

Never ``eval``: the text is parsed with ``json`` and checked with jsonschema.
"""

from __future__ import annotations

import json
import re
from typing import Any

from jsonschema import Draft202012Validator

from autodw.errors import LLMOutputError

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def parse_json_object(text: str) -> dict[str, Any]:
    """The first JSON object in `text` (code fences and prose around it are tolerated)."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for candidate in candidates:
        start = candidate.find("{")
        while start != -1:
            try:
                value, _ = json.JSONDecoder().raw_decode(candidate[start:])
            except json.JSONDecodeError:
                start = candidate.find("{", start + 1)
                continue
            if isinstance(value, dict):
                return value
            start = candidate.find("{", start + 1)
    raise LLMOutputError(f"no JSON object found in the model's answer: {_preview(text)}")


def validate(value: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """`value` if it matches `schema`; LLMOutputError listing the problems otherwise."""
    errors = sorted(Draft202012Validator(schema).iter_errors(value), key=lambda e: list(e.path))
    if errors:
        problems = "; ".join(f"{'.'.join(map(str, e.path)) or 'answer'}: {e.message}" for e in errors[:5])
        raise LLMOutputError(f"the answer does not match the required format: {problems}")
    return value


def _preview(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[:limit] + "...")
