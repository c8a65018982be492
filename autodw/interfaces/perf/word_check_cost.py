"""Cost of the benchmark runner's Word check per output: the oracle on a split, with and without it.

Runs ``autodw bench run --system oracle`` into fresh folders, `--repeat` times with the Word check and `--repeat`
times with ``--no-word-check``, alternated. Prints the median wall time of each and the difference per output
checked. The Word check's findings must be the same on every pass, or the measurement fails.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from autodw.core.paths import repo_root


def oracle_run(split: str, mode: str, out: Path, word_check: bool, limit: int | None = None) -> float:
    """Wall seconds of one oracle run into `out` (a new process, as a user starts it)."""
    root = repo_root()
    command = [sys.executable, "-m", "autodw.interfaces.cli", "bench", "run", "--system", "oracle", "--split", split,
               "--mode", mode, "--out", str(out)] + ([] if word_check else ["--no-word-check"]) \
        + ([] if limit is None else ["--limit", str(limit)])
    env = {**os.environ, "PYTHONPATH": str(root)}
    start = time.perf_counter()
    subprocess.run(command, cwd=root, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def findings(out: Path) -> dict[str, str]:
    """Each record's Word check result (findings added, or its error), by record path (instructions or turns)."""
    records = sorted((out / "instructions").glob("*.json")) + sorted((out / "sessions").glob("*/turn-*.json"))
    return {str(p.relative_to(out)): json.dumps([r["word_errors_added"], r["word_check_error"]], sort_keys=True)
            for p in records for r in [json.loads(p.read_text())]}


def run(args: argparse.Namespace) -> int:
    """Alternate runs with and without the check; 1 if the check's findings differ between passes."""
    times: dict[bool, list[float]] = {True: [], False: []}
    seen, checked = set(), 0
    with tempfile.TemporaryDirectory(prefix="autodw-bench-word-check-") as tmp:
        for i in range(args.repeat):
            for word_check in (True, False):
                out = Path(tmp) / f"{'with' if word_check else 'without'}-{i}"
                times[word_check].append(oracle_run(args.split, args.mode, out, word_check, args.limit))
                if word_check:
                    result = findings(out)
                    seen.add(json.dumps(result, sort_keys=True))
                    checked = sum(1 for v in result.values() if not v.startswith("[null"))
    if len(seen) != 1:
        print("error: the passes gave different Word check results", file=sys.stderr)
        return 1
    with_check, without = statistics.median(times[True]), statistics.median(times[False])
    print(f"oracle on {args.split} ({args.mode} mode), {args.repeat} passes each: median {with_check:.1f} s with the Word check, "
          f"{without:.1f} s without; {checked} outputs checked, {(with_check - without) / max(1, checked):.2f} s an output")
    return 0
