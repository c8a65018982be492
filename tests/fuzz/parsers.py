"""The readers of model answers on random and adversarial text: alone, and inside the whole agent.

One input: an answer text (a JSON object drawn from a role's schema, often made wrong: truncated, fenced, in
prose, nested thousands deep, NaN, 1e999, a key twice, a lone surrogate, a megabyte) given to
``parse_json_object`` and ``validate`` with the planner, validator and judge schemas, and to the LLM judge's
answer check; one input in four runs the agent on the sample document with a scripted model answering every
role from such texts. The promise: a parsed object or :class:`~autodw.core.errors.LLMOutputError`; the agent ends
every instruction with a status (an LLMError at most), never an internal error, and leaves a document whose
state extracts.
"""

from __future__ import annotations

import json
from typing import Any

from tests.fuzz import outcome
from tests.fuzz.draw import Draw, coin, pick, small
from tests.fuzz.mutate import ROOT
from tests.fuzz.outcome import Crash, checked, stage
from tests.fuzz.schema_draw import Context, value
from tests.fuzz.seams import LLMError, LLMOutputError, WordDocument, extract_state, registry


def schemas() -> dict[str, dict[str, Any]]:
    from autodw.agent.prompts import PLANNER_SCHEMA, VALIDATOR_SCHEMA
    from autodw.eval.llm_judge import JUDGE_SCHEMA

    return {"planner": PLANNER_SCHEMA, "validator": VALIDATOR_SCHEMA, "judge": JUDGE_SCHEMA}


def answer_text(draw: Draw, schema: dict[str, Any], ctx: Context) -> str:
    """A model's answer: the JSON of a value drawn from `schema`, then perhaps spoiled."""
    obj = value(draw, schema, ctx)
    text = json.dumps(obj, ensure_ascii=coin(draw)) if coin(draw, 90) else repr(obj)
    for _ in range(small(draw, 3)):
        text = pick(draw, SPOILERS)(draw, text)
    return text


def _truncate(draw: Draw, text: str) -> str:
    return text[: draw.int(0, len(text))]


def _fence(draw: Draw, text: str) -> str:
    return pick(draw, ("```json\n{}\n```", "Here is the answer:\n```\n{}\n```\nDone.", "{} and also {}",
                       "Sure! {}", "<think>{{}}</think>{}", "```json\n{}")).replace("{}", text, 1).replace("{}", text)


def _deep(draw: Draw, text: str) -> str:
    n = pick(draw, (30, 1000, 100_000))
    return '{"a":' * n + "1" + "}" * n if coin(draw) else "[" * n + "]" * n + text


def _numbers(draw: Draw, text: str) -> str:
    return text.replace("0.", pick(draw, ("NaN", "Infinity", "-Infinity", "1e999", "1" * 5000 + ".", "0.")), 1)


def _duplicate(draw: Draw, text: str) -> str:
    return text.replace("{", '{"done": true, "done": false, ', 1) if "{" in text else text


def _characters(draw: Draw, text: str) -> str:
    at = draw.int(0, len(text))
    return text[:at] + pick(draw, ("\\ud800", "\ud800", "\x00", "\\u0000", "\ufeff", "\u202e", '"', "\\", "}", "{",
                                   "\n", "\u2028", "\\x41", "'")) + text[at:]


def _huge(draw: Draw, text: str) -> str:
    return text.replace('"', '"' + "x" * pick(draw, (10_000, 1_000_000)), 1)


def _types(draw: Draw, text: str) -> str:
    return pick(draw, ('{"done": "yes", "sub_instruction": 5}', '{"decision": "pass", "confidence": "high"}',
                       '{"equivalent": null, "differences": "none"}', "[]", "null", "42", '"text"', "{}",
                       '{"api": null, "args": []}', '{"api": "insert_paragraph", "args": "text"}', text))


SPOILERS = (_truncate, _fence, _deep, _numbers, _duplicate, _characters, _huge, _types)


