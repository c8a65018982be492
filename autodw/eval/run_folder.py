"""A run folder: what was run (``run.json``) and, for each unit of the run, the files generating and grading it write.

A *unit* is an instruction run from its gold start (teacher forcing: ``instructions/SID--T.*``) or a turn of a session
that carries the system's own output forward (``sessions/SID/turn-T.*``). Its files, beside each other:

- ``.docx``: the output; ``.trace.jsonl``: the agent's events (a system may write none);
- ``.status``: what generating it reported, as JSON (the system's status and error, its calls, faults, LLM usage,
  seconds, and the data hash of the instruction it was run on), written last: a unit is *generated* when it exists
  (not named ``.json``, so that the records are a folder's ``*.json`` files, as before);
- ``.json``: its record, written by grading from the files above and the DWBench data (:mod:`autodw.eval.grade`): a
  unit is *graded* when it exists.

A session folder also keeps ``resume-T.docx``: the document (with its element ids) after its last generated turn T,
written before that turn's status, to continue the session from. Every file is written atomically, so a run that is
killed continues where it stopped: a generated unit is never generated again, only graded.

``run.json`` also records the code that generated the units (``code``: autodw's ``version`` and a ``fingerprint`` of
its source and of the package data that changes what the agent does, :func:`code_fingerprint`): a run is resumed
only by the same code (``bench run``, ``bench ceiling`` and ``bench paper`` refuse a folder made by other code, whose
figures are that code's: choose another ``--out``, with the same ``--llm-cache`` to reuse the answers paid for). A
folder made before runs recorded their code is resumed with a warning and keeps recording none. ``bench rescore``
grades a folder whatever its code (grading is apart from generating) and keeps its ``code``.

Beside the units: ``summary.json``, the run's metrics (:mod:`autodw.eval.metrics`), written by grading as units
finish and by ``bench rescore``; ``commands.txt``, each ``bench run`` command given on the folder with the
environment settings that change a run (``run.json`` holds the settings, this how they were given); and, when asked
for, ``agreement.jsonl`` (``bench agree``: the LLM judge's answers).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import autodw
from autodw.dwbench.records import DATA_VERSION, Instruction, Session, load_split
from autodw.core.errors import ConfigError
from autodw.eval.judge import JUDGE_VERSION
from autodw.eval.metrics import (RUN_FIELDS, RUN_REMEDY, SUMMARY_REMEDY, instruction_path, instruction_records, made_against, read_json, run_track,
                                 session_finished, session_turns)
from autodw.core.package import write_atomically

#: the fields a unit's status must have (a missing one, or one of another type, is a damaged file)
STATUS_FIELDS: dict[str, tuple[type, ...]] = {
    "key": (str,), "session_id": (str,), "turn": (int,), "data_hash": (str, type(None)), "status": (str,),
    "error": (str, type(None)), "api_calls": (int,), "calls": (list,), "usage": (dict,), "faults": (list,),
    "seconds": (int, float), "output": (str,), "trace": (str, type(None)), "finished_at": (str,), "pid": (int,)}


#: the package data, beside the code, that changes what the agent does (its word lists, prompts and colour names);
#: not DWBench's data, which ``data_version`` and each record's ``data_hash`` cover
BEHAVIOUR_DATA = ("agent/*.json", "agent/prompts/*.md", "core/colour_names.json")


@cache
def code_fingerprint() -> str:
    """A short fingerprint of this autodw's code: SHA-256 over the path (from the package folder) and bytes of every
    ``.py`` file of the package and of :data:`BEHAVIOUR_DATA`; computed once per process (about 20 ms)."""
    root = Path(autodw.__file__).parent
    files = sorted({*root.rglob("*.py"), *(p for pattern in BEHAVIOUR_DATA for p in root.glob(pattern))})
    digest = hashlib.sha256()
    for path in files:
        data = path.read_bytes()
        digest.update(f"{path.relative_to(root).as_posix()}\0{len(data)}\0".encode() + data)
    return digest.hexdigest()[:16]


def run_code() -> dict[str, str]:
    """The code that generates a run: autodw's version and :func:`code_fingerprint`."""
    return {"version": autodw.__version__, "fingerprint": code_fingerprint()}


def code_name(code: Any) -> str:
    """`code` (a ``run.json``'s) as the errors name it."""
    return f"autodw {code.get('version')} code {code.get('fingerprint')}" if isinstance(code, dict) else repr(code)


