"""Run a system on a DWBench split, instruction by instruction (iACC) and/or session by session (sACC), resumably.

Layout of a run folder ``DIR``:

- ``run.json``: what was run (system, LLM, track, split, modes, options); a resumed run must match it. Its
  ``options.config`` is the profile's settings with ``--set``; the system then applies its own (an ablation's
  rollback, the noisy oracle's validator), and the settings in force are in each trace's ``run_start`` event;
- ``instructions/SID--T.json`` (one per instruction, teacher forcing: it starts from the gold state before turn T),
  beside it ``SID--T.docx`` (the output) and ``SID--T.trace.jsonl`` (the agent's events);
- ``sessions/SID/turn-T.json``, ``turn-T.docx``, ``turn-T.trace.jsonl`` (the session carries the system's own
  output forward) and ``resume-T.docx`` (turn T's document with its element ids, to continue from: written before
  ``turn-T.json``, and the one before it removed only after, so a run killed between the two continues from the
  document its records describe; only the last turn's is kept, so a session missing a turn record before its last
  runs again from turn 1);
  with ``stop_at_failure`` a session ends at its first failed turn (sACC needs no more);
- ``summary.json``: the metrics (:mod:`autodw.eval.metrics`), rewritten every few seconds and at the end (a Ctrl-C
  or SIGTERM too);
- ``commands.txt``: each ``autodw bench run`` command given on the folder, with the environment settings that change
  a run (written by the CLI).

Every JSON file is written atomically and only after the documents it refers to, so a run that is killed continues
where it stopped: finished instructions (and finished turns of a session) are never run again.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import queue
import signal
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import takewhile
from pathlib import Path
from threading import Lock, current_thread, local, main_thread
from typing import Any, Callable, Iterator

from autodw.core.document import WordDocument
from autodw.dwbench.records import DATA_VERSION, SPLITS, TRACKS, Instruction, Session, load_split
from autodw.core.errors import ConfigError, DocumentError, OutputPathError
from autodw.eval.accept import judge_accepted, needs_initial
from autodw.eval.canonical import prepare
from autodw.eval.judge import JUDGE_VERSION, Difference, Verdict
from autodw.eval.partial import partial_credit
from autodw.eval.metrics import (RUN_FIELDS, RUN_REMEDY, SUMMARY_REMEDY, data_version, instruction_path,
                                 instruction_records, judge_version, made_against, read_json, rejudge_hint, run_track,
                                 session_finished, session_turns, summarize)
from autodw.eval.systems import System, TurnResult
from autodw.core.package import write_atomically
from autodw.analysis.validation import Finding, ValidationWorker, ValidatorUnavailableError, added

SUMMARY_EVERY = 10.0  # seconds between rewrites of summary.json during a run (it reads every record)
SHOWN_DIFFERENCES = 20  # differences kept in a record (the judge's count is kept too)


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


def run_sessions(spec: dict[str, Any]) -> list[Session]:
    """The sessions a run with settings `spec` covers."""
    return select_sessions(spec["split"], spec.get("limit"), spec.get("sessions"), spec.get("instructions"),
                           run_track(spec))


def recorded_run(out: Path) -> tuple[dict[str, Any], list[Session]]:
    """A run folder's settings (``run.json``) and the sessions it covers; ConfigError if `out` is not a run folder."""
    spec = run_settings(out)
    return spec, run_sessions(spec)


def current(record: dict[str, Any], session: Session, version: str) -> bool:
    """Whether a record of `session` in a run on DWBench data `version` was made against this autodw's instruction
    (:func:`autodw.eval.metrics.made_against`)."""
    return made_against(record, session, version) == session.data_hash(record["turn"])


def outdated(out: Path, sessions: list[Session], version: str) -> list[dict[str, Any]]:
    """The records of run folder `out` (made on DWBench data `version`) not :func:`current`: instruction records,
    then session turns."""
    by_id = {s.session_id: s for s in sessions}
    records = instruction_records(out, sessions) + [t for s in sessions for t in session_turns(out, s)]
    return [r for r in records if not current(r, by_id[r["session_id"]], version)]


