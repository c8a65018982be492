"""Check DWBench by replaying it: every gold call runs, names ids that exist at that point, every
instruction changes the document, every gold call is needed (dropping it changes the turn's expected state) and, for
a session being written (``bench author``), changes the state (a read-only API apart), every ``accept`` alternative
runs and changes the document, no two instructions are identical, source files are present and unchanged; and the
faults a reader found in 1.1 (:func:`faults`): a back-reference with several candidates, an order trap, a duplicate
insertion, a computed value that disagrees with its rule."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from autodw.apis import execute, registry
from autodw.core.errors import AutodwError
from autodw.dwbench.records import GoldCall, Instruction, Session, fingerprint_members, load_split, open_source
from autodw.analysis.state import State, extract_state

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


def validate(splits: Iterable[str], progress: Callable[[str], None] | None = None, track: str = "templated") -> Report:
    """Replay every session of the given splits of a track and report every failed check."""
    splits = list(splits)
    report = Report(splits)
    start = time.perf_counter()
    seen: dict[str, Session] = {}
    for split in splits:
        for s in load_split(split, track):
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


def validate_session(session: Session, needed: bool = True, each_call_changes: bool = False) -> list[Failure]:
    """The failed checks of one session (replayed from its source file, no cache); `needed` False skips the check that
    each gold call is needed (the generator has made it turn by turn); `each_call_changes` adds the check that each
    gold call changes the state (:func:`check_turn`: a state read after every call, for a session being written)."""
    try:
        doc = open_source(session.source)
    except AutodwError as exc:
        return [Failure(session.session_id, str(exc))]
    failures: list[Failure] = []
    history = Replayed(extract_state(doc))
    for ins in session.instructions:
        start = doc.snapshot()
        for k, alt in enumerate(ins.alternatives, 1):
            failures += [Failure(ins.key, f"alternative {k}: {p}") for p in check_alternative(doc, alt)]
            doc.restore(start)
        problems = check_turn(doc, ins.gold, each_call_changes) if needed else _run_checked(doc, ins.gold)
        if not problems:
            problems = history.faults(ins, extract_state(doc))
        failures += [Failure(ins.key, p) for p in problems]
        if any(" fails: " in p or "names ids" in p for p in problems):  # the document is no longer the expected one
            failures.append(Failure(session.session_id, f"later turns not checked after the failure in turn {ins.turn}"))
            break
    return failures


def check_turn(doc, calls, each_call_changes: bool = False) -> list[str]:
    """Run one turn's gold calls on `doc` (left at the turn's expected state) and return its problems:
    a call that fails or names a missing id, no change at all, or a call whose removal changes nothing, unless it
    resolves revisions a later call then rewrites (:func:`_resolved_then_rewritten`); with `each_call_changes`, also
    a call that leaves the document state as it was (:func:`_calls_changing_nothing`)."""
    start = doc.snapshot()
    prefixes = [start]  # the document after calls 1..k, so that dropping call k+1 replays only what follows it
    for k, call in enumerate(calls):
        problem = _run(doc, calls[k:k + 1], skip=None)
        if problem:
            return [problem.replace("gold call 1 ", f"gold call {k + 1} ", 1)]
        prefixes.append(doc.snapshot())
    end = prefixes[-1]
    expected = fingerprint_members(end.members)
    problems = []
    if expected == fingerprint_members(start.members):
        problems.append("the gold calls do not change the document")
    elif each_call_changes:
        problems += _calls_changing_nothing(doc, calls, prefixes)
    if len(calls) > 1:
        for k, call in enumerate(calls):
            doc.restore(prefixes[k])
            if _run(doc, calls[k + 1:], skip=None, check_ids=False) is None and \
                    fingerprint_members(doc.snapshot().members) == expected and \
                    not _resolved_then_rewritten(doc, prefixes, k):
                problems.append(f"gold call {k + 1} ({call.api}) is not needed: the turn ends the same without it")
        doc.restore(end)
    return problems


#: APIs whose whole effect lies where the state does not look (a known limit of the judge, which compares states):
#: update_fields only sets w:updateFields in settings.xml (Word updates the fields when it opens the file)
OUTSIDE_STATE = ("update_fields",)


def _calls_changing_nothing(doc, calls, prefixes: list) -> list[str]:
    """The gold calls (``prefixes``: the document before each and after the last) after which the document state is
    what it was before ("No change detected"), read-only APIs (find_text) and :data:`OUTSIDE_STATE` apart: the state
    is what the judge compares, so such a call is a mistake of the turn even where it rewrote the XML (a style defined
    twice, its unread definition edited). `doc` is left after the last call."""
    states: dict[int, State] = {}

    def state(k: int) -> State:
        if k not in states:
            doc.restore(prefixes[k])
            states[k] = extract_state(doc)
        return states[k]

    problems = [f"gold call {k + 1} ({call.api}) leaves the document state as it was (No change detected): a gold "
                "call that changes nothing is a mistake of the turn"
                for k, call in enumerate(calls) if not registry().get(call.api).read_only
                and call.api not in OUTSIDE_STATE and state(k) == state(k + 1)]
    doc.restore(prefixes[-1])
    return problems


def _resolved_then_rewritten(doc, prefixes: list, k: int) -> bool:
    """Whether gold call `k` (0-based; ``prefixes``: the document before each call and after the last) accepts or
    rejects tracked changes, keeping the text, changes nothing but paragraphs and their revisions, and only paragraphs
    a later call of the turn gives another text. The turn then ends as the rewrite alone would, but in Word resolving the revisions
    is a change of its own (they leave the history), so the call is needed; a text written and then written over is
    not such a call (it resolves no revision)."""
    states = []
    for snapshot in (prefixes[k], prefixes[k + 1], prefixes[-1]):
        doc.restore(snapshot)
        states.append(extract_state(doc))
    before, after, end = states
    if before["interactive"]["tracked_changes"] == after["interactive"]["tracked_changes"]:
        return False  # it resolved no revision
    if {**before, "paragraphs": None, "interactive": {**before["interactive"], "tracked_changes": None}} != \
            {**after, "paragraphs": None, "interactive": {**after["interactive"], "tracked_changes": None}}:
        return False  # it changed more than paragraphs and their tracked changes
    old, new, last = ({p["id"]: p for p in state["paragraphs"]} for state in states)
    changed = [i for i in old.keys() | new.keys() if old.get(i) != new.get(i)]
    return bool(changed) and all(i in old and i in new and i in last and old[i]["text"] == new[i]["text"] != last[i]["text"]
                                 for i in changed)


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


def _run_checked(doc, calls) -> list[str]:
    problem = _run(doc, calls, skip=None)
    return [problem] if problem else []


def check_alternative(doc, calls: tuple[GoldCall, ...]) -> list[str]:
    """An ``accept`` alternative must run from the turn's start and change the document (`doc` is left changed)."""
    before = fingerprint_members(doc.snapshot().members)
    problem = _run(doc, calls, skip=None)
    if problem:
        return [problem]
    return ["it does not change the document"] if fingerprint_members(doc.snapshot().members) == before else []


