"""Measure the harness's own overhead: units run through the real ``autodw bench run`` (its runner's pool, the agent's
loop, the LLM layer with its limiter and the ``openai`` client, grading) at 32 requests in flight against a fake
OpenAI-compatible server (tests/fake_openai.py, in a process of its own) that answers every request after a fixed
delay. Overhead = the share of the wall time the run took beyond what the model's answers alone would take.

Usage: python scripts/measure_harness_overhead.py [--system noisy-oracle|reasoning-only] [--delay S [S ...]]
                                                  [--repeats K] [--workers N] [--limit SESSIONS] [--split dev]
                                                  [--keep DIR]

- noisy-oracle (the default) is the agent's loop with the gold planner and the LLM validator (``--p 0 --validator
  llm``): per gold step it snapshots, executes, extracts the document state, analyses the change and asks the
  validator, which the fake server answers "pass"; so the harness does an agent's document work between requests
  (more per request than the agent itself, which asks a planner, a generator and a validator per step).
  reasoning-only asks one request per instruction (answered with an empty program).
- The run's wall time is its summary's ``wall_seconds`` (the runner's, without the process's start and imports).
  The model-bound time is that of a harness that costs nothing: the units, in the order the runner hands them out,
  on `workers` slots, each taking (its LLM calls, from its record) x delay, by the same first-free-slot rule
  (:func:`model_bound`). Overhead = 1 - model-bound / wall.
- The harness's CPU is the CPU time the run's process spent while its runner ran (the span of ``wall_seconds``; all
  its threads), per LLM call. It does not grow when other jobs share the cores, as the wall time does: the
  CPU-based overhead is that of a harness taking this CPU per call that never waits for a core (each unit taking its
  calls x (delay + CPU per call), the same pool): the figure on an idle machine with a core to spare. At 32 requests
  in flight and a delay D, one core gives D / 32 seconds of CPU per request: a run needing more waits for its CPU
  (threads share one core: the GIL), not for the model.
- Each delay (several may be given) runs `repeats` times; the medians over the repeats are printed last, with the
  machine's load average (other jobs on the same cores lengthen the wall time, not the CPU).
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANSWERS = {"noisy-oracle": {"decision": "pass", "confidence": 0.9, "explanation": "done"},
           "reasoning-only": {"calls": []}}


#: the fake endpoint, run in a process of its own from the checkout (tests/ is not installed): every request
#: answered with argv[2] after argv[1] seconds; its port written to argv[3]
SERVE = """
import sys, time
from pathlib import Path
from tests.fake_openai import FakeServer, Reply, completion

reply = Reply(200, completion(sys.argv[2]), delay=float(sys.argv[1]))
server = FakeServer(then=lambda request: reply)
Path(sys.argv[3]).write_text(str(server.port))
while True:
    time.sleep(3600)
"""


def model_bound(calls: list[int], slots: int, delay: float) -> float:
    """The wall time of units taking calls x delay each, handed out in order to the first free of `slots`."""
    free = [0.0] * slots
    end = 0.0
    for n in calls:
        start = heapq.heappop(free)
        heapq.heappush(free, start + n * delay)
        end = max(end, start + n * delay)
    return end


#: ``autodw bench run`` (argv[2:]) with the CPU time its process spends while the runner runs written to argv[1]
TIMED_RUN = """
import sys, time
from pathlib import Path
from autodw.eval.runner import Runner
from autodw.interfaces.cli import main

untimed = Runner.run

def timed(self):
    start = time.process_time()
    try:
        return untimed(self)
    finally:
        Path(sys.argv[1]).write_text(repr(time.process_time() - start))