def _wall_seconds(out: Path) -> float | None:
    """The wall time of the calls of ``bench run`` on run folder `out` so far: 0 for a new folder, None for one whose
    summary does not say (made before 2026-11-25)."""
    path = out / "summary.json"
    return read_json(path, SUMMARY_REMEDY).get("wall_seconds") if path.is_file() else 0.0


def _resume_path(folder: Path, turn: int) -> Path:
    """The document a session continues from after `turn`: ``resume-TURN.docx``, or in a folder made before
    2026-11-25 ``resume.docx`` (written then before the turn's record, so stale if a run was killed between the two)."""
    path = folder / f"resume-{turn}.docx"
    return path if path.is_file() else folder / "resume.docx"


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Within the block SIGTERM raises KeyboardInterrupt, as a Ctrl-C does, so that a terminated run writes its
    summary (and wall time) on the way out; only in the main thread (the only one that can set a handler), the
    previous handler restored after."""
    if current_thread() is not main_thread():
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:  # None: a handler not set from Python, the default action then
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


class WordCheck:
    """Whether an output added Open XML validation errors to its input (:mod:`autodw.analysis.validation`). Every document's
    findings are cached by content: many instructions start from the same document, and a session turn starts from
    the output its previous turn was checked on. Validation workers are kept for the whole run, one per lane in use;
    :meth:`close` ends them."""

    def __init__(self) -> None:
        import importlib.util

        if importlib.util.find_spec("openxml_audit") is None:
            raise ValidatorUnavailableError("the Word check of the outputs needs openxml-audit: pip install "
                                            "\"autodw[validate]\", or run with --no-word-check")
        self._cache: dict[str, list[Finding]] = {}
        self._idle: queue.SimpleQueue[ValidationWorker] = queue.SimpleQueue()
        self._lock = Lock()
        #: Documents validated so far (the others came from the cache).
        self.validations = 0

    def added(self, before: bytes, after: bytes) -> list[dict[str, str]]:
        """The findings `after` has that `before` has not, as dicts."""
        return [f.to_dict() for f in added(self._findings(before), self._findings(after))]

    def close(self) -> None:
        """End the validation workers (a later call starts new ones)."""
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return

    def _findings(self, document: bytes) -> list[Finding]:
        """The document's findings, from the cache or validated now."""
        key = hashlib.sha256(document).hexdigest()
        with self._lock:
            known = self._cache.get(key)
        if known is None:
            known = self._validate(document)
            with self._lock:
                self._cache[key] = known
                self.validations += 1
        return known

    def _validate(self, document: bytes) -> list[Finding]:
        try:
            worker = self._idle.get_nowait()
        except queue.Empty:
            worker = ValidationWorker()
        try:
            return worker.validate(document)
        finally:
            self._idle.put(worker)


_FORKED: tuple["Runner", list, str] | None = None  # what a forked worker process runs: runner, units, method name


def _forked_start() -> None:
    """In a new worker process: a system and Word check of its own (the parent's are not shared across processes),
    the Word check's validation workers ended when the process ends (a forked process skips atexit)."""
    from multiprocessing.util import Finalize

    runner = _FORKED[0]
    runner._local = local()
    if runner.word_check is not None:
        runner.word_check = WordCheck()
        Finalize(runner.word_check, runner.word_check.close, exitpriority=10)


def _forked_work(index: int) -> bool:
    """In a worker process: run unit `index` (its records are written by the worker, as in a thread)."""
    runner, units, method = _FORKED
    return getattr(runner, method)(units[index])


