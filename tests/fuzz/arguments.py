"""Argument validation on values of the wrong type, length or encoding.

One input: an API and arguments drawn from its schema with most values wrong on purpose (another type, out of
range, NaN, 2**63, lone surrogates, control characters, a megabyte, nesting 100,000 deep, a list of a million,
keys that are not strings), or not an object at all. The promise: ``validate_arguments`` returns the arguments
or raises ArgumentError, in bounded time; a call with arguments it let through is refused with an ApiError or
edits (never an internal error); the message of a refusal is one line of bounded length.
"""

from __future__ import annotations

from tests.fuzz import outcome
from tests.fuzz.draw import Draw, coin, pick
from tests.fuzz.mutate import ROOT
from tests.fuzz.outcome import Crash, checked, stage
from tests.fuzz.schema_draw import Context, value
from tests.fuzz.seams import ApiError, ArgumentError, InternalError, WordDocument, execute, extract_state, registry

MESSAGE_LIMIT = 5000  # characters: a refusal goes back to the model; it must not echo a megabyte


def nested(depth: int):
    out: object = 1
    for _ in range(depth):
        out = [out]
    return out


def odd_arguments(draw: Draw) -> object:
    """Arguments that are not an object, or an object with odd keys."""
    return pick(draw, (None, [], "text", 5, 1.5, True, [{"text": "x"}], {1: "x"}, {"": "x"}, {"\ud800": 1},
                       {"text": nested(100_000)}, {"text": ["x"] * 1_000_000}, {"a" * 100_000: 1},
                       {"position": {"after": {"after": {"after": "p1"}}}}, {"text": 10**400}, {"text": -0.0}))


class ArgumentHarness:
    def __init__(self) -> None:
        self.specs = list(registry())
        self.report = (ROOT / "examples" / "report.docx").read_bytes()
        self.ctx = Context.of(extract_state(WordDocument.from_bytes(self.report, "report.docx")), ["picture.png"],
                              wrong=60)

    def one(self, draw: Draw) -> dict:
        spec = pick(draw, self.specs)
        args = odd_arguments(draw) if coin(draw, 15) else value(draw, spec.parameters, self.ctx)
        case = {"api": spec.name, "args": args}
        return checked(self.check, case)

    def check(self, case: dict) -> dict:
        from autodw.apis import validate_arguments

        spec = registry().get(case["api"])
        with outcome.limits():
            try:
                with stage("validate_arguments", (ArgumentError,)):
                    valid = validate_arguments(spec, case["args"])
            except ArgumentError as exc:
                _one_line(str(exc))
                return {"outcome": "refused"}
            if spec.writes_files:  # no file is written by this harness
                return {"outcome": "valid"}
            doc = WordDocument.from_bytes(self.report, "report.docx")
            try:
                with stage("execute", (ApiError, InternalError)):
                    execute(doc, spec.name, valid)
            except ApiError as exc:
                _one_line(str(exc))
                return {"outcome": "valid_refused"}
            except InternalError as exc:
                raise Crash("internal", spec.name, str(exc)[:300], exc.traceback) from exc
        return {"outcome": "valid_done"}


def _one_line(message: str) -> None:
    if len(message) > MESSAGE_LIMIT:
        raise Crash("long_message", "refusal", f"a refusal of {len(message)} characters: {message[:200]}")