@dataclass
class RunSpec:
    """What a run is: kept in ``run.json``; a run folder can only be resumed with the same spec."""

    system: str
    llm: str
    split: str
    modes: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    limit: int | None = None  # the first N sessions of the split
    sessions: list[str] | None = None  # only these sessions (ids), in split order
    stop_at_failure: bool = False  # session mode: a session ends at its first failed turn
    instructions: list[str] | None = None  # instruction mode: only these instructions (keys "SID#T") of the sessions
    judge_version: int = JUDGE_VERSION  # every record of a run is judged by one version of the judge
    data_version: str = DATA_VERSION  # ... against one version of DWBench (each record: its data_hash)
    track: str = "templated"  # the DWBench track (hand or templated) the split is of
    code: dict[str, str] = field(default_factory=run_code)  # the code that generates its units (:func:`run_code`)

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))


def select_sessions(split: str, limit: int | None = None, ids: list[str] | None = None,
                    keys: list[str] | None = None, track: str = "templated") -> list[Session]:
    """The sessions of `split` of `track` a run covers: those named in `ids` (all if None), then the first `limit` of
    them; with instruction `keys`, only the sessions that hold them. ConfigError if that leaves none."""
    sessions, asked = load_split(split, track), ids
    if keys is not None:
        known = {i.key: s.session_id for s in sessions for i in s.instructions}
        unknown = [k for k in keys if k not in known]
        if unknown:
            raise ConfigError(f"no instruction {', '.join(unknown)} in the {split} split (keys are SESSION#TURN)")
        holding = {known[k] for k in keys}
        ids = sorted(holding) if ids is None else [i for i in ids if i in holding]
    if ids is not None:
        unknown = sorted(set(ids) - {s.session_id for s in sessions})
        if unknown:
            raise ConfigError(f"no session {', '.join(unknown)} in the {split} split")
        sessions = [s for s in sessions if s.session_id in ids]
    if not sessions:
        named = ["all" if x is None else ", ".join(x) or "none" for x in (asked, keys)]
        raise ConfigError(f"the options choose no instruction of the {split} split (sessions: {named[0]}; "
                          f"instructions: {named[1]})")
    return sessions[:limit] if limit else sessions


def write_json(path: Path, data: Any) -> None:
    """`data` as indented UTF-8 JSON, written atomically."""
    write_atomically(path, (json.dumps(data, ensure_ascii=False, indent=1, default=str) + "\n").encode("utf-8"))


def run_settings(out: Path) -> dict[str, Any]:
    """A run folder's settings (``run.json``); ConfigError if `out` is not a run folder."""
    if not (Path(out) / "run.json").is_file():
        raise ConfigError(f"{out} is not a run folder (no run.json)")
    return read_json(Path(out) / "run.json", RUN_REMEDY, RUN_FIELDS)


def wall_seconds(out: Path) -> float | None:
    """The wall time of the calls of ``bench run`` on run folder `out` so far: 0 for a new folder, None for one whose
    summary does not know it."""
    path = out / "summary.json"
    if not path.is_file():
        return 0.0
    return read_json(path, SUMMARY_REMEDY, {"wall_seconds": (int, float, type(None))})["wall_seconds"]


def run_sessions(spec: dict[str, Any]) -> list[Session]:
    """The sessions a run with settings `spec` covers."""
    return select_sessions(spec["split"], spec["limit"], spec["sessions"], spec["instructions"], run_track(spec))


def recorded_run(out: Path) -> tuple[dict[str, Any], list[Session]]:
    """A run folder's settings (``run.json``) and the sessions it covers; ConfigError if `out` is not a run folder."""
    spec = run_settings(out)
    return spec, run_sessions(spec)


# --- units ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """One unit of a run (module docstring): `instruction` of `session`, its record at `record` and its other files
    beside it; `teacher_forced`: run from the instruction's gold start (else a session turn, run on the output of the
    turn before)."""

    session: Session
    instruction: Instruction
    record: Path
    teacher_forced: bool

    @property
    def output(self) -> Path:
        return self.record.with_suffix(".docx")

    @property
    def trace(self) -> Path:
        return self.record.with_suffix(".trace.jsonl")

    @property
    def status(self) -> Path:
        return self.record.with_suffix(".status")

    @property
    def rerun(self) -> str:
        """What deleting the unit's status does."""
        return "to run that instruction again" if self.teacher_forced else "to run its session again from turn 1"

    def start(self) -> bytes:
        """The document the unit started from: its instruction's gold start, or the session's output of the turn
        before (its saved output; the session's first document for turn 1)."""
        turn = self.instruction.turn
        if self.teacher_forced or turn == 1:
            return self.session.initial_document(turn).to_bytes()
        return (self.record.parent / f"turn-{turn - 1}.docx").read_bytes()