Runner.run = timed
sys.exit(main(sys.argv[2:]))
"""


def run_once(args: argparse.Namespace, delay: float, url: str, out: Path) -> dict[str, float]:
    """One bench run into `out`; its wall time, model-bound time, overhead and the harness's CPU."""
    cpu_file = out.with_name(out.name + ".cpu")
    command = [sys.executable, "-c", TIMED_RUN, str(cpu_file), "bench", "run", "--system", args.system, "--split",
               args.split, "--limit", str(args.limit), "--mode", "instruction", "--llm", "openai:fake", "--base-url",
               url, "--workers", str(args.workers), "--concurrency", str(args.workers), "--no-word-check",
               "--format", "json", "--out", str(out)]
    if args.system == "noisy-oracle":
        command += ["--p", "0", "--validator", "llm"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"bench run failed ({done.returncode}):\n{done.stderr[-3000:]}")
    summary = json.loads(done.stdout)
    # the order the runner hands units out: the split's (its sessions, their turns)
    from autodw.eval.run_folder import select_sessions

    sessions = select_sessions(args.split, args.limit)
    records = {p.stem: json.loads(p.read_text()) for p in (out / "instructions").glob("*.json")}
    calls = [records[f"{s.session_id}--{i.turn}"]["llm_calls"] for s in sessions for i in s.instructions]
    bound = model_bound(calls, args.workers, delay)
    wall = summary["wall_seconds"]
    cpu = float(cpu_file.read_text())
    per_call = cpu / sum(calls)
    return {"units": len(calls), "llm_calls": sum(calls), "wall": wall, "model_bound": bound,
            "overhead": 1 - bound / wall, "cpu": cpu, "cpu_per_call": per_call,
            "cpu_overhead": 1 - bound / model_bound(calls, args.workers, delay + per_call),
            "load": os.getloadavg()[0]}


def measure(args: argparse.Namespace, delay: float, work: Path) -> dict[str, float]:
    """`args.repeats` runs against a fake server answering after `delay` seconds; their medians."""
    port_file = work / "port"
    port_file.unlink(missing_ok=True)
    server = subprocess.Popen([sys.executable, "-c", SERVE, str(delay), json.dumps(ANSWERS[args.system]),
                               str(port_file)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not port_file.is_file() or not port_file.read_text():
            if server.poll() is not None or time.monotonic() > deadline:
                sys.exit("the fake server did not start")
            time.sleep(0.1)
        url = f"http://127.0.0.1:{port_file.read_text()}/v1"
        results = []
        for k in range(1, args.repeats + 1):
            out = work / f"delay-{delay:g}-run-{k}"
            shutil.rmtree(out, ignore_errors=True)
            r = run_once(args, delay, url, out)
            results.append(r)
            print(f"delay {delay:g} s, repeat {k}: {r['units']} units, {r['llm_calls']} LLM calls, wall {r['wall']:.1f} s, "
                  f"model-bound {r['model_bound']:.1f} s, overhead {100 * r['overhead']:.1f}%; harness CPU "
                  f"{r['cpu']:.1f} s, {1000 * r['cpu_per_call']:.0f} ms per LLM call, CPU-based overhead "
                  f"{100 * r['cpu_overhead']:.1f}%; load average {r['load']:.1f}", flush=True)
    finally:
        server.kill()
        server.wait()
    return {key: statistics.median(r[key] for r in results) for key in results[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--system", choices=sorted(ANSWERS), default="noisy-oracle")
    parser.add_argument("--delay", type=float, nargs="+", default=[1.0, 3.0, 5.0],
                        help="seconds the fake server takes per answer (each delay measured in turn)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--workers", type=int, default=32, help="units run at once, and requests in flight at most")
    parser.add_argument("--split", default="dev")
    parser.add_argument("--limit", type=int, default=16, help="the first N sessions of the split")
    parser.add_argument("--keep", default=None, metavar="DIR", help="keep the run folders here (default: deleted)")
    args = parser.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="harness-overhead-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        medians = {delay: measure(args, delay, work) for delay in args.delay}
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"harness overhead ({args.system}, {args.workers} requests in flight, {args.split} first {args.limit} "
          f"sessions; medians over {args.repeats} repeats):")
    for delay, m in medians.items():
        print(f"  answers after {delay:g} s: {100 * m['overhead']:.1f}% of wall time (load average "
              f"{m['load']:.1f} on {os.cpu_count()} cores); harness CPU {1000 * m['cpu_per_call']:.0f} ms per LLM "
              f"call, CPU-based overhead {100 * m['cpu_overhead']:.1f}%")


if __name__ == "__main__":
    main()
