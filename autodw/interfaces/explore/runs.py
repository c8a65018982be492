"""A run folder as the explorer reads it: settings, summary, and every judged unit (an instruction run from its gold
start, or a session turn) with its record, output document, trace and benchmark instruction.

Nothing here raises on a damaged folder: each part that cannot be read is a :class:`Gap` saying what is missing and
why, so the site shows the gaps instead of failing. This is the one module of the explorer that knows the layout of a
run folder; it reads through the harness's public readers (:mod:`autodw.eval.metrics`, :mod:`autodw.eval.runner`,
:mod:`autodw.eval.compare`) and keeps the few paths they do not offer (a session turn's files) here, so a change of
the layout is adapted in this one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from autodw.dwbench.records import TRACKS, Instruction, Session, load_split
from autodw.core.errors import AutodwError, ConfigError
from autodw.eval.metrics import (RECORD_FIELDS, RECORD_OPTIONAL, RECORD_REMEDY, SESSION_TURN_REMEDY, SUMMARY_FIELDS,
                                 SUMMARY_REMEDY, instruction_path, read_json)
from autodw.eval.runner import run_sessions, run_settings

MODES = ("instruction", "session")
OUTCOMES = ("passed", "failed", "error", "missing")


@dataclass(frozen=True)
class Gap:
    """A part of a run that cannot be shown: which part, and why."""

    what: str
    reason: str


@dataclass
class Unit:
    """One judged output of a run: an instruction from its gold start (``instruction`` mode) or a session turn
    carried on from the system's own previous output (``session`` mode)."""

    key: str  # "SID#T", as in the records
    mode: str
    session_id: str
    turn: int
    instruction: Instruction | None = None  # the benchmark's (None: the run's data could not be read)
    session: Session | None = None
    record: dict[str, Any] | None = None
    output: Path | None = None
    trace: Path | None = None
    started_from: Path | None = None  # a session turn after the first: the previous turn's output
    gaps: list[Gap] = field(default_factory=list)

    @property
    def slug(self) -> str:
        """A file name for the unit's page: ``SID--T`` (and ``-session`` for a session turn)."""
        return f"{self.session_id}--{self.turn}" + ("-session" if self.mode == "session" else "")

    @property
    def text(self) -> str:
        """The instruction's text (the record's, else the benchmark's)."""
        if self.record is not None and isinstance(self.record.get("instruction"), str):
            return self.record["instruction"]
        return self.instruction.text if self.instruction is not None else ""

    @property
    def outcome(self) -> str:
        """passed, failed, error (the run could not finish or judge it) or missing (no readable record)."""
        if self.record is None:
            return "missing"
        if self.record["success"]:
            return "passed"
        if self.record.get("status") == "internal_error" or self.record.get("judge_error"):
            return "error"
        return "failed"

    @property
    def earlier(self) -> list[str]:
        """The texts of the session's earlier instructions."""
        if self.session is None:
            return []
        return [i.text for i in self.session.instructions[: self.turn - 1]]

    def field(self, name: str, default: Any = None) -> Any:
        """A record field (`default` without a record or field)."""
        return default if self.record is None else self.record.get(name, default)


@dataclass
class Run:
    """What a run folder holds, as far as it can be read."""

    folder: Path
    settings: dict[str, Any] | None
    summary: dict[str, Any] | None
    units: list[Unit]
    gaps: list[Gap]
    commands: str | None = None

    @property
    def name(self) -> str:
        return self.folder.name

    def by_key(self, mode: str = "instruction") -> dict[str, Unit]:
        """The units of one mode by key."""
        return {u.key: u for u in self.units if u.mode == mode}


