"""The metrics of a run folder, computed from its records (so a resumed or partial run is summarised the same way).

- iACC: the share of instructions whose output the judge finds equivalent to the expected state (or to an
  alternative's: :mod:`autodw.eval.accept`), each instruction starting from its gold initial state
  (``instructions/``); ``iacc_held_out`` (with ``held_out_instructions``, when the run has any): over the held-out
  instructions only (a template or phrasing dev never has, or a hand-written turn of test);
- sACC: the share of sessions in which every turn's output is equivalent, the system's output carried forward
  (``sessions/``); ``sacc_final``: only the last turn's; ``turns_before_failure``: the mean number of turns that
  succeeded before the first failure. A run with ``stop_at_failure`` ends a session at its first failed turn: sACC
  and turns before failure are the same; once a session is stopped (``sessions_stopped``), ``sacc_final`` and the
  cost per session are None (over the sessions that got through they would be biased upwards);
- partial credit (:mod:`autodw.eval.partial`): the mean over instructions of the share of the expected changes an
  output made, less its unasked ones (1 for an equivalent output); ``partial_credit_missing`` counts the instruction
  records without one (none since every record is given one: runs before it were given theirs by ``bench rescore``);
- cost per instruction (API calls, LLM calls, tokens, seconds; over every recorded session turn in a session-only
  run) and per session (over the finished sessions), by difficulty and language; the seconds of an
  answer recalled from an LLM cache are its recorded ones (:func:`seconds`), ``recalled_seconds`` says how many;
- the noisy oracle's fault accounting (:func:`fault_stats`) and the Word check (outputs that added errors).

sACC, ``sacc_final``, turns before failure, ``sessions`` and the cost per session count the finished sessions only
(an unfinished one has no verdict yet); the totals (``seconds``, ``recalled_seconds``), ``status``,
``internal_errors``, ``judge_errors``, ``word_check`` and ``session_faults`` count every recorded record, the turns
of sessions not yet finished too, so an interrupted run shows all the time and errors it recorded.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable

from autodw.dwbench.records import Instruction, Session
from autodw.core.errors import ConfigError


#: What deleting a damaged record does: its unit is graded again from its saved files (:mod:`autodw.eval.grade`).
RECORD_REMEDY = "delete it to grade that part again"
#: the fields a file of a run folder must have (a missing one, or one of another type, is a damaged file)
RECORD_FIELDS: dict[str, tuple[type, ...]] = {"key": (str,), "session_id": (str,), "turn": (int,), "success": (bool,),
                                               "partial_credit": (int, float, type(None)), "judge_version": (int,)}
#: what a run's settings and summary say it was made on
VERSION_FIELDS: dict[str, tuple[type, ...]] = {"judge_version": (int,), "data_version": (str,), "track": (str,)}
RUN_FIELDS: dict[str, tuple[type, ...]] = {
    "system": (str,), "split": (str,), "llm": (str,), "modes": (list,), "options": (dict,), "limit": (int, type(None)),
    "sessions": (list, type(None)), "instructions": (list, type(None)), "stop_at_failure": (bool,), **VERSION_FIELDS}
RUN_REMEDY = "make the run again in a new folder (run.json holds the run's settings)"
SUMMARY_FIELDS: dict[str, tuple[type, ...]] = {"system": (str,), "split": (str,), **VERSION_FIELDS,
                                               "iacc": (int, float, type(None)), "sacc": (int, float, type(None))}
SUMMARY_REMEDY = "write it again from the run's records with autodw bench rescore"


def read_json(path: Path, remedy: str = RECORD_REMEDY, fields: dict[str, tuple[type, ...]] | None = None) -> dict[str, Any]:
    """A run folder's JSON file (settings, summary, record); ConfigError naming it if it is not a JSON object or
    lacks one of `fields` or has it of another type, with `remedy` (what to do about it)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError
        raise ConfigError(f"{path} is damaged ({exc}); restore it, or {remedy}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path} is damaged (a JSON {type(data).__name__}, not an object); restore it, or {remedy}")
    for key, types in (fields or {}).items():
        if key not in data or not isinstance(data[key], types) or (isinstance(data[key], bool) and bool not in types):
            problem = f"no {key!r}" if key not in data else f"{key!r} is {json.dumps(data[key])[:40]}"
            raise ConfigError(f"{path} is damaged ({problem}); restore it, or {remedy}")
    return data