# ----------------------------------------------------------------------------- faults found by reading 1.1
_RECENT = {
    "table": re.compile(r"(?:the |that )?(?:table|one) you just (?:added|made|inserted)|that new table|the table I asked for earlier|"
                        r"刚才(?:插入|加|添加|新建)的(?:那个)?表格?|新加的(?:那个)?表格|前面让你加的表格"),
    "image": re.compile(r"the (?:picture|image) you (?:just )?inserted|that new (?:picture|image)|刚插入的图片|新加的那张图"),
    "chart": re.compile(r"the chart you just made|the new chart|刚才做的图表|新加的图表"),
}
"""Phrases naming "the one the session added" (both tracks): they are sure only while the session added one."""
TOTAL_HEADERS = ("Total", "Sum", "合计", "总计", "小计")


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", "").strip())
    except ValueError:
        return None


def computed_column(t: dict[str, Any]) -> int | None:
    """The index of a table's column headed Total (合计...), whose cells a rule computes, or None."""
    header = [h.strip() for h in t["cells"][0]] if t.get("cells") else []
    return next((k for k, h in enumerate(header) if h in TOTAL_HEADERS), None)


def wrong_totals(state: State) -> set[tuple[int, int]]:
    """(table index, row) of each row whose Total (合计...) cell is not the sum of the row's other numbers."""
    out = set()
    for k, t in enumerate(state["tables"]):
        col = computed_column(t)
        if not col:  # none, or the first column (labels)
            continue
        for r, row in enumerate(t["cells"][1:], 1):
            values = [_number(v) for c, v in enumerate(row[1:], 1) if c != col]
            total = _number(row[col]) if col < len(row) else None
            if total is not None and values and None not in values and abs(sum(values) - total) > 1e-6:
                out.add((k, r))
    return out


