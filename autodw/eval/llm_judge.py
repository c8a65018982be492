"""The LLM judge of the AutoDW paper: a model compares the expected and actual states for an instruction.

The model's answer is untrusted: it is parsed as JSON (never evaluated), checked against
:data:`JUDGE_SCHEMA` and for consistency (a "not equivalent" verdict must name a difference, an
"equivalent" one none); an invalid answer is shown its error and asked again a bounded number of
times, then LLMOutputError is raised.
"""

from __future__ import annotations

from pathlib import Path
from string import Template
from typing import Any

from autodw.analysis.align import align_ids
from autodw.analysis.change_summary import summarize_change
from autodw.analysis.changes import analyze_change
from autodw.core.errors import LLMOutputError
from autodw.eval.canonical import Source, prepare
from autodw.eval.judge import Difference, Verdict
from autodw.llm.base import LLMBackend, Message, Usage
from autodw.llm.jsonout import ask_json, validate
from autodw.analysis.state.render import render_state

ROLE = "judge"
OUTPUT_RETRIES = 2
STATE_BUDGET = 1500  # tokens per document state in the prompt (the local model's context is small)
CHANGE_LINES = 40

JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "equivalent": {"type": "boolean"},
        "differences": {
            "type": "array", "maxItems": 20,
            "items": {"type": "object",
                      "properties": {"where": {"type": "string", "minLength": 1, "maxLength": 200},
                                     "what": {"type": "string", "minLength": 1, "maxLength": 300}},
                      "required": ["where", "what"], "additionalProperties": False},
        },
    },
    "required": ["equivalent", "differences"],
    "additionalProperties": False,
}
_FREE_TEXT_RULE = ("The instruction asks for free text: judge the written text by its place, type (style, list, "
                   "table cell...), formatting and a reasonable length, not by its exact words.")


def llm_judge(expected: Source, actual: Source, *, llm: LLMBackend, instruction: str | None = None,
              free_text: bool = False, state_budget: int | None = STATE_BUDGET) -> Verdict:
    """Ask `llm` whether `actual` is equivalent to `expected` for `instruction` (see the module docstring)."""
    exp = prepare(expected).state
    act = align_ids(exp, prepare(actual).state)  # the same ids for corresponding elements
    system, user = _templates()
    values = {
        "free_text_rule": _FREE_TEXT_RULE if free_text else "",
        "instruction": instruction or "(not given)",
        "changes": summarize_change(analyze_change(exp, act), max_lines=CHANGE_LINES) or "(none)",
        "expected": render_state(exp, budget_tokens=state_budget),
        "actual": render_state(act, budget_tokens=state_budget),
    }
    conversation: list[Message] = [{"role": "system", "content": system.substitute(values).strip()},
                                   {"role": "user", "content": user.substitute(values)}]
    usage = Usage()
    answer = ask_json(llm, conversation, role=ROLE, schema=JUDGE_SCHEMA, check=check_answer, retries=OUTPUT_RETRIES,
                      on_answer=lambda _, completion: usage.add(completion.usage))
    diffs = [Difference(d["where"].strip(), d["what"].strip()) for d in answer["differences"]]
    return Verdict(answer["equivalent"], diffs, judge="llm", usage=usage.to_dict())


def check_answer(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer if it matches the schema and is consistent; LLMOutputError saying what is wrong otherwise."""
    validate(answer, JUDGE_SCHEMA)
    if not answer["equivalent"] and not answer["differences"]:
        raise LLMOutputError('"equivalent" is false but "differences" is empty: name at least one difference')
    if answer["equivalent"] and answer["differences"]:
        raise LLMOutputError('"equivalent" is true but "differences" is not empty: leave it empty or answer false')
    if any(not d["where"].strip() or not d["what"].strip() for d in answer["differences"]):
        raise LLMOutputError('every difference needs a non-blank "where" and "what"')
    return answer


def _templates() -> tuple[Template, Template]:
    text = (Path(__file__).with_name("judge_prompt.md")).read_text(encoding="utf-8")
    system, user = text.split("=== USER ===\n", 1)
    return Template(system), Template(user)
