"""Check DWBench by replaying it: every gold call runs, names ids that exist at that point, every
instruction changes the document, every gold call is needed (dropping it changes the turn's
expected state), no two instructions are identical, source files are present and unchanged."""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from autodw.apis import execute
from autodw.errors import AutodwError
from autodw.dwbench.records import Session, fingerprint_members, load_split, open_source

_ID = re.compile(r"^(p|t|img|chart|shape)[0-9]+$")


@dataclass
class Failure:
    """One problem: where (``SESSION#TURN``) and what."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class Report:
    """What a validation run checked and found."""

    splits: list[str]
    sessions: int = 0
    instructions: int = 0
    calls: int = 0
    seconds: float = 0.0
    failures: list[Failure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def to_dict(self) -> dict[str, Any]:
        return {"splits": self.splits, "sessions": self.sessions, "instructions": self.instructions, "calls": self.calls,
                "seconds": round(self.seconds, 1), "failures": [str(f) for f in self.failures]}


def ids_in(value: Any) -> list[str]:
    """Element ids named anywhere in a call's arguments."""
    if isinstance(value, str):
        return [value] if _ID.match(value) else []
    if isinstance(value, dict):
        return [i for v in value.values() for i in ids_in(v)]
    if isinstance(value, list):
        return [i for v in value for i in ids_in(v)]
    return []


def validate(splits: Iterable[str], progress: Callable[[str], None] | None = None) -> Report:
    """Replay every session of the given splits and report every failed check."""
    splits = list(splits)
    report = Report(splits)
    start = time.perf_counter()
    seen: dict[str, Session] = {}
    for split in splits:
        for s in load_split(split):
            seen.setdefault(s.session_id, s)
    texts = Counter(i.text for s in seen.values() for i in s.instructions)
    for text, n in texts.items():
        if n > 1:
            report.failures.append(Failure("*", f"instruction appears {n} times: {text[:80]!r}"))
    for s in seen.values():
        report.sessions += 1
        report.failures += validate_session(s)
        report.instructions += len(s.instructions)
        report.calls += s.n_calls
        if progress:
            progress(s.session_id)
    report.seconds = time.perf_counter() - start
    return report


def validate_session(session: Session) -> list[Failure]:
    """The failed checks of one session (replayed from its source file, no cache)."""
    try:
        doc = open_source(session.source)
    except AutodwError as exc:
        return [Failure(session.session_id, str(exc))]
    failures: list[Failure] = []
    for ins in session.instructions:
        problems = check_turn(doc, ins.gold)
        failures += [Failure(ins.key, p) for p in problems]
        if any(" fails: " in p or "names ids" in p for p in problems):  # the document is no longer the expected one
            failures.append(Failure(session.session_id, f"later turns not checked after the failure in turn {ins.turn}"))
            break
    return failures


def check_turn(doc, calls) -> list[str]:
    """Run one turn's gold calls on `doc` (left at the turn's expected state) and return its problems:
    a call that fails or names a missing id, no change at all, or a call whose removal changes nothing."""
    start = doc.snapshot()
    problem = _run(doc, calls, skip=None)
    if problem:
        return [problem]
    end = doc.snapshot()
    expected = fingerprint_members(end.members)
    problems = []
    if expected == fingerprint_members(start.members):
        problems.append("the gold calls do not change the document")
    if len(calls) > 1:
        for k, call in enumerate(calls):
            doc.restore(start)
            if _run(doc, calls, skip=k, check_ids=False) is None and fingerprint_members(doc.snapshot().members) == expected:
                problems.append(f"gold call {k + 1} ({call.api}) is not needed: the turn ends the same without it")
        doc.restore(end)
    return problems


def _run(doc, calls, skip: int | None, check_ids: bool = True) -> str | None:
    """Run gold calls (all but `skip`); the first problem, or None."""
    for k, call in enumerate(calls):
        if k == skip:
            continue
        if check_ids:
            present = set(doc.ids())
            missing = [i for i in ids_in(call.args) if i not in present]
            if missing:
                return f"gold call {k + 1} ({call.api}) names ids that do not exist at that point: {', '.join(missing)}"
        try:
            execute(doc, call.api, call.args)
        except AutodwError as exc:
            return f"gold call {k + 1} ({call.api}) fails: {exc}"
    return None