def read_run(folder: Path) -> Run:
    """Read run folder `folder`; ConfigError only when it is no folder at all (anything inside may be missing)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ConfigError(f"{folder} is not a folder; give a run folder made by autodw bench run")
    gaps: list[Gap] = []
    try:
        settings: dict[str, Any] | None = run_settings(folder)
    except ConfigError as exc:
        settings = None
        gaps.append(Gap("run.json", f"{exc}: the run's settings are unknown; its records are shown as found"))
    summary = _summary(folder, gaps)
    sessions = None
    if settings is not None:
        try:
            sessions = run_sessions(settings)
        except (AutodwError, KeyError, TypeError) as exc:  # a split this autodw lacks, settings of another shape
            gaps.append(Gap("benchmark data", f"the sessions of the run cannot be loaded ({exc}); its records are "
                                              "shown as found"))
    units = _planned_units(folder, settings, sessions) if sessions is not None else _found_units(folder)
    commands = folder / "commands.txt"
    return Run(folder, settings, summary, units, gaps,
               commands.read_text(encoding="utf-8", errors="replace") if commands.is_file() else None)


def _summary(folder: Path, gaps: list[Gap]) -> dict[str, Any] | None:
    path = folder / "summary.json"
    if not path.is_file():
        gaps.append(Gap("summary.json", "missing: the run has not written its summary yet (autodw bench rescore "
                                        f"{folder} writes it from the records)"))
        return None
    try:
        return read_json(path, SUMMARY_REMEDY, SUMMARY_FIELDS)
    except ConfigError as exc:
        gaps.append(Gap("summary.json", str(exc)))
        return None


def _planned_units(folder: Path, settings: dict[str, Any], sessions: list[Session]) -> list[Unit]:
    """Every unit the run's settings call for, in split order, instruction mode first."""
    keys = set(settings.get("instructions") or ())
    units = []
    modes = [m for m in MODES if m in (settings.get("modes") or ())]
    for mode in modes:
        for session in sessions:
            for ins in session.instructions:
                if mode == "instruction" and keys and ins.key not in keys:
                    continue
                units.append(_unit(folder, mode, session, ins))
        if mode == "session" and settings.get("stop_at_failure"):
            _explain_stopped(units)
    return units


def _explain_stopped(units: list[Unit]) -> None:
    """Say why the turns after a session's failed turn have no record (the run stops a session there)."""
    failed: set[str] = set()
    for unit in units:
        if unit.mode != "session":
            continue
        if unit.record is None and unit.session_id in failed:
            unit.gaps = [Gap("record", "not run: the session stopped at its first failed turn (stop_at_failure)")]
        elif unit.record is not None and not unit.record["success"]:
            failed.add(unit.session_id)


def _found_units(folder: Path) -> list[Unit]:
    """The units whose record files are in the folder (when the run's settings cannot be read)."""
    units = []
    for path in sorted((folder / "instructions").glob("*--*.json")):
        sid, _, turn = path.stem.rpartition("--")
        if turn.isdigit():
            units.append(_unit(folder, "instruction", *_benchmark(sid, int(turn)), found=path))
    for path in sorted((folder / "sessions").glob("*/turn-*.json")):
        turn = path.stem.removeprefix("turn-")
        if turn.isdigit():
            units.append(_unit(folder, "session", *_benchmark(path.parent.name, int(turn)), found=path))
    return units


def _benchmark(session_id: str, turn: int) -> tuple[Session | str, Instruction | int]:
    """The session and instruction of a key from any split, or the bare ids when the benchmark has none."""
    session = _all_sessions().get(session_id)
    if session is None or not 1 <= turn <= len(session.instructions):
        return session_id, turn
    return session, session.instructions[turn - 1]


@lru_cache(maxsize=1)
def _all_sessions() -> dict[str, Session]:
    return {s.session_id: s for track in TRACKS for split in ("dev", "test") for s in load_split(split, track)}


def _turn_path(folder: Path, session_id: str, turn: int) -> Path:
    """Where a run folder keeps session turn `turn`'s record (as :func:`autodw.eval.metrics.session_turns` reads it)."""
    return folder / "sessions" / session_id / f"turn-{turn}.json"


def _unit(folder: Path, mode: str, session: Session | str, ins: Instruction | int, found: Path | None = None) -> Unit:
    """The unit of `ins` in `mode` with its record, output and trace read (a Gap for each that cannot be); `found`:
    its record file, when the run's settings are unknown (`session` and `ins` then the bare ids if the benchmark has
    no such instruction)."""
    if isinstance(session, str) or isinstance(ins, int):
        unit = Unit(f"{session}#{ins}", mode, str(session), int(ins))
        unit.gaps.append(Gap("benchmark data", f"no DWBench session {session} with a turn {ins} in this autodw: "
                                               "its initial and expected documents and gold calls are unknown"))
    else:
        unit = Unit(ins.key, mode, session.session_id, ins.turn, ins, session)
    if mode == "instruction":
        path, remedy = found or instruction_path(folder, unit.instruction), RECORD_REMEDY
    else:
        path, remedy = found or _turn_path(folder, unit.session_id, unit.turn), SESSION_TURN_REMEDY
        if unit.turn > 1:
            unit.started_from = _turn_path(folder, unit.session_id, unit.turn - 1).with_suffix(".docx")
    unit.record = _record(path, remedy, unit)
    if unit.record is not None:
        unit.output = _named_file(path, unit.record.get("output"), "output", unit)
        if unit.record.get("trace") is not None:
            unit.trace = _named_file(path, unit.record["trace"], "trace", unit)
    return unit