class ParserHarness:
    """The answer readers on drawn texts; the agent with a scripted model on one input in four."""

    def __init__(self) -> None:
        self.schemas = schemas()
        self.calls = {s.name: s.parameters for s in registry()}
        self.report = (ROOT / "examples" / "report.docx").read_bytes()
        self.state = extract_state(WordDocument.from_bytes(self.report, "report.docx"))
        self.ctx = Context.of(self.state, [], wrong=10)

    def call_answer(self, draw: Draw) -> str:
        """An API generator's answer: an API name (sometimes unknown) and arguments from its schema."""
        name = pick(draw, list(self.calls)) if coin(draw, 90) else pick(draw, ("no_such_api", "", "insert paragraph"))
        obj = {"api": name, "args": value(draw, self.calls.get(name, {"type": "object"}), self.ctx)}
        text = json.dumps(obj, ensure_ascii=False)
        for _ in range(small(draw, 2)):
            text = pick(draw, SPOILERS)(draw, text)
        return text

    def one(self, draw: Draw) -> dict:
        if coin(draw, 25):
            texts: list[str] = []
            try:
                return self._agent(draw, texts)
            except Crash as crash:
                crash.case = {"agent": texts}
                raise
        role = pick(draw, list(self.schemas))
        return checked(self.check, {"role": role, "text": answer_text(draw, self.schemas[role], self.ctx)})

    def check(self, case: dict) -> dict:
        if "agent" in case:
            return self._agent(None, list(case["agent"]), replay=True)
        return self._parse(case["role"], case["text"])

    def _parse(self, role: str, text: str) -> dict:
        from autodw.eval.llm_judge import check_answer
        from autodw.llm.jsonout import parse_json_object, validate

        with outcome.limits():
            try:
                with stage("parse", (LLMOutputError,)):
                    obj = parse_json_object(text)
                with stage("validate", (LLMOutputError,)):
                    validate(obj, self.schemas[role])
                    if role == "judge":
                        check_answer(obj)
            except LLMOutputError:
                return {"outcome": "refused"}
        return {"outcome": "parsed"}

    def _agent(self, draw: Draw | None, texts: list[str], replay: bool = False) -> dict:
        """The agent on the sample with every answer drawn (or, on replay, the kept answers in order)."""
        from autodw.agent.build import make_agent
        from autodw.llm.scripted import ScriptedBackend

        queue = list(texts)
        if not replay:
            texts.clear()

        def answer(role: str):
            def respond(messages):
                if replay:
                    return queue.pop(0) if queue else "{}"
                if role in ("api_generator", "api_chooser"):
                    text = self.call_answer(draw)
                else:
                    text = answer_text(draw, self.schemas.get(role, {"type": "object"}), self.ctx)
                texts.append(text)
                return text
            return respond

        script = {role: [answer(role)] * 40 for role in ("planner", "api_chooser", "api_generator", "validator")}
        llm = ScriptedBackend(script)
        agent = make_agent(llm, classifier=_AllIntents(), profile="hosted", settings={"max_steps": 3})
        doc = WordDocument.from_bytes(self.report, "report.docx")
        status = "error"
        with outcome.limits():
            try:
                with stage("agent", (LLMError,)):
                    result = agent.run(doc, ["Make the title blue and add a row to the table"])
                    status = result.instructions[0].status
                if status == "internal_error":
                    raise Crash("internal", "agent", result.instructions[0].error or "internal error")
            except LLMError:
                status = "llm_error"
            finally:
                agent.close()
            with stage("state after the agent"):
                extract_state(doc)
        return {"outcome": f"agent:{status}"}


class _AllIntents:
    """An intent classifier that offers the first three intents (the real one is not what is fuzzed here)."""

    def predict(self, text: str, k: int = 3):
        from autodw.apis.registry import INTENTS

        return [(intent, 1.0 / (n + 1)) for n, intent in enumerate(INTENTS[:k])]
