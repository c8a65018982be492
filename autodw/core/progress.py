"""Progress that suits where it is written: a tqdm bar on a terminal; in a file or a CI log, a plain line per minute
or per 5% of the work, whichever comes first (a redirected tqdm bar writes every update: thousands of lines).

:func:`progress` takes tqdm's arguments, so ``from autodw.core.progress import progress as tqdm`` turns a tqdm call into
one that suits its output.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Callable, Iterable, Iterator, TextIO

#: in a log, a line at least this often (seconds) ...
LOG_EVERY_SECONDS = 60.0
#: ... or each time this share of the work is done
LOG_EVERY_SHARE = 0.05


def writes_to_terminal(file: TextIO) -> bool:
    """Whether `file` is a terminal a bar can redraw in (not a file, a pipe or a CI log; ``$CI`` set counts as a log)."""
    try:
        return file.isatty() and not os.environ.get("CI")
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


def progress(iterable: Iterable | None = None, desc: str | None = None, total: float | None = None, *,
             file: TextIO | None = None, disable: bool = False, unit: str = "it", initial: float = 0,
             clock: Callable[[], float] = time.monotonic, **bar_options: Any) -> Any:
    """A progress display over `iterable` (or updated by hand): tqdm on a terminal, :class:`LogProgress` otherwise.
    `bar_options` are tqdm's (``dynamic_ncols``, ``bar_format``, ``unit_scale``, ...); a log needs none of them."""
    file = file if file is not None else sys.stderr
    if total is None and iterable is not None and hasattr(iterable, "__len__"):
        total = len(iterable)
    if disable or writes_to_terminal(file):
        from tqdm import tqdm

        return tqdm(iterable, desc=desc, total=total, file=file, disable=disable, unit=unit, initial=initial,
                    **bar_options)
    return LogProgress(iterable, desc or "progress", total, file=file, unit=unit, initial=initial, clock=clock)


class LogProgress:
    """Progress as plain lines: one when it starts, then when a minute has passed or 5% more is done since the last
    line, and one at the end. Has the part of tqdm's interface the project uses."""

    def __init__(self, iterable: Iterable | None, desc: str, total: float | None, *, file: TextIO, unit: str = "it",
                 initial: float = 0, clock: Callable[[], float] = time.monotonic):
        self.iterable, self.desc, self.total, self.file, self.unit = iterable, desc, total, file, unit
        self.n = self._logged_n = self._initial = initial
        self.postfix = ""
        self._clock = clock
        self._start = self._logged_at = clock()
        self._closed = self._pending = False
        self._write()

    def __iter__(self) -> Iterator:
        try:
            for item in self.iterable or ():
                yield item
                self.update(1)
        finally:
            self.close()

    def __enter__(self) -> "LogProgress":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def update(self, n: float = 1) -> None:
        """`n` more done; a line if a minute has passed or 5% more is done since the last one."""
        self.n += n
        now = self._clock()
        step = self.total * LOG_EVERY_SHARE if self.total else None
        if now - self._logged_at >= LOG_EVERY_SECONDS or (step and self.n - self._logged_n >= step):
            self._pending = True
            if not self.postfix:  # a caller that sets a postfix sets it after the update: the line waits for it
                self._write()

    def set_postfix_str(self, text: str = "", refresh: bool = True) -> None:
        """Text shown after the counts (a line due is written with it)."""
        self.postfix = text
        if self._pending:
            self._write()

    def set_description(self, desc: str | None = None, refresh: bool = True) -> None:
        """The label of the next lines."""
        self.desc = desc or ""

    def write(self, text: str, file: TextIO | None = None) -> None:
        """A line of its own, on standard output unless `file` is given (as tqdm's ``write``)."""
        print(text, file=file or sys.stdout, flush=True)

    def refresh(self) -> None:
        """Nothing to redraw in a log."""

    def close(self) -> None:
        """The last line, if anything was done since the line before."""
        if not self._closed:
            self._closed = True
            if self.n != self._logged_n:
                self._write()

    def _write(self) -> None:
        now = self._clock()
        elapsed = now - self._start
        done = f"{_number(self.n)}/{_number(self.total)} {self.unit}" if self.total else f"{_number(self.n)} {self.unit}"
        share = f" ({100 * self.n / self.total:.0f}%)" if self.total else ""
        left = ""
        if self.total and self._initial < self.n < self.total:
            rate = (self.n - self._initial) / elapsed if elapsed > 0 else 0
            left = f", ~{_clock_time((self.total - self.n) / rate)} left" if rate else ""
        postfix = f", {self.postfix}" if self.postfix else ""
        print(f"{self.desc}: {done}{share}, {_clock_time(elapsed)} elapsed{left}{postfix}", file=self.file, flush=True)
        self._logged_n, self._logged_at, self._pending = self.n, now, False


def _number(x: float | None) -> str:
    return "?" if x is None else f"{x:g}" if isinstance(x, float) and not x.is_integer() else f"{int(x)}"


def _clock_time(seconds: float) -> str:
    """``H:MM:SS`` or ``M:SS``."""
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
