"""Why an instruction the ceiling ran would fail: the first gold step the agent did not keep, and what stopped it.

The agent keeps the gold calls one after another, or stops short of one: the first gold step not kept in order is
the one that failed the instruction. Its cause is, in order: the ceiling's first obstacle at that step (the intent
filter, the planner's or the generator's view, the schema: :mod:`autodw.eval.ceiling.backend`); the rule checks, when
they rejected its gold call; state extraction, when the state could not be read after it; else the loop's mechanics:
a heuristic that stopped the request, undid the gold call or stopped short of the step, or a limit. An instruction
whose every gold call was kept, in order and alone (searches aside), has no cause (if the judge still fails it, the
table says so).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from autodw.apis import registry
from autodw.core.errors import InternalError
from autodw.eval.ceiling.backend import LOOP
from autodw.eval.ceiling.reading import executed_call

RULE_CHECKS, STATE_EXTRACTION, OTHER = "rule checks", "state extraction", "other"
#: the events of the agent a diagnosis reads (autodw.agent.loop), with the ceiling's own
READ = ("plan", "attempt", "verdict", "redundant_step", "instruction_end", "ceiling")


@dataclass
class TurnLog:
    """Keeps the events of one instruction the diagnosis reads; at the run's end sends the diagnosis (a
    ``ceiling_turn`` event) through `emit`, so that it is written to the trace with the rest."""

    gold: list[tuple[str, Any]]
    emit: Any
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def __call__(self, event: str, data: dict[str, Any]) -> None:
        if event in READ:
            self.events.append((event, data))
        elif event == "run_end":
            self.emit("ceiling_turn", diagnose(self.gold, self.events))


@cache
def _reads() -> frozenset[str]:
    """The APIs that only read (a search the planner made to see more of the document is no kept call)."""
    return frozenset(spec.name for spec in registry() if spec.read_only)


def _same(call: Any, gold: tuple[str, Any]) -> bool:
    return list(call) == [gold[0], gold[1]]


def diagnose(gold: list[tuple[str, Any]], events: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The diagnosis of one instruction from its events (module docstring; `gold`: its gold calls as the agent executes
    them, :func:`~autodw.eval.ceiling.backend.executed_gold`): ``gold_steps``, ``kept`` (gold calls kept
    in order), ``cause`` and ``detail`` (None when every gold call was kept), ``failed_step`` (1-based) and every
    ``obstacle`` the ceiling met (recovered ones too)."""
    end = next((d for e, d in reversed(events) if e == "instruction_end"), {})
    kept_calls = [tuple(c) for c in end.get("accepted_calls") or [] if c[0] not in _reads()]  # not a search
    kept = next((k for k, (call, g) in enumerate(zip(kept_calls, gold)) if not _same(call, g)),
                min(len(kept_calls), len(gold)))
    obstacles = [d for e, d in events if e == "ceiling"]
    out: dict[str, Any] = {"gold_steps": len(gold), "kept": kept, "status": end.get("status"),
                           "obstacles": obstacles}
    if kept == len(gold) and len(kept_calls) == len(gold):
        return {**out, "failed_step": None, "cause": None, "detail": None}
    if kept == len(gold):  # every gold call kept, then another
        cause, detail = _extra(kept_calls[kept], events)
        return {**out, "failed_step": None, "cause": cause, "detail": detail}
    cause, detail = _cause(kept, gold[kept], kept_calls[kept] if kept < len(kept_calls) else None, end, events)
    return {**out, "failed_step": kept + 1, "cause": cause, "detail": detail}


def _call_of(attempt: dict[str, Any]) -> tuple[str, Any] | None:
    """The call an ``attempt`` event shows, parsed (None for no call)."""
    try:
        return executed_call(attempt.get("call") or "")
    except (InternalError, ValueError):
        return None


def _cause(k: int, gold: tuple[str, Any], instead: Any, end: dict[str, Any],
           events: list[tuple[str, dict[str, Any]]]) -> tuple[str, str]:
    """Why gold step `k` (0-based) was not kept (`instead`: the call kept in its place, if any)."""
    tried = [d for e, d in events if e == "attempt" and _call_of(d) is not None and _same(_call_of(d), gold)]
    steps = {d.get("step") for d in tried}
    for e, d in events:  # the first thing that stopped the gold call, in the order they happened
        if e == "ceiling" and d.get("gold_step") == k + 1:
            return d["cause"], f"{d['role']}: {d['detail']}"
        if d.get("step") not in steps:
            continue
        if e == "verdict" and d.get("rule") and not d.get("accepted"):
            return RULE_CHECKS, f"{d.get('explanation', '')[:300]}"
        if e == "attempt" and d.get("error") and "state could not be read" in d["error"]:
            return STATE_EXTRACTION, d["error"][:300]
        if e == "redundant_step":
            return LOOP, f"end_on_repeated_call: step {d.get('step')} repeats step {d.get('repeats')} and was undone"
    failed = [d for d in tried if d.get("error")]
    if failed:
        return OTHER, f"the gold call failed on the agent's document: {failed[0]['error'][:300]}"
    if instead is not None:
        repaired = any(d.get("repaired") for e, d in events if e == "attempt")
        return (RULE_CHECKS if repaired else OTHER,
                f"{'a rule check fix changed' if repaired else 'another call replaced'} gold step {k + 1}: {instead[0]}")
    status, error = end.get("status"), end.get("error") or ""
    if status in ("step_limit", "call_limit"):
        return LOOP, f"{status.replace('_', ' ')} reached before gold step {k + 1}"
    if status == "internal_error":
        return OTHER, f"internal error: {error[:300]}"
    if status == "error":
        return LOOP, f"the request ended with an error: {error[:300]}"
    stops = [d for e, d in events if e == "plan" and d.get("done") and not str(d.get("reason", "")).startswith("ceiling")]
    if stops:
        return LOOP, f"a heuristic stopped the request: {stops[0].get('reason', '')[:300]}"
    return LOOP, f"the request ended before gold step {k + 1} without asking the planner (stop_when_nothing_remains)"


def _extra(call: Any, events: list[tuple[str, dict[str, Any]]]) -> tuple[str, str]:
    """Why a call beyond the gold ones was kept."""
    repaired = any(d.get("repaired") for e, d in events if e == "attempt")
    return (RULE_CHECKS if repaired else LOOP,
            f"a call beyond the gold ones was kept: {call[0]}" + (" (a rule check's fix)" if repaired else ""))
