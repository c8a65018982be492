"""Grading a unit of a run: its record, a pure function of its saved files (the output, the status generating it
wrote, the record it had) and the DWBench data. ``bench run`` grades each unit it generates with it, ``bench rescore``
a run's units again (:mod:`autodw.eval.run_folder` has the files)."""

from __future__ import annotations

from typing import Any, Callable

from autodw.core.document import WordDocument
from autodw.dwbench.records import Instruction, Session
from autodw.core.errors import ConfigError, DocumentError
from autodw.eval.accept import judge_accepted, needs_initial
from autodw.eval.canonical import prepare
from autodw.eval.judge import JUDGE_VERSION, Difference, Verdict
from autodw.eval.metrics import RECORD_FIELDS, RECORD_REMEDY, read_json
from autodw.eval.partial import partial_credit
from autodw.eval.run_folder import Unit, read_status
from autodw.eval.word_check import WordCheck
from autodw.analysis.validation import ValidatorUnavailableError

SHOWN_DIFFERENCES = 20  # differences kept in a record (the judge's count is kept too)


def grade(unit: Unit, word_check: WordCheck | None = None) -> dict[str, Any]:
    """The record of generated `unit`: the instruction, what generating it reported (its status), the judge's verdict
    on its saved output (:func:`judge_output`; teacher-forced, with its partial credit) and the Word check's findings:
    the record's the unit had, when it has them (the same output, only the judge may have changed), else
    `word_check`'s (none without it). ConfigError naming a missing or damaged file, or a unit generated against other
    DWBench data."""
    session, ins = unit.session, unit.instruction
    status = read_status(unit)
    if status["data_hash"] != session.data_hash(ins.turn):
        raise ConfigError(f"{unit.status} was generated against another instruction {ins.key} (DWBench data hash "
                          f"{status['data_hash']}, this autodw's {session.data_hash(ins.turn)}): "
                          f"autodw bench rescore --rejudge {unit.record.parent} drops it")
    judged = judge_output(session, ins, saved_output(unit),
                          (lambda: session.initial_document(ins.turn)) if unit.teacher_forced else None)
    word, word_error = _word_findings(unit, word_check)
    usage = status["usage"]
    return {
        "key": ins.key, "session_id": ins.session_id, "turn": ins.turn, "instruction": ins.text, "track": ins.track,
        "held_out": ins.held_out, "language": ins.language, "difficulty": ins.difficulty, "free_text": ins.free_text,
        "gold_calls": len(ins.gold), "status": status["status"], "error": status["error"], **judged,
        "api_calls": status["api_calls"], "llm_calls": sum(u["calls"] for u in usage.values()),
        "prompt_tokens": sum(u["prompt_tokens"] for u in usage.values()),
        "completion_tokens": sum(u["completion_tokens"] for u in usage.values()),
        "usage": usage, "seconds": status["seconds"],
        "recalled_seconds": round(sum(u.get("recalled_seconds", 0.0) for u in usage.values()), 3),
        "calls": status["calls"], "faults": status["faults"],
        "word_errors_added": word, "word_check_error": word_error, "output": status["output"],
        "trace": status["trace"], "finished_at": status["finished_at"], "pid": status["pid"],
    }


def judge_output(session: Session, ins: Instruction, doc: WordDocument,
                 initial: Callable[[], WordDocument] | None = None) -> dict[str, Any]:
    """The record fields of the judge's verdict on `doc` as the output of `ins` (against its gold and alternatives,
    with its tolerances: :func:`autodw.eval.accept.judge_accepted`): ``success``, ``matched`` ("gold", "alternative
    N" or None), ``tolerances_used`` (when any), ``partial_credit`` and ``changes`` (with `initial`, the document
    before the instruction; else None), ``differences`` (the first SHOWN_DIFFERENCES, the gold's when nothing
    matched), ``n_differences``, ``judge_error`` (an output the judge cannot read fails, the run goes on),
    ``judge_version`` and ``data_hash`` (what it was judged against: :meth:`Session.data_hash`)."""
    judge_error = None
    try:
        expected = prepare(session.expected_document(ins.turn))
        # the initial document bounds the free-text and named-colour tolerances; prepared once for both uses
        start = prepare(session.initial_document(ins.turn)) if needs_initial(ins) else None
        verdict = judge_accepted(session, ins, doc, expected=expected, initial=start)
        changes = None if initial is None or verdict.equivalent else partial_credit(
            expected, start if start is not None else initial(), instruction=ins.text, free_text=ins.free_text,
            end=verdict.differences)
    except Exception as exc:  # noqa: BLE001 - an output the judge cannot read fails, the run goes on
        judge_error = f"{type(exc).__name__}: {exc}"
        verdict, changes = Verdict(False, [Difference("document", f"not judged: {judge_error}")]), None
    return {
        "success": verdict.equivalent, "matched": verdict.matched,
        **({"tolerances_used": verdict.tolerances_used} if verdict.tolerances_used else {}),
        "partial_credit": 1.0 if verdict.equivalent else 0.0 if judge_error else changes.score if changes else None,
        "changes": changes.to_dict() if changes else None,
        "differences": [d.to_dict() for d in verdict.differences[:SHOWN_DIFFERENCES]],
        "n_differences": len(verdict.differences) if verdict.count is None else verdict.count,
        "judge_error": judge_error, "judge_version": JUDGE_VERSION, "data_hash": session.data_hash(ins.turn),
    }


def saved_output(unit: Unit) -> WordDocument:
    """A unit's saved output; ConfigError naming a missing or damaged one."""
    if not unit.output.is_file():
        raise ConfigError(f"{unit.output} is missing: a unit is graded from its saved output (keep_run_records.sh "
                          f"keeps them); restore it, or delete {unit.status.name} {unit.rerun}")
    try:
        return WordDocument.open(unit.output)
    except DocumentError as exc:
        raise ConfigError(f"{unit.output} is damaged ({exc}); restore it, or delete {unit.status.name} "
                          f"{unit.rerun}") from None


def _word_findings(unit: Unit, word_check: WordCheck | None) -> tuple[list[dict[str, str]] | None, str | None]:
    """The Word check's findings on the unit's output and the error that kept it from checking it (:func:`grade`)."""
    if unit.record.is_file():
        earlier = read_json(unit.record, RECORD_REMEDY, RECORD_FIELDS)
        if earlier["word_errors_added"] is not None or earlier["word_check_error"] is not None:
            return earlier["word_errors_added"], earlier["word_check_error"]
    if word_check is None:
        return None, None
    before, after = unit.start(), unit.output.read_bytes()
    try:
        return ([] if after == before else word_check.added(before, after)), None
    except ValidatorUnavailableError as exc:  # a timeout, a crash or the validator failing on this output
        return None, str(exc)
