"""Paired comparison of two runs on the instructions both finished: is B better than A, or is it noise?

Two runs of the same split of one track, on one major version of DWBench data (1.x and 2.0 are never paired), are
compared instruction by instruction (the same instruction, the same start), which is far more sensitive than
comparing their summaries, and stays fair when a run is unfinished. Reported:

- iACC of each, and the instructions only one got right, with the exact two-sided McNemar p-value (a binomial
  test on those discordant instructions);
- partial credit (:mod:`autodw.eval.partial`) of each, the mean difference B - A with a 95% paired bootstrap
  interval (10,000 resamples of the instructions, seeded: the same runs give the same interval), and the
  instructions B scores higher, equal and lower on.

An instruction the two runs made against different DWBench data (another text or gold of it or of an earlier turn of
its session: :func:`autodw.eval.metrics.made_against`) is left out, and named.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from autodw.core.errors import ConfigError
from autodw.eval.metrics import (data_major, data_version, instruction_records, judge_version, made_against,
                                 rejudge_hint, run_track)
from autodw.eval.run_folder import run_sessions, run_settings

RESAMPLES = 10_000
SEED = 0


def _records(run: Path, spec: dict[str, Any]) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """A run's instruction records by key and what each was made against (a data hash); `spec`: its settings."""
    sessions = run_sessions(spec)
    by_id = {s.session_id: s for s in sessions}
    records = {r["key"]: r for r in instruction_records(run, sessions)}
    return records, {k: made_against(r, by_id[r["session_id"]], data_version(spec)) for k, r in records.items()}


def comparable(run_a: Path, spec_a: dict[str, Any], run_b: Path, spec_b: dict[str, Any]) -> None:
    """ConfigError unless two runs (their settings) can be paired: one track, one split, one major DWBench data
    version (2.0 is another benchmark than 1.x), one judge version."""
    for what, value in (("track", run_track), ("split", lambda s: s["split"])):
        if value(spec_a) != value(spec_b):
            raise ConfigError(f"{run_a} ran on the {value(spec_a)} {what}, {run_b} on the {value(spec_b)} {what}: "
                              f"compare runs of one {what}")
    if data_major(spec_a) != data_major(spec_b):
        raise ConfigError(f"{run_a} was made on DWBench {data_version(spec_a)} data, {run_b} on {data_version(spec_b)}: "
                          "runs of different major data versions are of other instructions and are never paired")
    versions = (judge_version(spec_a), judge_version(spec_b))
    if versions[0] != versions[1]:
        older = (run_a, run_b)[versions[1] < versions[0]]
        raise ConfigError(f"{run_a} was judged by judge version {versions[0]}, {run_b} by {versions[1]}: "
                          f"{rejudge_hint(older)}")


def mcnemar_p(only_a: int, only_b: int) -> float:
    """Exact two-sided McNemar p-value: the chance of a split at least this uneven of the discordant pairs."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def bootstrap_interval(differences: list[float], resamples: int = RESAMPLES, seed: int = SEED) -> tuple[float, float]:
    """The 95% percentile interval of the mean of `differences`, resampled with replacement."""
    import numpy as np

    values = np.asarray(differences, dtype=float)
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, len(values), size=(resamples, len(values)))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return round(float(low), 4), round(float(high), 4)


def compare(run_a: Path, run_b: Path) -> dict[str, Any]:
    """The paired comparison of `run_b` against `run_a` (see the module docstring), on the instructions both finished
    on the same instruction and gold (``left_out``: those made against other DWBench data)."""
    spec_a, spec_b = run_settings(run_a), run_settings(run_b)
    comparable(run_a, spec_a, run_b, spec_b)
    (a, made_a), (b, made_b) = _records(run_a, spec_a), _records(run_b, spec_b)
    for run, records in ((run_a, a), (run_b, b)):
        if not records:
            raise ConfigError(f"{run} has no instruction records (a session-only run, or one kept as its summary "
                              "only): compare pairs instructions run from their gold start (--mode instruction)")
    left_out = [k for k in a if k in b and made_a[k] != made_b[k]]
    keys = [k for k in a if k in b and k not in left_out]
    if not keys:
        raise ConfigError(f"{run_a} and {run_b} have no finished instruction in common"
                          + (f" made against the same DWBench data ({len(left_out)} left out)" if left_out else ""))
    only_a = sum(1 for k in keys if a[k]["success"] and not b[k]["success"])
    only_b = sum(1 for k in keys if b[k]["success"] and not a[k]["success"])
    diffs = [b[k]["partial_credit"] - a[k]["partial_credit"] for k in keys]
    n = len(keys)
    return {
        "a": str(run_a), "b": str(run_b), "track": run_track(spec_a), "split": spec_a["split"], "instructions": n,
        "iacc_a": round(sum(a[k]["success"] for k in keys) / n, 4), "iacc_b": round(sum(b[k]["success"] for k in keys) / n, 4),
        "only_a_succeeded": only_a, "only_b_succeeded": only_b, "mcnemar_p": mcnemar_p(only_a, only_b),
        "partial_credit_a": round(sum(a[k]["partial_credit"] for k in keys) / n, 4),
        "partial_credit_b": round(sum(b[k]["partial_credit"] for k in keys) / n, 4),
        "partial_credit_difference": round(sum(diffs) / n, 4), "difference_95ci": list(bootstrap_interval(diffs)),
        "b_higher": sum(1 for d in diffs if d > 1e-9), "equal": sum(1 for d in diffs if abs(d) <= 1e-9),
        "b_lower": sum(1 for d in diffs if d < -1e-9),
        "left_out": left_out, "data_versions": [data_version(spec_a), data_version(spec_b)],
    }


def compare_text(result: dict[str, Any]) -> str:
    """`result` as a few lines for a person."""
    low, high = result["difference_95ci"]
    return "\n".join([
        f"A = {result['a']}\nB = {result['b']}\n{result['instructions']} instructions of {result['track']}/"
        f"{result['split']} finished by both",
        f"iACC: A {100 * result['iacc_a']:.1f}%, B {100 * result['iacc_b']:.1f}%; only A right {result['only_a_succeeded']}, "
        f"only B right {result['only_b_succeeded']} (McNemar p = {result['mcnemar_p']:.3g})",
        f"partial credit: A {result['partial_credit_a']:.3f}, B {result['partial_credit_b']:.3f}; B - A "
        f"{result['partial_credit_difference']:+.3f} (95% bootstrap interval {low:+.3f} to {high:+.3f}); "
        f"B higher on {result['b_higher']}, equal on {result['equal']}, lower on {result['b_lower']}",
    ] + ([f"left out, made against other instructions or gold (DWBench data A {result['data_versions'][0]}, B "
          f"{result['data_versions'][1]}): {', '.join(result['left_out'])}"] if result["left_out"] else []))
