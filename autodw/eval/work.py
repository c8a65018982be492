"""What a worker of a run does with a unit: generate it unless it was (:mod:`autodw.eval.generate`), then grade it
(:mod:`autodw.eval.grade`); a session's turns one after another, continued after its last generated turn. The same
:class:`Work` runs in the runner's thread, in a pool of threads (a system each; in instruction mode they only
generate, the runner's thread grades) or in worker processes, which are given it by their initializer
(:func:`worker_processes`)."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from threading import local
from typing import Any, Callable

from autodw.core.document import WordDocument
from autodw.dwbench.records import Session
from autodw.eval.generate import generate
from autodw.eval.grade import grade
from autodw.eval.metrics import session_turns
from autodw.eval.run_folder import (Unit, drop_turns, generated_turns, kept_turns, resume_path, session_folder,
                                    turn_unit, write_json)
from autodw.eval.systems import System
from autodw.eval.word_check import WordCheck


@dataclass
class Work:
    """Runs units into run folder `out` with systems made by `make_system` (one per thread), grading them with
    `word_check` (None: no Word check); `stop_at_failure`: a session ends at its first failed turn."""

    out: Path
    make_system: Callable[[], System]
    word_check: WordCheck | None
    stop_at_failure: bool
    _local: local = field(default_factory=local, repr=False)

    def system(self) -> System:
        """This thread's system (a system is not shared between threads)."""
        if not hasattr(self._local, "system"):
            self._local.system = self.make_system()
        return self._local.system

    def grade(self, unit: Unit) -> dict[str, Any]:
        """Grade `unit` and write its record; the record."""
        record = grade(unit, self.word_check)
        write_json(unit.record, record)
        return record

    def instruction(self, unit: Unit) -> bool:
        """Run one instruction from its gold initial state (unless it was) and grade it. Returns whether it
        succeeded."""
        return self.graded(self.generated(unit))

    def generated(self, unit: Unit) -> Unit:
        """Run one instruction from its gold initial state, unless it was; the unit (to grade)."""
        if not unit.status.is_file():
            session, ins = unit.session, unit.instruction
            earlier = [(i.text, "done") for i in session.instructions[: ins.turn - 1]]
            generate(self.system(), unit, session.initial_document(ins.turn), earlier)
        return unit

    def graded(self, unit: Unit) -> bool:
        """Grade generated `unit` (its record written); whether it succeeded."""
        return self.grade(unit)["success"]

    def session(self, session: Session) -> bool:
        """Run (or continue) a session, carrying the system's output from turn to turn, each turn graded before the
        next (with ``stop_at_failure`` a failed turn ends it). Returns whether every turn succeeded."""
        folder = session_folder(self.out, session)
        folder.mkdir(parents=True, exist_ok=True)
        # the turns generated one after another from turn 1 are graded and continued from, unless a later turn has
        # files (one in between was deleted: only the last turn's document to continue from is kept) or the last
        # one's document to continue from is gone: then the session runs again from turn 1
        units = [turn_unit(self.out, session, ins) for ins in session.instructions]
        generated = generated_turns(self.out, session)
        later = any(u.status.is_file() or u.record.is_file() for u in units[generated:])
        for unit in [] if later else units[:generated]:
            if not unit.record.is_file():
                self.grade(unit)
        turns = session_turns(self.out, session)
        kept = 0 if later else kept_turns(turns, len(turns), session, self.stop_at_failure, folder)
        drop_turns(folder, kept, len(units))
        if kept:
            doc = WordDocument.from_bytes(resume_path(folder, kept).read_bytes(), name=session.source.file)
            doc.asset_roots = session.initial_document(1).asset_roots
        else:
            doc = session.initial_document(1)
        earlier = [(i.text, t["status"]) for i, t in zip(session.instructions, turns[:kept])]
        for unit in units[kept:]:
            resume = resume_path(folder, unit.instruction.turn)
            status = generate(self.system(), unit, doc, earlier, resume=resume)
            for old in folder.glob("resume-*.docx"):  # the document to continue from is the last turn's
                if old != resume:
                    old.unlink()
            record = self.grade(unit)
            earlier.append((unit.instruction.text, status["status"]))
            if self.stop_at_failure and not record["success"]:
                break
        turns = session_turns(self.out, session)
        return len(turns) == len(units) and all(t["success"] for t in turns)

    def in_new_process(self) -> "Work":
        """This work for a new worker process: a system and a Word check of its own (the parent's are not shared
        across processes), the Word check's validation workers ended when the process ends (a forked process skips
        atexit)."""
        from multiprocessing.util import Finalize

        word_check = None if self.word_check is None else WordCheck()
        if word_check is not None:
            Finalize(word_check, word_check.close, exitpriority=10)
        return replace(self, word_check=word_check, _local=local())


def worker_processes(workers: int, work: Work, task: Callable[[Work, Any], Any],
                     units: list[Any]) -> tuple[ProcessPoolExecutor, Callable[[int], Any]]:
    """A pool of `workers` forked processes, each given `work` (its own copy: :meth:`Work.in_new_process`), `task`
    (a method of :class:`Work`) and `units` by its initializer, and the function to submit to it to run `task` on
    unit i."""
    return (ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                initializer=_start_worker_process, initargs=(work, task, units)),
            _run_in_worker_process)


#: In a worker process: the work its initializer was given, the function it runs on a unit, and the units.
_PROCESS_WORK: tuple[Work, Callable[[Work, Any], Any], list[Any]] | None = None


def _start_worker_process(work: Work, task: Callable[[Work, Any], Any], units: list[Any]) -> None:
    """The initializer of a worker process (forked: its arguments are not pickled)."""
    global _PROCESS_WORK
    _PROCESS_WORK = (work.in_new_process(), task, units)


def _run_in_worker_process(index: int) -> Any:
    """In a worker process: run its task on unit `index` (the unit's files are written by the worker, as in a
    thread)."""
    work, task, units = _PROCESS_WORK
    return task(work, units[index])
