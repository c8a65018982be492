"""Prompt templates (``prompts/*.md``): static role text first, the variable parts last.

The system part holds what repeats across calls (role text; for the API roles, the offered APIs' documentation),
so a backend with prompt caching evaluates it once; the user part holds the step's state, history and request.

Each template has a system part and a user part separated by a ``=== USER ===`` line, and
``${name}`` placeholders (string.Template, so braces in JSON examples need no escaping). Document
text is placed inside ``<document_state>`` delimiters and cannot close them.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from string import Template
from typing import Any

from autodw.llm.base import Message

PROMPT_DIR = Path(__file__).with_name("prompts")
ROLES_TEMPLATES = {"planner": "planner.md", "api_chooser": "api_chooser.md", "api_generator": "api_generator.md",
                   "validator": "validator.md"}

PLANNER_SCHEMA = {
    "type": "object",
    "properties": {"done": {"type": "boolean"}, "sub_instruction": {"type": ["string", "null"]},
                   "reason": {"type": "string", "maxLength": 300}},
    "required": ["done", "sub_instruction"],
}
VALIDATOR_SCHEMA = {
    "type": "object",
    "properties": {"decision": {"type": "string", "enum": ["pass", "fail"]},
                   "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                   "explanation": {"type": "string", "maxLength": 400}},
    "required": ["decision", "confidence", "explanation"],
}


@lru_cache(maxsize=None)
def _template(role: str) -> tuple[Template, Template]:
    text = (PROMPT_DIR / ROLES_TEMPLATES[role]).read_text(encoding="utf-8")
    system, user = text.split("=== USER ===\n", 1)
    return Template(system.strip()), Template(user)


def fence(text: str) -> str:
    """Document text made safe to sit between the state delimiters (it cannot close them)."""
    return text.replace("</document_state>", "<\\/document_state>").replace("<document_state>", "<document_state\\>")


def messages(role: str, **values: str) -> list[Message]:
    """The chat messages of one role's prompt, placeholders filled."""
    system, user = _template(role)
    if "state" in values:
        values["state"] = fence(values["state"])
    return [{"role": "system", "content": system.substitute(values)},
            {"role": "user", "content": user.substitute(values)}]


def api_call_schema(specs: list[Any]) -> dict[str, Any]:
    """The answer schema of the API generator: one of the candidate APIs with its argument schema."""
    return {"anyOf": [{"type": "object",
                       "properties": {"api": {"type": "string", "enum": [s.name]}, "args": s.parameters},
                       "required": ["api", "args"]} for s in specs]}


def api_choice_schema(names: list[str]) -> dict[str, Any]:
    """The answer schema of the API chooser (two-stage generation): the name of one candidate API."""
    return {"type": "object", "properties": {"api": {"type": "string", "enum": list(names)}}, "required": ["api"]}


def format_call(api: str, args: dict[str, Any]) -> str:
    """``name({...})`` with compact JSON arguments."""
    return f"{api}({json.dumps(args, ensure_ascii=False)})"