def judge_version(data: dict[str, Any]) -> int:
    """The judge version of a run's settings, summary or record."""
    return data["judge_version"]


def data_version(data: dict[str, Any]) -> str:
    """The DWBench data version of a run's settings or summary."""
    return data["data_version"]


def run_track(data: dict[str, Any]) -> str:
    """The DWBench track of a run's settings or summary."""
    return data["track"]


def data_major(data: dict[str, Any]) -> str:
    """The major DWBench data version of a run's settings or summary ("1" for 1.0 and 1.1): runs of different major
    versions are never paired (2.0 regenerated the templated track)."""
    return data_version(data).split(".")[0]


def made_against(record: dict[str, Any], session: Session, version: str) -> str:
    """The data hash (:meth:`Session.data_hash`) of the instruction a record of `session` was made against: its
    ``data_hash``; a record without one was made on DWBench 1.x, before they were recorded, and matches no 2.0
    instruction."""
    return record.get("data_hash", f"unrecorded ({version})")


def rejudge_hint(run: Path | str) -> str:
    """How to judge run folder `run` again with this autodw's judge."""
    return f"judge {run} again first (autodw bench rescore --rejudge {run})"


def _load(path: Path, remedy: str = RECORD_REMEDY) -> dict[str, Any] | None:
    try:
        return read_json(path, remedy, RECORD_FIELDS)
    except FileNotFoundError:
        return None


def instruction_path(out: Path, ins: Instruction) -> Path:
    """Where run folder `out` keeps the record of instruction `ins` (teacher forcing)."""
    return out / "instructions" / f"{ins.session_id}--{ins.turn}.json"


def instruction_records(out: Path, sessions: list[Session]) -> list[dict[str, Any]]:
    """The finished instruction records of the run, in split order; ConfigError for a record file that holds
    another instruction's record (copied or edited by hand)."""
    records = []
    for ins in (i for s in sessions for i in s.instructions):
        path = instruction_path(out, ins)
        if (record := _load(path)) is None:
            continue
        if record.get("key") != ins.key:
            raise ConfigError(f"{path} holds the record of {record.get('key')!r}, not of {ins.key}; restore it, or "
                              "delete it to grade that instruction again")
        records.append(record)
    return records


def session_turns(out: Path, session: Session) -> list[dict[str, Any]]:
    """The turn records of `session` in the run, in turn order, up to the first turn without one."""
    turns = []
    for i in session.instructions:
        if (turn := _load(out / "sessions" / session.session_id / f"turn-{i.turn}.json")) is None:
            break
        turns.append(turn)
    return turns


def session_finished(turns: list[dict[str, Any]], session: Session, stop_at_failure: bool) -> bool:
    """Whether a session with these turn records needs no more turns: all are done, or (`stop_at_failure`) one failed."""
    return len(turns) == len(session.instructions) or (stop_at_failure and any(not t["success"] for t in turns))


def _share(values: Iterable[bool]) -> float | None:
    values = list(values)
    return round(sum(values) / len(values), 4) if values else None


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return round(statistics.fmean(values), 3) if values else None


def _groups(records: list[dict[str, Any]], key: str, value: Callable[[dict[str, Any]], Any]) -> dict[str, list[Any]]:
    """`value` of each record (None left out), grouped by the record's `key`, in key order."""
    groups: dict[str, list[Any]] = defaultdict(list)
    for r in records:
        if (v := value(r)) is not None:
            groups[r[key]].append(v)
    return dict(sorted(groups.items()))


def _by(records: list[dict[str, Any]], key: str) -> dict[str, Any]:
    return {k: {"accuracy": _share(v), "n": len(v)} for k, v in _groups(records, key, lambda r: r["success"]).items()}


def _partial_by(records: list[dict[str, Any]], key: str) -> dict[str, Any]:
    return {k: {"partial_credit": _mean(v), "n": len(v)}
            for k, v in _groups(records, key, lambda r: r.get("partial_credit")).items()}


