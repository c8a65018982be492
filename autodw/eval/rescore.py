"""``bench rescore``: a run folder's generated units graded (again) from their saved files, by the grading ``bench run``
grades with (:func:`autodw.eval.grade.grade`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import takewhile
from pathlib import Path
from typing import Any

from autodw.dwbench.records import DATA_VERSION, Session
from autodw.core.errors import ConfigError
from autodw.eval.grade import grade
from autodw.eval.judge import JUDGE_VERSION
from autodw.eval.metrics import (RECORD_FIELDS, RECORD_REMEDY, RUN_FIELDS, RUN_REMEDY, data_version, judge_version, read_json,
                                 rejudge_hint, session_finished, session_turns, summarize)
from autodw.eval.run_folder import (Unit, check_statuses, current, drop_turns, generated_turns, instruction_unit,
                                    kept_turns, read_status, recorded_run, session_folder, turn_unit, wall_seconds,
                                    write_json)


@dataclass
class Rescored:
    """What ``bench rescore`` did to a run folder."""

    summary: dict[str, Any]
    judged: int = 0  # units graded (again)
    flipped: list[str] = field(default_factory=list)  # records whose success changed: "SID#T: failed -> passed"
    dropped: list[str] = field(default_factory=list)  # units removed ("SID#T (session)"): bench run runs them again
    to_continue: list[str] = field(default_factory=list)  # sessions with turns still to run


def rescore(out: Path, rejudge: bool = False, progress: bool = True) -> Rescored:
    """Grade the units of run folder `out` generated but not graded (a run stopped between the two; refused for a run
    of another judge or data version); with `rejudge`, bring the folder to this autodw's judge and DWBench data: drop
    the units generated against instructions that changed since (a session's from the first such turn), grade every
    other unit not graded by this judge, drop the turns after a session's new first failure (``stop_at_failure``: a
    fresh run stops there) and record both versions in ``run.json``. Every unit is graded before anything is written;
    ``run.json`` and ``summary.json`` are written last."""
    out = Path(out)
    recorded, sessions = recorded_run(out)
    if rejudge:
        _refuse_rejudge(out, recorded)
    version = data_version(recorded)

    def on_this_data(unit: Unit) -> bool:
        return current(read_status(unit), unit.session, version)

    check_statuses([make(out, s, i) for s in sessions for i in s.instructions for make in (instruction_unit, turn_unit)])
    forced = [u for s in sessions for i in s.instructions if (u := instruction_unit(out, s, i)).status.is_file()]
    stale = [u for u in forced if rejudge and not on_this_data(u)]
    usable = {s.session_id: _session_units(out, s, on_this_data if rejudge else None) for s in sessions}
    dropping = {u.record for u in stale}
    todo = [u for u in forced if u.record not in dropping] + [u for units in usable.values() for u in units]
    todo = [u for u in todo if not u.record.is_file() or rejudge and judge_version(_record(u)) != JUDGE_VERSION]
    if todo and not rejudge and (judge_version(recorded), data_version(recorded)) != (JUDGE_VERSION, DATA_VERSION):
        raise ConfigError(f"{out} was judged by judge version {judge_version(recorded)} on DWBench "
                          f"{data_version(recorded)} data, this autodw's are {JUDGE_VERSION} and {DATA_VERSION}: "
                          f"its units are graded by one judge, so {rejudge_hint(out)}")
    done = Rescored(summary={})
    graded = _graded(out, todo, done.flipped, progress)  # nothing written before this
    for unit, record in graded:
        write_json(unit.record, record)
    done.judged = len(graded)
    for unit in stale:
        for name in (unit.record, unit.status, unit.output, unit.trace):  # the record first
            name.unlink(missing_ok=True)
        done.dropped.append(unit.instruction.key)
    stop = recorded["stop_at_failure"]
    for session in sessions if rejudge else ():
        now, folder = session_turns(out, session), session_folder(out, session)
        keep = kept_turns(now, len(usable[session.session_id]), session, stop, folder)
        done.dropped += [f"{t['key']} (session)" for t in now[keep:]]
        drop_turns(folder, keep, len(session.instructions))
    if rejudge:
        write_json(out / "run.json", {**recorded, "judge_version": JUDGE_VERSION, "data_version": DATA_VERSION})
        recorded = read_json(out / "run.json", RUN_REMEDY, RUN_FIELDS)
        done.to_continue = [s.session_id for s in sessions
                            if (ts := session_turns(out, s)) and not session_finished(ts, s, stop)]
    done.summary = summarize(out, sessions, recorded, wall_seconds=wall_seconds(out))
    write_json(out / "summary.json", done.summary)
    return done


def _session_units(out: Path, session: Session, on_this_data: Any) -> list[Unit]:
    """The turns of `session` generated one after another from turn 1, with `on_this_data` only those up to the first
    one generated against an instruction that changed since."""
    units = [turn_unit(out, session, i) for i in session.instructions[:generated_turns(out, session)]]
    return units if on_this_data is None else list(takewhile(on_this_data, units))


def _record(unit: Unit) -> dict[str, Any]:
    return read_json(unit.record, RECORD_REMEDY, RECORD_FIELDS)


def _graded(out: Path, todo: list[Unit], flipped: list[str], progress: bool) -> list[tuple[Unit, dict[str, Any]]]:
    """The units of `todo` with their records graded from their saved files; the verdicts that changed added to
    `flipped`. ConfigError naming the missing or damaged outputs."""
    from autodw.core.progress import progress as progress_display

    missing = [f"{u.output.name} ({u.instruction.key})" for u in todo if not u.output.is_file()]
    if missing:
        raise ConfigError(f"{out} has no output {', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''} "
                          f"({len(missing)} in all): a run is judged again from its saved outputs "
                          "(keep_run_records.sh keeps them)")
    graded = []
    for unit in progress_display(todo, desc="judging", unit="output", disable=not progress):
        earlier = _record(unit) if unit.record.is_file() else None
        record = grade(unit)
        graded.append((unit, record))
        if earlier is not None and record["success"] != earlier["success"]:
            flipped.append(f"{unit.instruction.key}{'' if unit.teacher_forced else ' (session)'}: "
                           f"{'passed' if earlier['success'] else 'failed'} -> "
                           f"{'passed' if record['success'] else 'failed'}")
    return graded


def _refuse_rejudge(out: Path, recorded: dict[str, Any]) -> None:
    """ConfigError if run folder `out` cannot be judged again faithfully: judged by a newer judge (it would be
    downgraded), or a noisy-oracle run, whose system calls the judge itself (the oracle validator's verdicts, hence its
    outputs, and each fault's effect), so that only a new run has this judge's figures."""
    if judge_version(recorded) > JUDGE_VERSION:
        raise ConfigError(f"{out} was judged by judge version {judge_version(recorded)}, newer than this autodw's "
                          f"({JUDGE_VERSION}): use the autodw that made it")
    if recorded["system"] == "noisy-oracle":
        raise ConfigError(f"{out} is a noisy-oracle run: the system calls the judge itself (the oracle validator, "
                          "each fault's effect), so its outputs and fault accounting are its judge's; run it again "
                          "into a new folder (a sweep: the sweep into a new folder)")
