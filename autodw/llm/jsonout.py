"""Untrusted model output: find the JSON object in a completion and validate it against a schema.

Never ``eval``: the text is parsed with ``json`` and checked with jsonschema.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Callable, TypeVar

from jsonschema import Draft202012Validator

from autodw.core.errors import LLMOutputError, clipped
from autodw.llm.base import Completion, LLMBackend, Message

T = TypeVar("T")

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


#: characters of an answer cut at its token limit shown back to the model with the request to answer shorter (the
#: whole of it is hundreds of tokens of what ran on, a list of ids say)
CUT_ANSWER_SHOWN = 300

#: how deep an answer may nest (a call's arguments nest a few levels); deeper is a degenerate answer
MAX_NESTING = 24


class _Refused(ValueError):
    """JSON that parses but is no answer: NaN or Infinity, a key given twice."""


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"{text} is too large a number")
    return value


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) < len(pairs):
        twice = next(k for n, (k, _) in enumerate(pairs) if k in dict(pairs[:n]))
        raise _Refused(f"the key {twice!r} is given twice")
    return out


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_no_duplicate_keys)


def _depth(value: Any) -> int:
    """How many levels of objects and arrays `value` nests (iteratively: no recursion limit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            stack += [(v, depth + 1) for v in (item.values() if isinstance(item, dict) else item)]
    return deepest


def parse_json_object(text: str) -> dict[str, Any]:
    """The first JSON object in `text` (code fences and prose around it are tolerated). LLMOutputError if there is
    none, or the object holds NaN or Infinity, a key twice, or nests deeper than MAX_NESTING."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for candidate in candidates:
        start = candidate.find("{")
        while start != -1:
            try:
                value, _ = _DECODER.raw_decode(candidate[start:])
            except json.JSONDecodeError:
                start = candidate.find("{", start + 1)
                continue
            except _Refused as exc:
                raise LLMOutputError(f"the answer is not usable JSON: {exc}") from None
            except RecursionError:  # nested beyond what a call's arguments can be
                raise LLMOutputError(f"the model's answer is nested too deeply to read: {_preview(text)}") from None
            if isinstance(value, dict):
                if _depth(value) > MAX_NESTING:
                    raise LLMOutputError(f"the answer nests more than {MAX_NESTING} levels deep: {_preview(text)}")
                return value
            start = candidate.find("{", start + 1)
    raise LLMOutputError(f"no JSON object found in the model's answer: {_preview(text)}")


def validate(value: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """`value` if it matches `schema`; LLMOutputError listing the problems otherwise."""
    errors = sorted(Draft202012Validator(schema).iter_errors(value), key=lambda e: list(e.path))
    if errors:
        # jsonschema quotes the whole value: a 2 MB one would be sent back to the model in the retry prompt
        problems = "; ".join(f"{'.'.join(map(str, e.path)) or 'answer'}: {clipped(e.message, 300)}" for e in errors[:5])
        raise LLMOutputError(f"the answer does not match the required format: {problems}")
    return value


def ask_json(llm: LLMBackend, messages: list[Message], *, role: str, schema: dict[str, Any],
             check: Callable[[dict[str, Any]], T], retries: int, max_tokens: int | None = None,
             correctable: tuple[type[Exception], ...] = (LLMOutputError,),
             on_answer: Callable[[list[Message], Completion], None] | None = None,
             on_invalid: Callable[[int, str], None] | None = None, cut_hint: str = "") -> T:
    """`check` of the JSON object `llm` answers. An answer that fails with a `correctable` error (one whose
    ``retryable`` is not false) is shown its error and asked again, at most `retries` times. An answer cut at its
    token limit is asked again once (one of those `retries`), told it was cut and `cut_hint` (how to answer shorter):
    greedy decoding would run on the same way without it; a second cut answer ends the asking. Then LLMOutputError.
    `on_answer` sees every completion with the conversation it answered, `on_invalid` every rejected answer's error."""
    conversation = list(messages)
    error, was_cut = "", False
    for attempt in range(1, retries + 2):
        completion = llm.complete(conversation, role=role, schema=schema, max_tokens=max_tokens)
        if on_answer is not None:
            on_answer(conversation, completion)
        try:
            return check(parse_json_object(completion.text))
        except correctable as exc:
            if not getattr(exc, "retryable", True):
                raise
            error = str(exc)
            if on_invalid is not None:
                on_invalid(attempt, error)
            if completion.truncated:
                tokens = completion.usage.completion_tokens
                if was_cut:
                    raise LLMOutputError(f"the {role}'s answer ran to its token limit without ending again "
                                         f"({tokens} tokens): {error}") from None
                was_cut = True
                conversation = conversation + [
                    {"role": "assistant", "content": clipped(completion.text, CUT_ANSWER_SHOWN)},
                    {"role": "user", "content": f"That answer was cut: it ran to the limit of {tokens} tokens without "
                                                f"ending. {cut_hint or 'Write a shorter answer.'}\n"
                                                "Answer again with only a short, complete JSON object."},
                ]
                continue
            conversation = conversation + [
                {"role": "assistant", "content": completion.text},
                {"role": "user", "content": f"That answer is invalid: {error}\nAnswer again with only the corrected JSON object."},
            ]
    raise LLMOutputError(f"the {role} gave no valid answer after {retries + 1} tries: {error}")


def _preview(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return repr(clipped(text, limit))
