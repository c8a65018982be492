"""A run folder as the explorer reads it: settings, summary, and every unit (an instruction run from its gold start,
or a session turn) with what generating it reported (its status), its record (from grading), output document, trace
and benchmark instruction.

Nothing here raises on a damaged folder: each part that cannot be read is a :class:`Gap` saying what is missing and
why (a unit generated but not graded too), so the site shows the gaps instead of failing. This is the one module of
the explorer that knows the layout of a run folder; it reads through the harness's public readers
(:mod:`autodw.eval.run_folder`, :mod:`autodw.eval.metrics`, :mod:`autodw.eval.compare`), so a change of the layout
is adapted in this one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from autodw.dwbench.records import TRACKS, Instruction, Session, load_split
from autodw.core.errors import AutodwError, ConfigError
from autodw.eval.metrics import RECORD_FIELDS, RECORD_REMEDY, SUMMARY_FIELDS, SUMMARY_REMEDY, read_json
from autodw.eval.run_folder import STATUS_FIELDS, instruction_unit, run_sessions, run_settings, turn_unit

MODES = ("instruction", "session")
OUTCOMES = ("passed", "failed", "error", "ungraded", "missing")


@dataclass(frozen=True)
class Gap:
    """A part of a run that cannot be shown: which part, and why."""

    what: str
    reason: str


@dataclass
class Unit:
    """One unit of a run: an instruction from its gold start (``instruction`` mode) or a session turn carried on from
    the system's own previous output (``session`` mode)."""

    key: str  # "SID#T", as in the records
    mode: str
    session_id: str
    turn: int
    instruction: Instruction | None = None  # the benchmark's (None: the run's data could not be read)
    session: Session | None = None
    generation: dict[str, Any] | None = None  # what generating it reported (its status file)
    record: dict[str, Any] | None = None  # grading's verdict on it
    record_file: Path | None = None  # its record's file, when there is one (readable or not)
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
        """passed, failed, error (the run could not finish or judge it), ungraded (generated, no record file yet) or
        missing (not generated, or its record cannot be read)."""
        if self.record is None:
            return "ungraded" if self.generation is not None and self.record_file is None else "missing"
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
        """A field of the record, else (generated, not graded) of the status, which records repeat (`default`
        without either or the field)."""
        source = self.record if self.record is not None else self.generation
        return default if source is None else source.get(name, default)


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
    """Say why the turns after a session's failed turn were not generated (the run stops a session there)."""
    failed: set[str] = set()
    for unit in units:
        if unit.mode != "session":
            continue
        if unit.record is None and unit.generation is None and unit.session_id in failed:
            unit.gaps = [Gap("record", "not run: the session stopped at its first failed turn (stop_at_failure)")]
        elif unit.record is not None and not unit.record["success"]:
            failed.add(unit.session_id)


def _found_units(folder: Path) -> list[Unit]:
    """The units whose status or record files are in the folder (when the run's settings cannot be read)."""
    units = []
    for path in sorted({p.with_suffix(".json") for suffix in ("json", "status")
                        for p in (folder / "instructions").glob(f"*--*.{suffix}")}):
        sid, _, turn = path.stem.rpartition("--")
        if turn.isdigit():
            units.append(_unit(folder, "instruction", *_benchmark(sid, int(turn)), found=path))
    for path in sorted({p.with_suffix(".json") for suffix in ("json", "status")
                        for p in (folder / "sessions").glob(f"*/turn-*.{suffix}")}):
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


def _unit(folder: Path, mode: str, session: Session | str, ins: Instruction | int, found: Path | None = None) -> Unit:
    """The unit of `ins` in `mode` with its status, record, output and trace read (a Gap for each that cannot be);
    `found`: its record's path, when the run's settings are unknown (`session` and `ins` then the bare ids if the
    benchmark has no such instruction)."""
    if isinstance(session, str) or isinstance(ins, int):
        unit = Unit(f"{session}#{ins}", mode, str(session), int(ins))
        unit.gaps.append(Gap("benchmark data", f"no DWBench session {session} with a turn {ins} in this autodw: "
                                               "its initial and expected documents and gold calls are unknown"))
        record, status, remedy = found, found.with_suffix(".status"), "read it with the autodw that made the run"
    else:
        unit = Unit(ins.key, mode, session.session_id, ins.turn, ins, session)
        files = (instruction_unit if mode == "instruction" else turn_unit)(folder, session, ins)
        record, status, remedy = files.record, files.status, f"delete it {files.rerun}"
        if mode == "session" and ins.turn > 1:
            unit.started_from = turn_unit(folder, session, session.instructions[ins.turn - 2]).output
    unit.record_file = record if record.is_file() else None
    if status.is_file():
        unit.generation = _read(status, remedy, STATUS_FIELDS, "status", unit)
    elif unit.record_file is not None:
        unit.gaps.append(Gap("status", f"{status.name} is missing beside {record.name} (a record is graded from its "
                                       "unit's status: bench run and rescore refuse the folder); restore it, or delete "
                                       f"{record.name} to run the unit again"))
    if unit.record_file is not None:
        unit.record = _read(record, RECORD_REMEDY, RECORD_FIELDS, "record", unit)
    elif unit.generation is not None:
        unit.gaps.append(Gap("record", f"generated, not graded: run `autodw bench rescore {folder}`"))
    elif not status.is_file():
        unit.gaps.append(Gap("record", f"not run yet: no {status.name}"))
    source, kind = (unit.record, "record") if unit.record is not None else (unit.generation, "status")
    if source is not None:  # the files it names beside it
        unit.output = _named_file(record, source.get("output"), "output", kind, unit)
        if source.get("trace") is not None:
            unit.trace = _named_file(record, source["trace"], "trace", kind, unit)
    return unit


def _read(path: Path, remedy: str, fields: dict[str, tuple[type, ...]], kind: str, unit: Unit) -> dict[str, Any] | None:
    """The unit's `kind` ("record" or "status") at `path`; None with a Gap when it is damaged or another unit's."""
    try:
        data = read_json(path, remedy, fields)
    except ConfigError as exc:
        unit.gaps.append(Gap(kind, str(exc)))
        return None
    if data["key"] != unit.key:
        unit.gaps.append(Gap(kind, f"{path} holds the {kind} of {data['key']!r}, not of {unit.key}"))
        return None
    return data


def _named_file(record_path: Path, name: Any, what: str, named_by: str, unit: Unit) -> Path | None:
    """The file a record or status (`named_by`) names beside it; a Gap when it names none or the file is gone."""
    if not isinstance(name, str) or not name or Path(name).name != name:
        unit.gaps.append(Gap(what, f"the {named_by} names no {what} file ({name!r})"))
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
        out["actual"] = next((g for g in unit.gaps if g.what in ("output", "record", "status")),
                             Gap("document", "no output"))
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
