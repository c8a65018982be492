"""What a harness may observe: a typed refusal or a good result; anything else is a :class:`Crash`.

Also the limits every input runs under: a time limit (a :class:`Hang` is a crash) and the memory it may take
(measured as the growth of the process's peak resident set), and a sandbox folder that no input may write
outside its output path in.
"""

from __future__ import annotations

import contextlib
import resource
import signal
import stat
import threading
import traceback
from pathlib import Path
from typing import Any, Callable, Iterator

from autodw.core.errors import AutodwError

#: what one input may take before it is a hang: seconds of CPU time (the machine is shared: wall time would measure
#: the other processes); the campaign's supervisor also ends a worker that makes no progress for long in wall time
TIME_LIMIT = 60
#: how far one input may raise the process's peak resident set (MiB) before it counts as unbounded memory
MEMORY_LIMIT_MB = 2048


class Crash(Exception):
    """autodw broke a promise on this input. `kind`: untyped, hang, memory, write_outside, roundtrip, ...;
    `where`: the stage (open, state, save, ...)."""

    def __init__(self, kind: str, where: str, detail: str, trace: str = ""):
        super().__init__(f"{kind} in {where}: {detail}")
        self.kind, self.where, self.detail, self.trace = kind, where, detail, trace
        self.case: object = None  # the input, as the harness's check() takes it again

    def signature(self) -> str:
        """What tells two crashes apart: kind, stage, and the innermost autodw frame of the traceback."""
        frames = [line.strip() for line in self.trace.splitlines() if line.strip().startswith('File "')]
        ours = [f for f in frames if "/autodw/" in f] or frames
        return f"{self.kind}:{self.where}:{ours[-1] if ours else self.detail[:80]}"


def checked(check: Callable[[Any], dict], case: Any) -> dict:
    """`check(case)`; a Crash it raises carries `case` (the input, kept for the campaign's recheck)."""
    try:
        return check(case)
    except Crash as crash:
        crash.case = case
        raise


class Hang(BaseException):
    """Raised in the main thread when an input runs over its time limit (a BaseException: nothing catches it)."""


def untyped(where: str, exc: BaseException) -> Crash:
    """The crash for an exception that is no typed autodw error."""
    trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return Crash("untyped", where, f"{type(exc).__name__}: {str(exc)[:300]}", trace)


@contextlib.contextmanager
def stage(where: str, allowed: tuple[type[BaseException], ...] = ()) -> Iterator[None]:
    """Run a stage of a harness: an `allowed` exception passes through (the caller decides), any other is an
    untyped crash at `where`."""
    try:
        yield
    except (Crash, Hang, *allowed):
        raise
    except BaseException as exc:  # noqa: BLE001 - the point: anything else is a finding
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        raise untyped(where, exc) from exc


def is_typed(exc: BaseException) -> bool:
    """An error autodw raises on purpose."""
    return isinstance(exc, AutodwError)


def peak_rss_mb() -> float:
    """This process's peak resident set so far, in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@contextlib.contextmanager
def limits(seconds: float | None = None, memory_mb: float = MEMORY_LIMIT_MB) -> Iterator[dict]:
    """Run one input under a CPU-time limit (a profiling timer's SIGPROF in the main thread: a :class:`Hang`
    becomes a crash) and check after it that the process's peak memory did not grow by more than `memory_mb`.
    Yields a dict that gets ``seconds`` (wall), ``cpu_seconds`` and ``peak_mb``."""
    import time

    seconds = TIME_LIMIT if seconds is None else seconds
    info: dict = {}
    start, cpu, peak = time.monotonic(), time.process_time(), peak_rss_mb()
    main = threading.current_thread() is threading.main_thread()
    if main:
        def expire(signum, frame):
            raise Hang()

        previous = signal.signal(signal.SIGPROF, expire)
        signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield info
    except Hang:
        raise Crash("hang", "input", f"over the time limit of {seconds:.0f} s of CPU time") from None
    finally:
        if main:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)
        info["seconds"] = time.monotonic() - start
        info["cpu_seconds"] = time.process_time() - cpu
        info["peak_mb"] = peak_rss_mb()
    grown = info["peak_mb"] - peak
    if grown > memory_mb:
        raise Crash("memory", "input", f"the peak resident set grew by {grown:.0f} MiB (limit {memory_mb} MiB)")


def files_under(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file below `folder` with its size and modification time (what a write outside would change)."""
    out = {}
    for path in folder.rglob("*"):
        with contextlib.suppress(OSError):
            st = path.lstat()
            if not stat.S_ISDIR(st.st_mode):  # a folder's time changes with any file made and removed in it
                out[str(path.relative_to(folder))] = (st.st_size, st.st_mtime_ns)
    return out


def check_no_write(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]], allowed: set[str],
                   where: str) -> None:
    """A write_outside crash if anything but the `allowed` names appeared or changed."""
    changed = sorted(name for name in after.keys() | before.keys()
                     if before.get(name) != after.get(name) and name not in allowed)
    if changed:
        raise Crash("write_outside", where, f"files written outside the output path: {changed[:5]}")