class Runner:
    """Runs one system (made per worker by `make_system`) over a split into a run folder. The `workers` of a run
    without an LLM (``spec.llm`` "none": its work is CPU-bound, so threads would share one core) are forked
    processes where the platform forks (Linux, macOS); else threads."""

    def __init__(self, spec: RunSpec, out: Path, make_system: Callable[[], System], *, workers: int = 1,
                 word_check: bool = True, progress: bool = True):
        if spec.split not in SPLITS:
            raise ConfigError(f"unknown split {spec.split!r}")
        if spec.track not in TRACKS:
            raise ConfigError(f"unknown track {spec.track!r}; choose one of {', '.join(TRACKS)}")
        if any(m not in ("instruction", "session") for m in spec.modes):
            raise ConfigError(f"modes must be instruction and/or session, not {spec.modes}")
        if workers < 1:
            raise ConfigError(f"--workers must be at least 1, not {workers}")
        if spec.instructions is not None and "session" in spec.modes:
            raise ConfigError("a session runs all its turns: choose instructions (--instructions) in instruction mode")
        self.spec, self.out, self.workers, self.progress = spec, Path(out), workers, progress
        self.processes = spec.llm == "none" and "fork" in multiprocessing.get_all_start_methods()
        self._make_system = make_system
        self._local = local()
        self.word_check = WordCheck() if word_check else None
        self._lock = Lock()
        self._summary_written = 0.0
        self._wall_before: float | None = 0.0
        self._started = time.perf_counter()
        self.sessions()  # unknown sessions or instructions are refused before the folder is made
        self._check_folder()

    # --- folder ------------------------------------------------------------------------------

    def _check_folder(self) -> None:
        """Create the run folder, or check that it holds this run. The modes may differ (a run can be continued with
        the other mode): ``run.json`` then records both, and the summary covers both. ``stop_at_failure`` (a
        setting of session mode) may only differ before the run has session turns."""
        path = self.out / "run.json"
        wanted = self.spec.to_dict()
        if path.is_file():
            found = {"stop_at_failure": False, **read_json(path, RUN_REMEDY, RUN_FIELDS)}  # runs before the setting
            found.update(judge_version=judge_version(found), data_version=data_version(found), track=run_track(found))
            if found["judge_version"] != wanted["judge_version"]:
                raise ConfigError(f"{self.out} was judged by judge version {found['judge_version']}, this autodw's is "
                                  f"{JUDGE_VERSION}: {rejudge_hint(self.out)}, then resume it")
            if found["data_version"] != wanted["data_version"]:
                raise ConfigError(self._other_data(found["data_version"]))
            if "session" not in wanted["modes"]:  # a setting of session mode: the recorded one stays
                wanted["stop_at_failure"] = found["stop_at_failure"]
            elif not (self.out / "sessions").is_dir():  # no session turn yet: the new setting holds
                found["stop_at_failure"] = wanted["stop_at_failure"]
            differs = sorted(k for k in set(found) | set(wanted) if k != "modes" and found.get(k) != wanted.get(k))
            if differs:
                raise ConfigError(f"{self.out} holds another run (its {', '.join(differs)} differ); "
                                  f"choose another --out, or rerun with the same options to resume it")
            wanted["modes"] = [m for m in ("instruction", "session") if m in found["modes"] or m in wanted["modes"]]
        else:
            try:
                self.out.mkdir(parents=True, exist_ok=True)
            except (FileExistsError, NotADirectoryError):
                raise OutputPathError(f"cannot make the run folder {self.out}: a file stands where it or a folder "
                                      "above it should be") from None
            except OSError as exc:
                raise OutputPathError(f"cannot make the run folder {self.out}: {exc.strerror or exc}") from None
        write_json(path, wanted)
        self.recorded = wanted

    def _other_data(self, version: str) -> str:
        """Why the run folder, made on DWBench data `version`, is not resumed, and what to do."""
        changed = sorted({r["key"] for r in outdated(self.out, self.sessions(), version)})
        what = (f"{len(changed)} of its instructions changed since ({', '.join(changed)}); {rejudge_hint(self.out)}: "
                "it drops their records, which the same bench run then runs again" if changed else
                f"none of its instructions changed since; {rejudge_hint(self.out)}: it records the version")
        return (f"{self.out} was made on DWBench {version} data, this autodw's is {DATA_VERSION}: {what}; or choose "
                "another --out")

    def sessions(self) -> list[Session]:
        return run_sessions(self.spec.to_dict())

    def system(self) -> System:
        """This thread's system (a system is not shared between threads)."""
        if not hasattr(self._local, "system"):
            self._local.system = self._make_system()
        return self._local.system

    # --- running -------------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        """Run every unit not yet done; returns the summary (also written to ``summary.json``, with the wall time, when
        the run ends, a Ctrl-C or SIGTERM too; a SIGKILL loses the wall time since the last summary was written)."""
        sessions = self.sessions()
        self._wall_before = _wall_seconds(self.out)
        self._started = time.perf_counter()
        with _terminate_as_interrupt():
            try:
                if "instruction" in self.spec.modes:
                    chosen = [(s, i) for s in sessions for i in s.instructions
                              if self.spec.instructions is None or i.key in self.spec.instructions]
                    todo = [(s, i) for s, i in chosen if not instruction_path(self.out, i).is_file()]
                    self._pool(todo, self.run_instruction, "instructions", len(chosen))
                if "session" in self.spec.modes:
                    todo = [s for s in sessions
                            if not session_finished(session_turns(self.out, s), s, self.spec.stop_at_failure)]
                    self._pool(todo, self.run_session, "sessions", len(sessions))
            finally:
                if self.word_check is not None:
                    self.word_check.close()
                summary = self.write_summary()
        return summary

    def write_summary(self) -> dict[str, Any]:
        """Recompute ``summary.json`` from the records on disk, with the wall time of every call so far."""
        self._summary_written = time.monotonic()
        wall = None if self._wall_before is None else self._wall_before + time.perf_counter() - self._started
        with self._lock:
            summary = summarize(self.out, self.sessions(), self.recorded, wall_seconds=wall)
            write_json(self.out / "summary.json", summary)
        return summary

    def _pool(self, units: list, work: Callable[[Any], bool], what: str, total: int) -> None:
        from tqdm import tqdm

        done = total - len(units)
        bar = tqdm(total=total, initial=done, desc=f"{self.spec.system} {self.spec.track}/{self.spec.split} {what}", unit=what[:-1],
                   disable=not self.progress, dynamic_ncols=True)
        ok = [0, 0]

        def finished(success: bool) -> None:
            ok[0] += success
            ok[1] += 1
            bar.update(1)
            bar.set_postfix_str(f"{'iACC' if what == 'instructions' else 'sACC'} {ok[0]}/{ok[1]} this call")
            if time.monotonic() - self._summary_written >= SUMMARY_EVERY:
                self.write_summary()

        try:
            if self.workers == 1:
                for unit in units:
                    finished(work(unit))
            else:
                pool, task = self._executor(units, work)
                with pool:
                    futures = [pool.submit(task, i) for i in range(len(units))]
                    try:
                        for future in as_completed(futures):
                            finished(future.result())
                    except BaseException:
                        for f in futures:
                            f.cancel()
                        raise
        finally:
            bar.close()

    def _executor(self, units: list, work: Callable[[Any], bool]) -> tuple[Executor, Callable[[int], bool]]:
        """The pool of `workers` and the task running unit i on it: forked processes that inherit this runner and
        `units`, or threads."""
        if not self.processes:
            return ThreadPoolExecutor(self.workers), lambda i: work(units[i])
        global _FORKED
        _FORKED = (self, units, work.__name__)
        return (ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("fork"),
                                    initializer=_forked_start), _forked_work)

    # --- one instruction (teacher forcing) -------------------------------------------------------

    def run_instruction(self, unit: tuple[Session, Instruction]) -> bool:
        """Run one instruction from its gold initial state; write its record. Returns whether it succeeded."""
        session, ins = unit
        doc = session.initial_document(ins.turn)
        earlier = [(i.text, "done") for i in session.instructions[: ins.turn - 1]]
        path = instruction_path(self.out, ins)
        record = self._turn(session, ins, doc, earlier, path.with_suffix(".trace.jsonl"), path.with_suffix(".docx"),
                            initial=lambda: session.initial_document(ins.turn))
        write_json(path, record)
        return record["success"]

    # --- one session (carried forward) ------------------------------------------------------------

    def _session_dir(self, session: Session) -> Path:
        return self.out / "sessions" / session.session_id

    def run_session(self, session: Session) -> bool:
        """Run (or continue) a session, carrying the system's output from turn to turn. Returns whether every
        turn succeeded."""
        folder = self._session_dir(session)
        folder.mkdir(parents=True, exist_ok=True)
        # the unbroken turns from turn 1, if their last one's document to continue from is kept: not when a later
        # turn has a record (one in between was deleted: only the last turn's document is kept); else none. The
        # records and documents of the turns after them are from another attempt: dropped
        turns = session_turns(self.out, session)
        later = any((folder / f"turn-{t}.json").is_file() for t in range(len(turns) + 1, len(session.instructions) + 1))
        kept = 0 if later else _kept_turns(turns, len(turns), session, self.spec.stop_at_failure, folder)
        _drop_turns(folder, kept, len(session.instructions))
        if kept:
            doc = WordDocument.from_bytes(_resume_path(folder, kept).read_bytes(), name=session.source.file)
            doc.asset_roots = session.initial_document(1).asset_roots
        else:
            doc = session.initial_document(1)
        earlier = [(i.text, t["status"]) for i, t in zip(session.instructions, turns[:kept])]
        for ins in session.instructions[kept:]:
            record = self._turn(session, ins, doc, earlier, folder / f"turn-{ins.turn}.trace.jsonl",
                                folder / f"turn-{ins.turn}.docx")
            write_atomically(folder / f"resume-{ins.turn}.docx", doc.to_bytes(keep_ids=True))
            write_json(folder / f"turn-{ins.turn}.json", record)
            for old in (folder / f"resume-{ins.turn - 1}.docx", folder / "resume.docx"):
                old.unlink(missing_ok=True)
            earlier.append((ins.text, record["status"]))
            if self.spec.stop_at_failure and not record["success"]:
                break
        turns = session_turns(self.out, session)
        return len(turns) == len(session.instructions) and all(t["success"] for t in turns)

    # --- shared ----------------------------------------------------------------------------------

    def _turn(self, session: Session, ins: Instruction, doc: WordDocument, earlier: list[tuple[str, str]],
              trace: Path, output: Path, initial: Callable[[], WordDocument] | None = None) -> dict[str, Any]:
        """Run the system on `doc` for `ins`, save the output, judge it, check it for Word; the record. With `initial`
        (a fresh copy of the document `doc` was before the run) a failed output gets its partial credit."""
        before = doc.to_bytes() if self.word_check is not None else None  # only the Word check needs it
        start = time.perf_counter()
        result: TurnResult = self.system().run_turn(doc, ins, earlier, trace)
        seconds = time.perf_counter() - start
        after = doc.to_bytes()
        write_atomically(output, after)
        judged = judge_output(session, ins, doc, initial)
        word = word_error = None
        if before is not None:
            try:
                word = [] if after == before else self.word_check.added(before, after)
            except ValidatorUnavailableError as exc:  # a timeout, a crash or the validator failing on this output
                word_error = str(exc)
        usage = result.usage
        return {
            "key": ins.key, "session_id": ins.session_id, "turn": ins.turn, "instruction": ins.text, "track": ins.track,
            "held_out": ins.held_out, "language": ins.language, "difficulty": ins.difficulty, "free_text": ins.free_text, "gold_calls": len(ins.gold),
            "status": result.status, "error": result.error, **judged,
            "api_calls": result.api_calls, "llm_calls": sum(u["calls"] for u in usage.values()),
            "prompt_tokens": sum(u["prompt_tokens"] for u in usage.values()),
            "completion_tokens": sum(u["completion_tokens"] for u in usage.values()),
            "usage": usage, "seconds": round(seconds, 3),
            "recalled_seconds": round(sum(u.get("recalled_seconds", 0.0) for u in usage.values()), 3),
            "calls": result.calls, "faults": result.faults,
            "word_errors_added": word, "word_check_error": word_error, "output": output.name, "trace": trace.name if trace.is_file() else None,
            "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S"), "pid": os.getpid(),
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


@dataclass
class Rescored:
    """What ``bench rescore`` did to a run folder."""

    summary: dict[str, Any]
    judged: int = 0  # records judged again (or given their partial credit)
    flipped: list[str] = field(default_factory=list)  # records whose success changed: "SID#T: failed -> passed"
    dropped: list[str] = field(default_factory=list)  # records removed ("SID#T (session)"): bench run runs them again
    to_continue: list[str] = field(default_factory=list)  # sessions with turns still to run


def rescore(out: Path, rejudge: bool = False, progress: bool = True) -> Rescored:
    """Give the instruction records of run folder `out` that have none their partial credit, from the saved outputs
    (their verdicts kept: refused for a run of another judge or data version); with `rejudge`, bring the folder to
    this autodw's judge and DWBench data: drop the records made against instructions that changed since (a session's
    from the first such turn), judge every other saved output not judged by this judge again, drop the turns after a
    session's new first failure (``stop_at_failure``: a fresh run stops there) and record both versions in
    ``run.json``. Every output is judged before anything is written; ``run.json`` and ``summary.json`` are written
    last."""
    out = Path(out)
    recorded, sessions = recorded_run(out)
    if rejudge:
        _refuse_rejudge(out, recorded)
    units = {i.key: (s, i) for s in sessions for i in s.instructions}

    def on_this_data(record: dict[str, Any]) -> bool:
        return current(record, units[record["key"]][0], data_version(recorded))

    records = [(instruction_path(out, units[r["key"]][1]), r) for r in instruction_records(out, sessions)]
    stale = {path: r for path, r in records if rejudge and not on_this_data(r)}
    turns = {s.session_id: list(takewhile(on_this_data, session_turns(out, s))) for s in sessions} if rejudge else {}
    todo = [(path, r, True) for path, r in records if path not in stale
            and (judge_version(r) != JUDGE_VERSION if rejudge else "partial_credit" not in r)]
    todo += [(out / "sessions" / sid / f"turn-{t['turn']}.json", t, False)
             for sid, ts in turns.items() for t in ts if judge_version(t) != JUDGE_VERSION]
    if todo and not rejudge and (judge_version(recorded), data_version(recorded)) != (JUDGE_VERSION, DATA_VERSION):
        raise ConfigError(f"{out} was judged by judge version {judge_version(recorded)} on DWBench "
                          f"{data_version(recorded)} data, this autodw's are {JUDGE_VERSION} and {DATA_VERSION}: "
                          f"partial credit is counted from this judge's differences, so {rejudge_hint(out)}")
    done = Rescored(summary={})
    judged = _judged_again(out, todo, units, rejudge, done.flipped, progress)  # nothing written before this
    for path, record in judged.items():
        write_json(path, record)
    done.judged = len(judged)
    for path, record in stale.items():
        for name in (path, path.with_suffix(".docx"), path.with_suffix(".trace.jsonl")):  # the record first
            name.unlink(missing_ok=True)
        done.dropped.append(record["key"])
    stop = recorded.get("stop_at_failure", False)
    for session in sessions:
        if session.session_id in turns:
            now, folder = session_turns(out, session), out / "sessions" / session.session_id
            keep = _kept_turns(now, len(turns[session.session_id]), session, stop, folder)
            done.dropped += [f"{t['key']} (session)" for t in now[keep:]]
            _drop_turns(folder, keep, len(now))
    if rejudge:
        write_json(out / "run.json", {**recorded, "judge_version": JUDGE_VERSION, "data_version": DATA_VERSION})
        recorded = read_json(out / "run.json", RUN_REMEDY, RUN_FIELDS)
        done.to_continue = [s.session_id for s in sessions
                            if (ts := session_turns(out, s)) and not session_finished(ts, s, stop)]
    done.summary = summarize(out, sessions, recorded, wall_seconds=_wall_seconds(out))
    write_json(out / "summary.json", done.summary)
    return done


def _judged_again(out: Path, todo: list[tuple[Path, dict[str, Any], bool]],
                  units: dict[str, tuple[Session, Instruction]], rejudge: bool, flipped: list[str],
                  progress: bool) -> dict[Path, dict[str, Any]]:
    """The records of `todo` (record path, record, teacher-forced) judged again from their saved outputs, by path
    (without `rejudge` only their partial credit added); the verdicts that changed added to `flipped`. ConfigError
    naming the missing or damaged outputs."""
    from tqdm import tqdm

    missing = [f"{r['output']} ({r['key']})" for path, r, _ in todo if not (path.parent / r["output"]).is_file()]
    if missing:
        raise ConfigError(f"{out} has no output {', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''} "
                          f"({len(missing)} in all): a run is judged again from its saved outputs "
                          "(keep_run_records.sh keeps them)")
    judged = {}
    for path, record, forced in tqdm(todo, desc="judging", unit="output", disable=not progress):
        session, ins = units[record["key"]]
        verdict = judge_output(session, ins, _saved_output(path.parent / record["output"]),
                               (lambda: session.initial_document(ins.turn)) if forced else None)
        if not rejudge:  # the verdict stays the run's
            verdict = {k: verdict[k] for k in ("partial_credit", "changes")}
        elif verdict["success"] != record["success"]:
            flipped.append(f"{record['key']}{'' if forced else ' (session)'}: "
                           f"{'passed' if record['success'] else 'failed'} -> {'passed' if verdict['success'] else 'failed'}")
        judged[path] = {**{k: v for k, v in record.items() if k != "tolerances_used"}, **verdict}
    return judged


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


def _saved_output(path: Path) -> WordDocument:
    """A record's saved output; ConfigError naming a damaged one."""
    try:
        return WordDocument.open(path)
    except DocumentError as exc:
        raise ConfigError(f"{path} is damaged ({exc}); nothing was judged again: restore it, or delete its record "
                          "to run it again") from None


