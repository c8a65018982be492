"""The bounded fuzz runs of the test suite: each harness for a few seconds of CPU time, on fixed seeds."""

from __future__ import annotations

import time
from typing import Callable

import pytest

from tests.fuzz.draw import RandomDraw
from tests.fuzz.outcome import Crash


def bounded_run(one: Callable[[RandomDraw], dict], name: str, cpu_seconds: float, most: int, least: int = 3) -> list[dict]:
    """`one` on seeds ``NAME:suite:0``, ``:1``, ... until `cpu_seconds` of CPU time are spent (at least `least`, at
    most `most` inputs); a crash fails the test with its seed (``python -m tests.fuzz.campaign ... --replay`` does
    not apply: these seeds are the suite's own) and its traceback."""
    start, results = time.process_time(), []
    for n in range(most):
        if n >= least and time.process_time() - start > cpu_seconds:
            break
        try:
            results.append(one(RandomDraw(f"{name}:suite:{n}")))
        except Crash as crash:
            pytest.fail(f"seed {name}:suite:{n}: {crash}\n{crash.trace}", pytrace=False)
    return results