def seconds(record: dict[str, Any]) -> float:
    """What an instruction took: its wall time, plus the recorded model time of the answers it got from an LLM
    cache (``--llm-cache``), so runs that share a cache report what each would take alone."""
    return record["seconds"] + record.get("recalled_seconds", 0.0)


def cost(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean API calls, LLM calls, tokens and seconds per record, and the median seconds."""
    return {
        "api_calls_per_instruction": _mean(r["api_calls"] for r in records),
        "llm_calls_per_instruction": _mean(r["llm_calls"] for r in records),
        "prompt_tokens_per_instruction": _mean(r["prompt_tokens"] for r in records),
        "completion_tokens_per_instruction": _mean(r["completion_tokens"] for r in records),
        "tokens_per_instruction": _mean(r["prompt_tokens"] + r["completion_tokens"] for r in records),
        "seconds_per_instruction": _mean(seconds(r) for r in records),
        "median_seconds_per_instruction": round(statistics.median(seconds(r) for r in records), 3) if records else None,
        "recalled_seconds_per_instruction": _mean(r.get("recalled_seconds", 0.0) for r in records),
    }


def session_cost(sessions: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """Mean API calls, LLM calls and tokens per session (None without sessions)."""
    def per_session(value: Callable[[dict[str, Any]], float]) -> float | None:
        return _mean(sum(value(t) for t in s) for s in sessions)

    return {
        "api_calls_per_session": per_session(lambda t: t["api_calls"]),
        "llm_calls_per_session": per_session(lambda t: t["llm_calls"]),
        "prompt_tokens_per_session": per_session(lambda t: t["prompt_tokens"]),
        "completion_tokens_per_session": per_session(lambda t: t["completion_tokens"]),
        "tokens_per_session": per_session(lambda t: t["prompt_tokens"] + t["completion_tokens"]),
    }


def fault_stats(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The noisy oracle's accounting over every gold step of `records` (None if no record has steps).

    A fault is *effective* when the perturbed call fails or leaves another state than the gold call. Of the
    effective faults that executed, the validator *caught* those it rejected; *false rejections* are rejected first
    attempts that were right (no fault, or a fault without effect). Precision and recall are the validator's on the
    first attempts it judged; skipped steps never reach it and are counted apart. ``if_every_fail_rejected``: the
    same first verdicts read with ``verdict_rule="decision"`` (every fail rejects, whatever its confidence).
    ``caught_by_rule``: of the catches, how many each rule check's certain finding made (a catch by two checks counts
    for both; records made before verdicts named their rule checks count none).
    """
    steps = [s for r in records for s in r.get("faults") or []]
    if not steps:
        return None
    kinds = Counter(s["fault"] for s in steps if s["fault"])
    judged = [s for s in steps if s.get("verdicts") and s["verdicts"][0]["level"] == "first"]
    faulty = [s for s in judged if s["fault"] and s.get("effective")]
    rejected = [s for s in judged if not s["verdicts"][0]["accepted"]]
    caught = [s for s in faulty if not s["verdicts"][0]["accepted"]]
    false_rejections = [s for s in rejected if not (s["fault"] and s.get("effective"))]
    validator_calls = sum(len(s.get("verdicts", [])) for s in steps)
    fails = [s for s in judged if s["verdicts"][0]["decision"] == "fail"]  # what verdict_rule "decision" rejects
    fails_caught = [s for s in fails if s["fault"] and s.get("effective")]
    return {
        "gold_steps": len(steps), "faults": sum(kinds.values()), "by_kind": dict(sorted(kinds.items())),
        "effective": sum(1 for s in steps if s["fault"] and s.get("effective", s["fault"] == "skip")),
        "failed_calls": sum(1 for s in steps if s["fault"] and s.get("executed") is False),
        "judged": len(judged), "judged_faults": len(faulty), "caught": len(caught),
        "false_rejections": len(false_rejections),
        "precision": round(len(caught) / len(rejected), 4) if rejected else None,
        "recall": round(len(caught) / len(faulty), 4) if faulty else None,
        "regenerations": sum(s.get("regenerated", 0) for s in steps), "validator_verdicts": validator_calls,
        "if_every_fail_rejected": {"caught": len(fails_caught), "false_rejections": len(fails) - len(fails_caught)},
        "caught_by_rule": dict(sorted(Counter(r for s in caught for r in s["verdicts"][0].get("rule", [])).items())),
    }


def summarize(out: Path, sessions: list[Session], spec: dict[str, Any], wall_seconds: float | None = None) -> dict[str, Any]:
    """The run's summary (written to ``summary.json``); `wall_seconds`: the runner's wall time over every call.
    Session metrics count finished sessions, totals and error counts every recorded turn (module docstring)."""
    ins = instruction_records(out, sessions)
    stop = spec["stop_at_failure"]
    ses, through, turns = [], [], []  # finished sessions; those that got through every turn; every recorded turn
    for session in sessions:
        turns += (recorded := session_turns(out, session))
        if session_finished(recorded, session, stop):
            ses.append(recorded)
            if len(recorded) == len(session.instructions):
                through.append(recorded)
    every = ins or turns
    keys = set(spec["instructions"] or ())  # chosen instructions: those of the sessions the run covers count
    total_instructions = sum(1 for s in sessions for i in s.instructions if not keys or i.key in keys)
    word_checked = [r for r in ins + turns if r.get("word_errors_added") is not None]

    def before_failure(s: list[dict[str, Any]]) -> int:
        return next((n for n, t in enumerate(s) if not t["success"]), len(s))

    summary: dict[str, Any] = {
        "system": spec["system"], "llm": spec["llm"], "track": run_track(spec), "split": spec["split"],
        "modes": spec["modes"],
        "options": spec["options"], "judge_version": judge_version(spec),
        "data_version": data_version(spec),
        "iacc": _share(r["success"] for r in ins),
        "partial_credit": _mean(r["partial_credit"] for r in ins if r.get("partial_credit") is not None),
        "partial_credit_missing": sum(1 for r in ins if r.get("partial_credit") is None), "sacc": _share(all(t["success"] for t in s) for s in ses),
        # with sessions stopped at a failure, whether they would have ended right is unknown
        "sacc_final": _share(s[-1]["success"] for s in through) if len(through) == len(ses) else None,
        "turns_before_failure": _mean(before_failure(s) for s in ses),
        "instructions": len(ins), "instructions_in_split": total_instructions,
        "sessions": len(ses), "sessions_in_split": len(sessions), "sessions_stopped": len(ses) - len(through),
        "complete": (len(ins) == total_instructions if "instruction" in spec["modes"] else True)
        and (len(ses) == len(sessions) if "session" in spec["modes"] else True),
        **cost(every),
        **session_cost(ses if len(through) == len(ses) else []),  # the sessions that got through would be a biased few
        "seconds": round(sum(seconds(r) for r in ins + turns), 1),
        "recalled_seconds": round(sum(r.get("recalled_seconds", 0.0) for r in ins + turns), 1),
        "wall_seconds": None if wall_seconds is None else round(wall_seconds, 1),
        "iacc_by_difficulty": _by(ins, "difficulty"), "iacc_by_language": _by(ins, "language"),
        "partial_credit_by_difficulty": _partial_by(ins, "difficulty"),
        "partial_credit_by_language": _partial_by(ins, "language"),
        "sacc_by_language": {k: v for k, v in _by([{"language": s[0]["language"], "success": all(t["success"] for t in s)}
                                                   for s in ses], "language").items()},
        "status": dict(Counter(r["status"] for r in ins + turns)),
        "internal_errors": sum(1 for r in ins + turns if r["status"] == "internal_error"),
        "judge_errors": sum(1 for r in ins + turns if r.get("judge_error")),
        "word_check": {"checked": len(word_checked),
                       "outputs_with_added_errors": sum(1 for r in word_checked if r["word_errors_added"]),
                       "failed": sum(1 for r in ins + turns if r.get("word_check_error"))},
    }
    held_out = [r["success"] for r in ins if r.get("held_out")]
    if held_out:
        summary.update(iacc_held_out=_share(held_out), held_out_instructions=len(held_out))
    faults = fault_stats(ins)
    if faults is not None:
        summary["faults"] = faults
    session_faults = fault_stats(turns)
    if session_faults is not None:
        summary["session_faults"] = session_faults
    return summary