def _record(path: Path, remedy: str, unit: Unit) -> dict[str, Any] | None:
    if not path.is_file():
        unit.gaps.append(Gap("record", f"not run yet: no {path.name}"))
        return None
    try:
        record = read_json(path, remedy, RECORD_FIELDS, RECORD_OPTIONAL)
    except ConfigError as exc:
        unit.gaps.append(Gap("record", str(exc)))
        return None
    if record["key"] != unit.key:
        unit.gaps.append(Gap("record", f"{path} holds the record of {record['key']!r}, not of {unit.key}"))
        return None
    return record


def _named_file(record_path: Path, name: Any, what: str, unit: Unit) -> Path | None:
    """The file a record names beside it; a Gap when it names none or the file is gone."""
    if not isinstance(name, str) or not name or Path(name).name != name:
        unit.gaps.append(Gap(what, f"the record names no {what} file ({name!r})"))
        return None
    path = record_path.parent / name
    if not path.is_file():
        unit.gaps.append(Gap(what, f"{name} is missing from {record_path.parent}"))
        return None
    return path


def documents(unit: Unit) -> dict[str, bytes | Gap]:
    """The unit's initial, expected and actual documents as .docx bytes, or the Gap of each that cannot be had."""
    out: dict[str, bytes | Gap] = {}
    if unit.session is None:
        reason = "no benchmark data for this instruction"
        out["initial"] = out["expected"] = Gap("document", reason)
    else:
        if unit.started_from is not None:
            out["initial"] = (unit.started_from.read_bytes() if unit.started_from.is_file() else
                              Gap("document", f"the previous turn's output {unit.started_from.name} is missing"))
        else:
            out["initial"] = _gold(lambda: unit.session.initial_document(unit.turn))
        out["expected"] = _gold(lambda: unit.session.expected_document(unit.turn))
    if unit.output is not None:
        out["actual"] = unit.output.read_bytes()
    else:
        out["actual"] = next((g for g in unit.gaps if g.what in ("output", "record")), Gap("document", "no output"))
    return out


def _gold(make) -> bytes | Gap:
    try:
        return make().to_bytes()
    except AutodwError as exc:  # the corpus file is absent, a gold call fails on this autodw
        return Gap("document", f"cannot be made: {exc}")


# --- two runs -----------------------------------------------------------------------------------------------------


@dataclass
class Comparison:
    """Two runs on the instructions both finished: the flips each way and ``bench compare``'s paired statistics."""

    only_a: list[tuple[Unit, Unit]]  # passed in run A only: (A's unit, B's unit)
    only_b: list[tuple[Unit, Unit]]
    both_passed: int
    both_failed: int
    stats: dict[str, Any] | None  # autodw.eval.compare.compare's result
    reason: str | None = None  # why there are no paired statistics


def compare_runs(a: Run, b: Run) -> Comparison:
    """Pair the instruction-mode units of `a` and `b` that both judged (not those :func:`autodw.eval.compare.compare`
    leaves out as made against other DWBench data)."""
    from autodw.eval.compare import compare

    stats, reason = None, None
    try:
        stats = compare(a.folder, b.folder)
    except (AutodwError, KeyError, TypeError) as exc:  # not comparable, or a damaged folder
        reason = str(exc) or type(exc).__name__
    left_out = set(stats["left_out"]) if stats else set()
    ua, ub = a.by_key(), b.by_key()
    pairs = [(ua[k], ub[k]) for k in ua if k in ub and k not in left_out
             and ua[k].record is not None and ub[k].record is not None]
    only_a = [(x, y) for x, y in pairs if x.record["success"] and not y.record["success"]]
    only_b = [(x, y) for x, y in pairs if y.record["success"] and not x.record["success"]]
    both = sum(1 for x, y in pairs if x.record["success"] and y.record["success"])
    return Comparison(only_a, only_b, both, len(pairs) - both - len(only_a) - len(only_b), stats, reason)
