"""Prompt templates (``prompts/*.md``): static role text first, the variable parts last.

The system part holds what repeats across calls (role text; for the API roles, the offered APIs' documentation),
so a backend with prompt caching evaluates it once; the user part holds the step's state, history and request.

Each template has a system part and a user part separated by a ``=== USER ===`` line, and
``${name}`` placeholders (string.Template, so braces in JSON examples need no escaping). Document
text is placed inside ``<document_state>`` delimiters and cannot close them.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from string import Template
from typing import Any

from autodw.core.ids import prefixes_of_pattern
from autodw.llm.base import Message

PROMPT_DIR = Path(__file__).with_name("prompts")
ROLES_TEMPLATES = {"planner": "planner.md", "api_chooser": "api_chooser.md", "api_generator": "api_generator.md",
                   "validator": "validator.md",
                   # the baselines of autodw.eval.baselines: the whole instruction as calls at once; every step at once
                   "program": "program.md", "plan_all": "plan_all.md"}

#: the token limit of an answer that holds a whole instruction: the one-shot baselines' dozen calls with their arguments,
#: hybrid's plan of every step (the agent's answers are one call or step each, within the backend's default of 512;
#: 512 cut the local model's one-shot answers and hybrid's first plan on mini short)
PROGRAM_TOKENS = 3072

PLANNER_SCHEMA = {
    "type": "object",
    "properties": {"done": {"type": "boolean"}, "sub_instruction": {"type": ["string", "null"]},
                   "remaining": {"type": "array", "items": {"type": "string", "maxLength": 200}, "maxItems": 6},
                   "reason": {"type": "string", "maxLength": 300}},
    "required": ["done", "sub_instruction"],
}


def planner_schema(require_remaining: bool = False) -> dict[str, Any]:
    """The planner's answer schema; `require_remaining` makes "remaining" (the operations still needed after this one)
    required, so a constrained decoder always states it."""
    if not require_remaining:
        return PLANNER_SCHEMA
    return {**PLANNER_SCHEMA, "required": ["done", "sub_instruction", "remaining"]}


VALIDATOR_SCHEMA = {
    "type": "object",
    "properties": {"decision": {"type": "string", "enum": ["pass", "fail"]},
                   "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                   "explanation": {"type": "string", "maxLength": 400}},
    "required": ["decision", "confidence", "explanation"],
}


@lru_cache(maxsize=None)
def template(role: str) -> tuple[Template, Template]:
    """The system and user parts of `role`'s prompt template (their ``${name}`` placeholders unfilled)."""
    text = (PROMPT_DIR / ROLES_TEMPLATES[role]).read_text(encoding="utf-8")
    system, user = text.split("=== USER ===\n", 1)
    return Template(system.strip()), Template(user)


def fence(text: str) -> str:
    """Document text made safe to sit between the state delimiters (it cannot close them)."""
    return text.replace("</document_state>", "<\\/document_state>").replace("<document_state>", "<document_state\\>")


def messages(role: str, **values: str) -> list[Message]:
    """The chat messages of one role's prompt, placeholders filled."""
    system, user = template(role)
    if "state" in values:
        values["state"] = fence(values["state"])
    return [{"role": "system", "content": system.substitute(values)},
            {"role": "user", "content": user.substitute(values)}]


#: the most ids an array of element ids in an answer holds: a call on more elements leaves the list out or names a
#: table. A 1.5B model listed a long document's paragraph ids until its 512-token limit; 40 ids are ~250 tokens, and the
#: longest list a DWBench 2.0 hand dev gold call gives has 20 (tuned_on: dwbench-2.0/hand/dev). The default of the
#: agent's max_id_items (autodw.agent.config), which the hosted profile lifts (hand dev-sixteenth's dwh-258#5 lists 78)
MAX_ID_ITEMS = 40


def api_call_schema(specs: list[Any], known_ids: list[str] | None = None,
                    max_items: int | None = MAX_ID_ITEMS) -> dict[str, Any]:
    """The answer schema of the API generator: one of the candidate APIs with its argument schema; with
    `known_ids`, element ids are grounded in the document, an array of them up to `max_items` long (see
    :func:`ground_ids`)."""
    return {"anyOf": [{"type": "object",
                       "properties": {"api": {"type": "string", "enum": [s.name]},
                                      "args": s.parameters if known_ids is None else
                                      ground_ids(s.parameters, known_ids, max_items)},
                       "required": ["api", "args"]} for s in specs]}


MAX_GROUNDED_IDS = 400  # above this many ids of a kind, the id pattern is kept (a grammar of thousands of names is slow)


def ground_ids(schema: Any, known_ids: list[str], max_items: int | None = MAX_ID_ITEMS) -> Any:
    """A copy of `schema` in which every element-id pattern becomes the enum of the document's ids of those kinds,
    and every array of element ids holds at most as many items as there are such ids, and at most `max_items` (None:
    no more). A constrained decoder then cannot name an element that does not exist, nor run on through p42, p43, ...
    (a 1.5B model listed ids until its token limit)."""
    if isinstance(schema, list):
        return [ground_ids(item, known_ids, max_items) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: ground_ids(value, known_ids, max_items) for key, value in schema.items()}
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and prefixes_of_pattern(pattern):
        ids = [i for i in known_ids if re.match(pattern, i)]
        if 0 < len(ids) <= MAX_GROUNDED_IDS:
            del out["pattern"]
            out["enum"] = ids
    items = out.get("items")
    if out.get("type") == "array" and isinstance(items, dict):
        caps = [out["maxItems"]] if "maxItems" in out else []
        caps += [len(items["enum"])] if "enum" in items else []
        caps += [max_items] if max_items is not None and _is_id(schema["items"]) else []
        if caps:
            out["maxItems"] = min(caps)
    return out


def _is_id(schema: dict[str, Any]) -> bool:
    """Whether `schema` is that of an element id (a pattern of id prefixes)."""
    pattern = schema.get("pattern")
    return isinstance(pattern, str) and bool(prefixes_of_pattern(pattern))


def cut_answer_hint(specs: list[Any]) -> str:
    """What an API generator's answer cut at its token limit is told: to name fewer ids, and the optional lists of
    element ids of `specs` it may leave out (a search's "paragraphs": the whole document is searched)."""
    lists = ", ".join(f'"{name}"' for name in optional_id_lists(specs))
    return ("Write a shorter answer (fewer ids, shorter texts)" +
            (f"; leave out the optional {lists} where the API then acts on the whole document" if lists else "") + ".")


def optional_id_lists(specs: list[Any]) -> list[str]:
    """The optional arguments of `specs` that are lists of element ids."""
    names = []
    for spec in specs:
        required = set(spec.parameters.get("required", ()))
        for name, schema in spec.parameters.get("properties", {}).items():
            items = schema.get("items")
            if name not in required and schema.get("type") == "array" and isinstance(items, dict) and _is_id(items) \
                    and name not in names:
                names.append(name)
    return names


def api_choice_schema(names: list[str]) -> dict[str, Any]:
    """The answer schema of the API chooser (two-stage generation): the name of one candidate API."""
    return {"type": "object", "properties": {"api": {"type": "string", "enum": list(names)}}, "required": ["api"]}


def format_call(api: str, args: dict[str, Any]) -> str:
    """``name({...})`` with compact JSON arguments."""
    return f"{api}({json.dumps(args, ensure_ascii=False)})"
