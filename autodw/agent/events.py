"""Where the agent's events go: a JSON Lines trace for audit/replay and a console a person can follow."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Protocol, TextIO


class EventSink(Protocol):
    """Receives every event the agent emits: ``sink(event_name, data)``."""

    def __call__(self, event: str, data: dict[str, Any]) -> None: ...


class TraceWriter:
    """Writes each event as one JSON line (with a timestamp), flushed at once so a crash keeps the trace."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = self.path.open("w", encoding="utf-8")

    def __call__(self, event: str, data: dict[str, Any]) -> None:
        self._fh.write(json.dumps({"t": round(time.time(), 3), "event": event, **data}, ensure_ascii=False, default=str) + "\n")
        self._fh.flush()

    def close(self) -> None:
        self._fh.close()


class ConsoleReporter:
    """Human-readable progress: sub-instructions, intents, calls, changes, verdicts, rollbacks, totals."""

    def __init__(self, stream: TextIO | None = None, max_change_lines: int = 6):
        self.out = stream or sys.stdout
        self.max_change_lines = max_change_lines

    def _p(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def __call__(self, event: str, d: dict[str, Any]) -> None:
        handler = getattr(self, f"_on_{event}", None)
        if handler is not None:
            handler(d)

    def _on_instruction_start(self, d: dict[str, Any]) -> None:
        self._p(f"\n[{d['number']}/{d['total']}] {d['instruction']}")

    def _on_plan(self, d: dict[str, Any]) -> None:
        if d.get("done"):
            self._p(f"  planner: done ({d.get('reason') or 'instruction complete'})")
        else:
            self._p(f"  step {d['step']}: {d['sub_instruction']}")
            if d.get("remaining"):
                self._p(f"    then: {'; '.join(d['remaining'])}")

    def _on_intents(self, d: dict[str, Any]) -> None:
        shown = ", ".join(f"{name} {p:.2f}" for name, p in d["intents"])
        self._p(f"    intents: {shown} -> {len(d['candidates'])} candidate APIs")

    def _on_attempt(self, d: dict[str, Any]) -> None:
        label = {"first": "call", "arg": "retry (argument-level rollback)", "api": "retry (API-level rollback)"}[d["level"]]
        self._p(f"    {label}: {d['call']}" + (" (the fix of its rejection applied to the repeated call)" if d.get("repaired") else ""))
        if d.get("error"):
            self._p(f"      failed: {d['error']}")
        elif d.get("changes"):
            lines = d["changes"].splitlines()
            for line in lines[: self.max_change_lines]:
                self._p(f"      {line}")
            if len(lines) > self.max_change_lines:
                self._p(f"      ... {len(lines) - self.max_change_lines} more change lines")

    def _on_verdict(self, d: dict[str, Any]) -> None:
        outcome = "accepted" if d["accepted"] else "rejected"
        self._p(f"    validator: {d['decision']} ({d['confidence']:.2f}) -> {outcome}: {d['explanation']}")

    def _on_redundant_step(self, d: dict[str, Any]) -> None:
        if d.get("copy"):
            self._p(f"    the content of step {d['repeats']} again, next to the copy it made: undone, instruction ends")
        elif d.get("changed"):
            self._p(f"    the same call as step {d['repeats']} once more: a loop; undone, instruction ends")
        else:
            self._p(f"    the same call as step {d['repeats']}, which changed nothing: that work is done; instruction ends")

    def _on_rollback(self, d: dict[str, Any]) -> None:
        self._p(f"    rollback: document restored; next: {d['next']}-level")

    def _on_instruction_end(self, d: dict[str, Any]) -> None:
        status = {"done": "done", "step_limit": "STOPPED: step limit reached",
                  "call_limit": "STOPPED: LLM call limit reached", "error": "FAILED",
                  "internal_error": "INTERNAL ERROR (a bug in autodw)"}.get(d["status"], d["status"])
        lost = d.get("steps_not_kept") or []
        self._p(f"  -> {status} after {d['steps']} step(s), {d['api_calls']} API call(s), {d['seconds']:.1f} s"
                + (f"; step {', '.join(map(str, lost))} kept no change" if lost else "")
                + (f": {d['error']}" if d.get("error") else ""))

    def _on_run_end(self, d: dict[str, Any]) -> None:
        usage = d["usage"]
        per_role = ", ".join(f"{role} {u['total_tokens']:,}" for role, u in usage.items() if u["calls"])
        self._p(f"\nTotals: {d['instructions']} instruction(s), {d['steps']} step(s), {d['api_calls']} API call(s), "
                f"{d['llm_calls']} LLM call(s), {d['total_tokens']:,} tokens ({per_role or 'none'}), {d['seconds']:.1f} s")
