"""Run a system on a DWBench split, instruction by instruction (iACC) and/or session by session (sACC), resumably:
each unit is generated, then graded (:mod:`autodw.eval.work`).

Layout of a run folder ``DIR`` (:mod:`autodw.eval.run_folder`):

- ``run.json``: what was run (system, LLM, track, split, modes, options) and by which code (``code``: autodw's
  version and a fingerprint of its source and of the package data that changes what the agent does,
  :func:`autodw.eval.run_folder.code_fingerprint`); a resumed run must match it, its code too (``bench run``,
  ``bench ceiling`` and ``bench paper`` refuse a folder made by other code: choose another ``--out``, with the same
  ``--llm-cache`` to reuse the answers paid for; a folder made before runs recorded their code is resumed with a
  warning, and records none); ``bench rescore`` grades a folder of any code (grading is apart from generating). Its
  ``options.config`` is the profile's settings with ``--set``; the system then applies its own (an ablation's
  rollback, the noisy oracle's validator), and the settings in force are in each trace's ``run_start`` event;
- ``instructions/SID--T.*`` (one unit per instruction, teacher forcing: it starts from the gold state before turn
  T): ``SID--T.docx`` (the output), ``SID--T.trace.jsonl`` (the agent's events), ``SID--T.status`` (what
  generating it reported) and ``SID--T.json`` (its record, from grading);
- ``sessions/SID/turn-T.*``, the same for each turn of a session (which carries the system's own output forward),
  and ``resume-T.docx`` (the last generated turn's document with its element ids, to continue from: written before
  ``turn-T.status``, and the one before it removed only after, so a run killed between the two continues from
  the document its statuses describe; only the last turn's is kept, so a session missing a turn's status before its
  last runs again from turn 1); with ``stop_at_failure`` a session ends at its first failed turn (sACC needs no
  more);
- ``summary.json``: the metrics (:mod:`autodw.eval.metrics`), rewritten every few seconds and at the end (a Ctrl-C
  or SIGTERM too);
- ``commands.txt``: each ``autodw bench run`` command given on the folder, with the environment settings that change
  a run (written by the CLI).

Every file is written atomically, a unit's status after its output and its record after its status, so a run that
is killed continues where it stopped: a generated unit is never generated again (only graded, if it was not), a
graded one is left as it is.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
import time
from concurrent.futures import Executor, ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from pathlib import Path
from threading import Lock, current_thread, main_thread
from typing import Any, Callable, Iterator

from autodw.dwbench.records import DATA_VERSION, SPLITS, TRACKS, Session
from autodw.core.errors import ConfigError, OutputPathError
from autodw.core.progress import progress
from autodw.eval.judge import JUDGE_VERSION
from autodw.eval.metrics import (RUN_FIELDS, RUN_REMEDY, read_json, rejudge_hint, session_finished, session_turns,
                                 summarize)
from autodw.eval.run_folder import (RunSpec, check_statuses, code_name, instruction_unit, outdated, run_sessions,
                                    turn_unit, wall_seconds, write_json)
from autodw.eval.systems import System
from autodw.eval.word_check import WordCheck
from autodw.eval.work import Work, worker_processes

SUMMARY_EVERY = 10.0  # seconds between rewrites of summary.json during a run (it reads every record) ...
SUMMARY_SHARE = 0.02  # ... or more, so that rewriting it takes at most this share of the run's time


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
        self.word_check = WordCheck() if word_check else None
        self._lock = Lock()
        self._summary_written = self._summary_took = 0.0  # when summary.json was last written, and how long it took
        self._wall_before: float | None = 0.0
        self._started = time.perf_counter()
        self._sessions = run_sessions(spec.to_dict())  # unknown sessions or instructions are refused before the
        # folder is made; loaded once (a summary rewritten as units finish reads them)
        self._check_folder()

    # --- folder ------------------------------------------------------------------------------

    def _check_folder(self) -> None:
        """Create the run folder, or check that it holds this run. The modes may differ (a run can be continued with
        the other mode): ``run.json`` then records both, and the summary covers both. ``stop_at_failure`` (a
        setting of session mode) may only differ before the run has session turns."""
        path = self.out / "run.json"
        wanted = self.spec.to_dict()
        if path.is_file():
            found = read_json(path, RUN_REMEDY, RUN_FIELDS)
            self._check_code(found, wanted)
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
            for stale in self.out.rglob(".*.tmp"):  # a write the killed run left half done (write_atomically's temp)
                stale.unlink(missing_ok=True)
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

    def _check_code(self, found: dict[str, Any], wanted: dict[str, Any]) -> None:
        """ConfigError if the run folder's units were generated by other code (its ``run.json``'s ``code``): their
        figures are that code's. A folder that records none (made before runs recorded it) is resumed, with a
        warning, and `wanted` then records none either (this code did not make what is there)."""
        if "code" not in found:
            print(f"warning: {self.out} does not record the code that made it (made before run.json recorded it): "
                  "its units may be other code's", file=sys.stderr)
            del wanted["code"]
        elif found["code"] != wanted["code"]:
            raise ConfigError(f"{self.out} was made by other code ({code_name(found['code'])}), this is "
                              f"{code_name(wanted['code'])}: its units would report that code's figures as this "
                              "code's; choose another --out (with the same --llm-cache FILE if the run used one, so "
                              "that the answers already paid for are reused)")

    def _other_data(self, version: str) -> str:
        """Why the run folder, made on DWBench data `version`, is not resumed, and what to do."""
        changed = sorted({r["key"] for r in outdated(self.out, self.sessions(), version)})
        what = (f"{len(changed)} of its instructions changed since ({', '.join(changed)}); {rejudge_hint(self.out)}: "
                "it drops their records, which the same bench run then runs again" if changed else
                f"none of its instructions changed since; {rejudge_hint(self.out)}: it records the version")
        return (f"{self.out} was made on DWBench {version} data, this autodw's is {DATA_VERSION}: {what}; or choose "
                "another --out")

    def sessions(self) -> list[Session]:
        return self._sessions

    # --- running -------------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        """Generate and grade every unit not yet graded; returns the summary (also written to ``summary.json``, with
        the wall time, when the run ends, a Ctrl-C or SIGTERM too; a SIGKILL loses the wall time since the last
        summary was written)."""
        sessions = self.sessions()
        check_statuses([make(self.out, s, i) for s in sessions for i in s.instructions
                        for make in (instruction_unit, turn_unit)])
        work = Work(self.out, self._make_system, self.word_check, self.spec.stop_at_failure)
        self._wall_before = wall_seconds(self.out)
        self._started = time.perf_counter()
        with _terminate_as_interrupt():
            try:
                if "instruction" in self.spec.modes:
                    chosen = [instruction_unit(self.out, s, i) for s in sessions for i in s.instructions
                              if self.spec.instructions is None or i.key in self.spec.instructions]
                    todo = [unit for unit in chosen if not unit.record.is_file()]
                    self._pool(todo, work, Work.instruction, "instructions", len(chosen),
                               split=(Work.generated, Work.graded))
                if "session" in self.spec.modes:
                    todo = [s for s in sessions
                            if not session_finished(session_turns(self.out, s), s, self.spec.stop_at_failure)]
                    self._pool(todo, work, Work.session, "sessions", len(sessions))
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
        self._summary_took = time.monotonic() - self._summary_written
        return summary

    def _pool(self, units: list, work: Work, task: Callable[[Work, Any], bool], what: str, total: int,
              split: tuple[Callable[[Work, Any], Any], Callable[[Work, Any], bool]] | None = None) -> None:
        """Run `task` on each of `units` with `work`, on this thread or on the run's workers. `split`: `task` in two
        parts, generating (the unit's LLM requests) then grading what the first returns: worker threads then only
        generate, and this thread grades each unit as it is generated, so that a worker starts its next unit (and
        sends its first request) while the last one is graded; worker processes (CPU-bound, grading in parallel)
        and a single worker run `task` whole."""
        done = total - len(units)
        bar = progress(total=total, initial=done, desc=f"{self.spec.system} {self.spec.track}/{self.spec.split} {what}", unit=what[:-1],
                   disable=not self.progress, dynamic_ncols=True)
        ok = [0, 0]

        def finished(success: bool) -> None:
            ok[0] += success
            ok[1] += 1
            bar.update(1)
            bar.set_postfix_str(f"{'iACC' if what == 'instructions' else 'sACC'} {ok[0]}/{ok[1]} this call")
            if time.monotonic() - self._summary_written >= max(SUMMARY_EVERY, self._summary_took / SUMMARY_SHARE):
                self.write_summary()

        try:
            if self.workers == 1:
                for unit in units:
                    finished(task(work, unit))
            else:
                run, grade = split if split is not None and not self.processes else (task, None)
                pool, run_unit = self._executor(units, work, run)
                with pool:
                    futures = [pool.submit(run_unit, i) for i in range(len(units))]
                    try:
                        for future in as_completed(futures):
                            finished(future.result() if grade is None else grade(work, future.result()))
                    except BaseException:
                        for f in futures:
                            f.cancel()
                        raise
        finally:
            bar.close()

    def _executor(self, units: list, work: Work, task: Callable[[Work, Any], Any]) -> tuple[Executor, Callable[[int], Any]]:
        """The pool of `workers` and the function running `task` on unit i on it: forked processes, each given the
        work and the units by its initializer, or threads."""
        if self.processes:
            return worker_processes(self.workers, work, task, units)
        return ThreadPoolExecutor(self.workers), lambda i: task(work, units[i])