def _kept_turns(turns: list[dict[str, Any]], usable: int, session: Session, stop: bool, folder: Path) -> int:
    """How many of a session's turn records stay: the first `usable` (made against this autodw's data), with `stop`
    only those up to the first failed one (a fresh run stops there); none if the session is to be continued from a
    turn whose document to continue from is gone (only the last turn's is kept), so that it runs again from its
    first turn."""
    keep = next((n + 1 for n, t in enumerate(turns[:usable]) if not t["success"]), usable) if stop else usable
    to_continue = not session_finished(turns[:keep], session, stop)
    return 0 if to_continue and (keep < len(turns) or not _resume_path(folder, keep).is_file()) else keep


def _drop_turns(folder: Path, keep: int, turns: int) -> None:
    """Remove the records of the turns after `keep` up to `turns` (the last first: the records left always run from
    turn 1), their documents and traces, and, if any was removed, the documents to continue from but turn `keep`'s."""
    removed = False
    for turn in range(turns, keep, -1):
        for name in (f"turn-{turn}.json", f"turn-{turn}.docx", f"turn-{turn}.trace.jsonl"):
            if (folder / name).is_file():
                (folder / name).unlink()
                removed = True
    kept = _resume_path(folder, keep) if keep else None
    for resume in folder.glob("resume*.docx") if removed else ():
        if resume != kept:
            resume.unlink()