def _target(args: dict[str, Any]) -> tuple[str, ...]:
    return tuple(sorted(ids_in(args)))


_LOCATORS = frozenset({"row", "col", "column", "rows", "cols", "cells", "index", "offset", "span", "section", "where", "kind",
                       "scope", "level", "start", "end", "name", "query", "find", "header_rows"})
"""Arguments that say where a call acts (with the element ids), not what it sets there."""
_SIZE_APIS = ("resize_image", "crop_image")  # the width a crop leaves depends on their order


@dataclass
class Replayed:
    """What a session has done so far, to find the faults of its next turn."""

    source: dict[str, Any]  # the state of the session's source document
    before: State = field(init=False)  # the state the next turn starts from
    inserted: dict[str, str] = field(default_factory=dict)  # content of each table or list inserted -> where first

    def __post_init__(self) -> None:
        self.before = self.source

    def added(self, state: State, kind: str) -> list[str]:
        """Ids of the tables, pictures or charts of `state` that the source document did not have."""
        def items(st):
            if kind == "table":
                return [t["id"] for t in st["tables"]]
            return [i["id"] for i in st["images"] if i.get("type") == ("picture" if kind == "image" else "chart")]
        before = set(items(self.source))
        return [i for i in items(state) if i not in before]

    def faults(self, ins: Instruction, after: State) -> list[str]:
        """The faults of turn `ins` (its gold already replayed, `after` its expected state); records its insertions."""
        out = []
        for kind, pattern in _RECENT.items():
            phrase = pattern.search(ins.text)
            if phrase:  # counted at the turn's end: the one named may be made by the turn itself
                made = self.added(after, kind)
                if len(made) != 1:
                    out.append(f"back-reference with {len(made)} candidates: {phrase.group(0)!r} when the "
                               f"session has added {len(made)} {kind}(s)")
        seen: dict[tuple, int] = {}
        for k, call in enumerate(ins.gold, 1):
            family = "size" if call.api in _SIZE_APIS else call.api
            if family != "size" and not call.api.startswith(("set_", "modify_", "apply_", "change_")):
                continue  # insertions and removals: their order is part of what the words say
            where = {x: v for x, v in call.args.items() if x in _LOCATORS or ids_in(v)}
            keys = ("size",) if family == "size" else tuple(sorted(x for x in call.args if x not in where))
            for key in keys:
                mark = (family, json.dumps(where if family != "size" else _target(call.args), sort_keys=True), key)
                if _target(call.args) and mark in seen:
                    out.append(f"order trap: gold calls {seen[mark]} and {k} both set {key} of {', '.join(_target(call.args))}")
                seen.setdefault(mark, k)
        for call in ins.gold:
            content = _inserted_content(call)
            if content is None:
                continue
            if content in self.inserted and "copy" not in ins.tags:
                out.append(f"duplicate insertion: {call.api} inserts what {self.inserted[content]} inserted already")
            self.inserted.setdefault(content, ins.key)
        new_wrong = wrong_totals(after) - wrong_totals(self.before)
        if new_wrong:
            out.append(f"computed value disagrees with its rule: a Total cell is not its row's sum (table, row: {sorted(new_wrong)})")
        self.before = after
        return out


def _inserted_content(call: GoldCall) -> str | None:
    """What a table or list insertion writes (for duplicates), or None for other calls."""
    if call.api == "insert_table" and call.args.get("data"):
        return json.dumps(["table", call.args["data"]], ensure_ascii=False)
    if call.api == "insert_list" and len(call.args.get("items") or ()) >= 2:
        return json.dumps(["list", call.args["items"]], ensure_ascii=False)
    return None
