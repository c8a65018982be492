"""Long fuzz campaigns, resumable, into a JSON results file.

    python -m tests.fuzz.campaign TARGET --inputs N [--out DIR] [--shard K] [--engine random|atheris] [--hours H]
    python -m tests.fuzz.campaign TARGET --recheck [--out DIR]      # every recorded crash tried again on this code
    python -m tests.fuzz.campaign TARGET --replay SEED [--shard K]  # one random-engine input, with its traceback

TARGET is one of :data:`TARGETS` (reader, api, parsers, judge, arguments, mcp). The results go to
``DIR/TARGET.json`` (DIR: ``--out``, default :data:`OUT`); run the same command again and it goes on where it
stopped (the results file holds the next seed and every count). ``--shard K`` (K > 0) is a second seed stream of
the same target into ``DIR/TARGET.shardK.json``, to run beside the first on another core; the report adds the
shards up. A supervisor process runs the
inputs in a worker process: a worker that dies (a crash in C code, the kernel's OOM killer, a hang the
in-process time limit cannot interrupt) is recorded as a crash of the input it was on, and a new worker
goes on after it. The results file records inputs tried, outcomes, time, crashes (with seed, signature,
traceback tail and the commit that saw them), hangs and peak memory; crashing inputs are kept beside it in
``crashes/`` for the recheck. Run it under ``nice -n 19`` on a shared machine.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import json
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.fuzz.draw import ProviderDraw, RandomDraw
from tests.fuzz.outcome import Crash, peak_rss_mb

ROOT = Path(__file__).resolve().parents[2]
#: where every campaign writes its results file (and, in ``scratch/``, the bulky things never committed: crashing
#: inputs, atheris's corpus, the worker's heartbeat, the kill trials' run folders); ``--out`` or AUTODW_FUZZ_OUT
OUT = Path(os.environ.get("AUTODW_FUZZ_OUT") or ROOT / "runs" / "fuzz")


def add_out_argument(ap: argparse.ArgumentParser) -> None:
    """The ``--out DIR`` every campaign command takes (its results file and scratch folder go there)."""
    ap.add_argument("--out", type=Path, default=OUT, help=f"results folder (default {OUT}; AUTODW_FUZZ_OUT)")


def results_name(target: str, engine: str = "random", shard: int = 0) -> str:
    """The results file of a campaign in its folder: TARGET[-ENGINE][.shardK].json."""
    return f"{target}{'' if engine == 'random' else '-' + engine}{f'.shard{shard}' if shard else ''}.json"


def seed_name(target: str, seed: int, shard: int = 0) -> str:
    """What seeds the random source of input `seed` of a shard (shard 0 keeps the first campaigns' names)."""
    return f"{target}:{seed}" if not shard else f"{target}#{shard}:{seed}"

#: target name -> "module:factory"; the factory returns a harness with ``one(draw) -> dict`` (raising a Crash whose
#: ``case`` is the input, kept for the recheck) and ``check(case)`` (that input again)
TARGETS = {
    "reader": "tests.fuzz.reader:ReaderHarness",
    "api": "tests.fuzz.api:campaign_harness",
    "parsers": "tests.fuzz.parsers:ParserHarness",
    "judge": "tests.fuzz.pairs:PairHarness",
    "arguments": "tests.fuzz.arguments:ArgumentHarness",
    "mcp": "tests.fuzz.mcp:McpHarness",
}
SAVE_EVERY = 30.0  # seconds between writes of the results file
WORKER_MEMORY_GB = 8  # the worker's address-space limit: unbounded memory ends in MemoryError, not the OOM killer
WALL_LIMIT = 3600  # seconds of wall time on one input before the supervisor ends the worker (the machine is shared)


def heartbeat_of(results: Path, scratch: Path) -> Path:
    """The file naming the input a worker is on (one per results file)."""
    return scratch / f"{results.stem}-{hashlib.sha256(str(results).encode()).hexdigest()[:8]}.current"


def harness(target: str) -> Any:
    module, name = TARGETS[target].split(":")
    return getattr(importlib.import_module(module), name)()


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def new_results(target: str, engine: str) -> dict[str, Any]:
    return {"target": target, "engine": engine, "inputs": 0, "next_seed": 0, "seconds": 0.0, "outcomes": {},
            "crashes": {}, "hangs": 0, "max_input_seconds": 0.0, "peak_mb": 0.0, "runs": []}


def load(path: Path, target: str, engine: str) -> dict[str, Any]:
    if path.exists():
        results = json.loads(path.read_text(encoding="utf-8"))
        if results["target"] != target:
            raise SystemExit(f"{path} holds the results of {results['target']}, not {target}")
        return results
    return new_results(target, engine)


def save(path: Path, results: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def record_crash(results: dict[str, Any], crash: Crash, seed: Any, crash_dir: Path, scratch: Path,
                 case: Any = None) -> None:
    """Count `crash` under its signature (the first input kept, with its traceback tail)."""
    sig = crash.signature()
    entry = results["crashes"].setdefault(sig, {"kind": crash.kind, "where": crash.where, "count": 0, "seed": seed,
                                                "detail": crash.detail[:500], "trace": crash.trace[-2500:],
                                                "commit": commit(), "fixed": None})
    entry["count"] += 1
    if crash.kind == "hang":
        results["hangs"] += 1
    if case is not None and entry["count"] == 1:
        crash_dir.mkdir(parents=True, exist_ok=True)
        name = hashlib.sha256(sig.encode()).hexdigest()[:16]
        (crash_dir / f"{name}.pickle").write_bytes(pickle.dumps(case))
        entry["case"] = str((crash_dir / f"{name}.pickle").relative_to(scratch))


# --- the worker: inputs in this process -------------------------------------------------------


class Worker:
    """Runs inputs of one target, counting into the results file (written every SAVE_EVERY seconds)."""

    def __init__(self, target: str, path: Path, inputs: int, deadline: float, engine: str, scratch: Path,
                 shard: int = 0):
        self.target, self.path, self.goal, self.deadline, self.scratch = target, path, inputs, deadline, scratch
        self.shard = shard
        self.results = load(path, target, engine)
        self.harness = harness(target)
        if hasattr(self.harness, "resume"):  # a harness that balances its inputs by what the campaign has done so far
            self.harness.resume(self.results)
        self.crash_dir = scratch / "crashes" / target
        self.heartbeat = heartbeat_of(path, scratch)
        self.last_save = time.monotonic()
        self.run = {"commit": commit(), "engine": engine, "started": time.strftime("%Y-%m-%dT%H:%M:%S"), "inputs": 0}
        self.results["runs"].append(self.run)

    def done(self) -> bool:
        return self.results["inputs"] >= self.goal or time.time() >= self.deadline

    def one(self, draw: Any, seed: Any) -> None:
        self.heartbeat.write_text(json.dumps(seed))
        start, cpu_start = time.monotonic(), time.process_time()
        try:
            info = self.harness.one(draw)
            for key, n in info.get("counts", {}).items():
                self.results.setdefault("counts", {})[key] = self.results.setdefault("counts", {}).get(key, 0) + n
            outcome = info.get("outcome", "ok")
            cpu = info.get("cpu_seconds", 0.0)
            self.results["max_input_cpu_seconds"] = round(max(self.results.get("max_input_cpu_seconds", 0.0), cpu), 2)
            self.results["outcomes"][outcome] = self.results["outcomes"].get(outcome, 0) + 1
        except Crash as crash:
            record_crash(self.results, crash, seed, self.crash_dir, self.scratch, crash.case)
        except Exception:  # noqa: BLE001 - a bug of the harness itself (autodw's calls are inside stages)
            import traceback

            errors = self.results.setdefault("harness_errors", [])
            if len(errors) < 20:
                errors.append({"seed": seed, "trace": traceback.format_exc()[-1500:]})
        took = time.monotonic() - start
        r = self.results
        r["inputs"] += 1
        self.run["inputs"] += 1
        r["seconds"] = round(r["seconds"] + took, 2)
        r["cpu_seconds"] = round(r.get("cpu_seconds", 0.0) + time.process_time() - cpu_start, 2)
        r["cpu_inputs"] = r.get("cpu_inputs", 0) + 1  # the inputs cpu_seconds counts (the first runs did not)
        r["max_input_seconds"] = round(max(r["max_input_seconds"], took), 2)
        r["peak_mb"] = round(max(r["peak_mb"], peak_rss_mb()), 1)
        if time.monotonic() - self.last_save > SAVE_EVERY or self.done():
            self.flush()

    def flush(self) -> None:
        self.run["ended"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        save(self.path, self.results)
        self.last_save = time.monotonic()

    def random_loop(self) -> None:
        while not self.done():
            seed = self.results["next_seed"]
            self.results["next_seed"] = seed + 1  # before the input: a worker dying on it resumes after it
            self.one(RandomDraw(seed_name(self.target, seed, self.shard)), seed)
        self.flush()

    def atheris_loop(self, corpus: Path) -> None:
        import atheris

        corpus.mkdir(parents=True, exist_ok=True)
        if not any(corpus.iterdir()):  # random starting inputs: an empty one decodes to the same few decisions
            import random

            seeded = random.Random(f"{self.target}:atheris")
            for n in range(64):
                (corpus / f"start-{n:02d}").write_bytes(seeded.randbytes(1024))

        def test_one_input(data: bytes) -> None:
            if self.done():
                self.flush()
                os._exit(0)
            self.one(ProviderDraw(data), f"atheris:{hashlib.sha256(data).hexdigest()[:16]}")

        atheris.instrument_all()  # coverage of every Python function loaded (autodw, python-docx, the harness)
        artifacts = self.scratch / "atheris-artifacts"  # libFuzzer's slow and crashing units (else in the cwd)
        artifacts.mkdir(parents=True, exist_ok=True)
        atheris.Setup([sys.argv[0], str(corpus), f"-rss_limit_mb={WORKER_MEMORY_GB * 1024}", "-timeout=600",
                       "-max_len=4096", f"-artifact_prefix={artifacts}/"], test_one_input)
        atheris.Fuzz()


def worker_main(args: argparse.Namespace) -> int:
    import resource

    limit = WORKER_MEMORY_GB << 30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    w = Worker(args.target, args.results, args.inputs, args.deadline, args.engine, args.scratch, args.shard)
    signal.signal(signal.SIGTERM, lambda *_: (w.flush(), os._exit(0)))
    if args.engine == "atheris":
        w.atheris_loop(args.scratch / "atheris-corpus" / args.target)
    else:
        w.random_loop()
    return 0


# --- the supervisor -----------------------------------------------------------------------------


def supervise(args: argparse.Namespace) -> int:
    path: Path = args.results
    deadline = time.time() + args.hours * 3600 if args.hours else float("inf")
    heartbeat = heartbeat_of(path, args.scratch)
    args.scratch.mkdir(parents=True, exist_ok=True)
    results = load(path, args.target, args.engine)
    results["command"] = args.command  # what the report names as this file's maker (and how to resume it)
    save(path, results)
    while True:
        results = load(path, args.target, args.engine)
        if results["inputs"] >= args.inputs or time.time() >= deadline:
            print(f"{args.target}: {results['inputs']} inputs, {len(results['crashes'])} crash signature(s), "
                  f"{results['hangs']} hang(s), {results['seconds']:.0f} s; results in {path}")
            return 1 if any(c["fixed"] is None for c in results["crashes"].values()) else 0
        heartbeat.unlink(missing_ok=True)
        cmd = [sys.executable, "-m", "tests.fuzz.campaign", args.target, "--worker",
               "--inputs", str(args.inputs), "--deadline", str(deadline), "--engine", args.engine,
               "--out", str(args.out), "--shard", str(args.shard)]
        worker = subprocess.Popen(cmd, cwd=ROOT)
        stuck = False
        try:
            while (code := worker.poll()) is None:
                time.sleep(5)
                if heartbeat.exists() and time.time() - heartbeat.stat().st_mtime > WALL_LIMIT:
                    stuck = True  # the in-process CPU limit did not end it: a hang in C code, or a stopped process
                    worker.kill()
        except KeyboardInterrupt:
            worker.terminate()
            worker.wait()
            return 130
        if code != 0 and heartbeat.exists():  # the worker died on an input: that input is a crash
            seed = json.loads(heartbeat.read_text())
            results = load(path, args.target, args.engine)
            how = f"signal {-code}" if code < 0 else f"exit status {code}"
            crash = (Crash("hang", "worker", f"no progress for {WALL_LIMIT} s of wall time") if stuck else
                     Crash("died", "worker", f"the worker process ended with {how}"))
            record_crash(results, crash, seed, args.scratch / "crashes" / args.target, args.scratch)
            if isinstance(seed, int):
                results["next_seed"] = max(results["next_seed"], seed + 1)
                results["inputs"] += 1
            save(path, results)
        elif code != 0:
            raise SystemExit(f"the worker failed before any input (exit status {code})")


def recheck(args: argparse.Namespace) -> int:
    """Try every recorded crash again; mark those that no longer crash as fixed at this commit."""
    results = load(args.results, args.target, args.engine)
    h = harness(args.target)
    still = 0
    for sig, entry in results["crashes"].items():
        if entry["fixed"] is not None:
            continue
        try:
            if entry.get("case"):
                h.check(pickle.loads((args.scratch / entry["case"]).read_bytes()))
            elif isinstance(entry["seed"], int):
                h.one(RandomDraw(seed_name(args.target, entry["seed"], args.shard)))
            else:
                print(f"cannot replay {sig}: no kept input")
                still += 1
                continue
            entry["fixed"] = commit()
            print(f"fixed: {sig}")
        except Crash as crash:
            still += 1
            print(f"still crashes: {sig}\n  {crash}")
    save(args.results, results)
    return 1 if still else 0


def replay(args: argparse.Namespace) -> int:
    h = harness(args.target)
    draw = RandomDraw(seed_name(args.target, args.replay, args.shard))
    try:
        info = h.one(draw)
    except Crash as crash:
        print(crash.trace or "", file=sys.stderr)
        print(f"crash: {crash}", file=sys.stderr)
        return 1
    print(json.dumps(info, indent=1, default=str))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target", choices=sorted(TARGETS))
    ap.add_argument("--inputs", type=int, default=1000, help="stop when the results file counts this many inputs")
    ap.add_argument("--hours", type=float, default=None, help="and stop after this long")
    ap.add_argument("--engine", choices=("random", "atheris"), default="random")
    add_out_argument(ap)
    ap.add_argument("--shard", type=int, default=0, help="another seed stream of the target (its own results file)")
    ap.add_argument("--recheck", action="store_true", help="try every recorded crash again")
    ap.add_argument("--replay", type=int, default=None, metavar="SEED", help="one input of the random engine")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--deadline", type=float, default=float("inf"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.command = " ".join(["python -m tests.fuzz.campaign", *(sys.argv[1:] if argv is None else argv)])
    args.out = args.out.resolve()
    args.results = args.out / results_name(args.target, args.engine, args.shard)
    args.scratch = args.out / "scratch"
    if args.worker:
        return worker_main(args)
    if args.recheck:
        return recheck(args)
    if args.replay is not None:
        return replay(args)
    return supervise(args)


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):
        sys.exit(main())