def instruction_unit(out: Path, session: Session, ins: Instruction) -> Unit:
    """Instruction `ins` of `session` run from its gold start (teacher forcing)."""
    return Unit(session, ins, instruction_path(out, ins), True)


def session_folder(out: Path, session: Session) -> Path:
    return out / "sessions" / session.session_id


def turn_unit(out: Path, session: Session, ins: Instruction) -> Unit:
    """Turn ``ins.turn`` of `session` in session mode (the system's output carried forward)."""
    return Unit(session, ins, session_folder(out, session) / f"turn-{ins.turn}.json", False)


def resume_path(folder: Path, turn: int) -> Path:
    """The document a session in `folder` continues from after `turn` (with its element ids)."""
    return folder / f"resume-{turn}.docx"


def read_status(unit: Unit) -> dict[str, Any]:
    """What generating `unit` reported (its ``.status`` file); ConfigError naming a damaged one, or one of another
    unit."""
    status = read_json(unit.status, f"delete it {unit.rerun}", STATUS_FIELDS)
    if status["key"] != unit.instruction.key:
        raise ConfigError(f"{unit.status} holds the status of {status['key']!r}, not of {unit.instruction.key}; "
                          f"restore it, or delete it {unit.rerun}")
    return status


def check_statuses(units: list[Unit]) -> None:
    """ConfigError naming the records of `units` without their unit's status (a record is made from it)."""
    missing = [u.record for u in units if u.record.is_file() and not u.status.is_file()]
    if missing:
        names = ", ".join(str(p) for p in missing[:3]) + (" ..." if len(missing) > 3 else "")
        raise ConfigError(f"{len(missing)} record(s) without their unit's status ({names}, the .status beside each): "
                          "a unit's record is graded from its status, its output and the data; restore them, or "
                          "delete those records to run their units again")


def generated_turns(out: Path, session: Session) -> int:
    """How many turns of `session` were generated one after another from turn 1 (their statuses exist)."""
    count = 0
    for ins in session.instructions:
        if not turn_unit(out, session, ins).status.is_file():
            break
        count += 1
    return count


# --- what a record was made against ------------------------------------------------------------------


def current(record: dict[str, Any], session: Session, version: str) -> bool:
    """Whether a record (or status) of `session` in a run on DWBench data `version` was made against this autodw's
    instruction (:func:`autodw.eval.metrics.made_against`)."""
    return made_against(record, session, version) == session.data_hash(record["turn"])


def outdated(out: Path, sessions: list[Session], version: str) -> list[dict[str, Any]]:
    """The records of run folder `out` (made on DWBench data `version`) not :func:`current`: instruction records,
    then session turns."""
    by_id = {s.session_id: s for s in sessions}
    records = instruction_records(out, sessions) + [t for s in sessions for t in session_turns(out, s)]
    return [r for r in records if not current(r, by_id[r["session_id"]], version)]


# --- a session's turns kept ------------------------------------------------------------------------


def kept_turns(turns: list[dict[str, Any]], usable: int, session: Session, stop: bool, folder: Path) -> int:
    """How many of a session's turn records stay: the first `usable` (made against this autodw's data), with `stop`
    only those up to the first failed one (a fresh run stops there); none if the session is to be continued from a
    turn whose document to continue from is gone (only the last turn's is kept), so that it runs again from its
    first turn."""
    keep = next((n + 1 for n, t in enumerate(turns[:usable]) if not t["success"]), usable) if stop else usable
    to_continue = not session_finished(turns[:keep], session, stop)
    return 0 if to_continue and (keep < len(turns) or not resume_path(folder, keep).is_file()) else keep


def drop_turns(folder: Path, keep: int, turns: int) -> None:
    """Remove the files of the turns after `keep` up to `turns` (the last first, each turn's record first: the files
    left always describe the turns from turn 1), and every document to continue from but turn `keep`'s."""
    for turn in range(turns, keep, -1):
        for name in (f"turn-{turn}.json", f"turn-{turn}.status", f"turn-{turn}.docx", f"turn-{turn}.trace.jsonl"):
            (folder / name).unlink(missing_ok=True)
    kept = resume_path(folder, keep) if keep else None
    for resume in folder.glob("resume-*.docx"):
        if resume != kept:
            resume.unlink()
