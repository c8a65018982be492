"""kill -9 in the middle of work, through the command line only.

    python -m tests.fuzz.kills run --trials 20 [--out DIR]     # autodw run, killed at a random moment
    python -m tests.fuzz.kills bench --trials 100 [--out DIR]  # autodw bench run, killed, then the same command again

``run``: ``autodw run`` replays a recorded session of four instructions (a scripted model, recorded once with
this machine's intent classifier; no model runs) and is killed with SIGKILL after a random delay (half the
time in the last third of the run, where it saves). Afterwards the input is byte-identical, and the output path
holds nothing or the complete output (the same parts as an uninterrupted run's); nothing else is left beside it
but the documented ``OUT.partial.docx`` (a leftover temporary file is counted apart).
``bench``: ``autodw bench run`` (oracle, or noisy oracle with the rules validator; instruction mode on three short
dev instructions, session mode on the shortest dev session; without the Word check) is killed after a random
delay, then the same command is run again to its end: its records (every JSON file but what measures time or
names the process) and its output documents must be those of an uninterrupted run of the same command.

A kill moment is drawn within the duration of the last run of the same command that went to its end (the
reference run, then every run the kill came too late for): the machine is shared, so how long a run takes moves
with the load. Trials resume: ``DIR/kills-run.json`` and ``DIR/kills-bench.json`` count them, their run folders
are under ``DIR/scratch/kills/``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

from tests.fuzz.campaign import add_out_argument, commit

ROOT = Path(__file__).resolve().parents[2]
CLI = "import sys; from autodw.interfaces.cli import main; sys.exit(main())"
#: record fields that differ between two identical runs (the lead's behaviour_baseline.py records compares the same)
VARYING = {"seconds", "recalled_seconds", "finished_at", "started_at", "pid", "wall_seconds",
           "seconds_per_instruction", "median_seconds_per_instruction", "recalled_seconds_per_instruction"}
INSTRUCTIONS = ["Add a paragraph 'First addition.' at the end", "Add a paragraph 'Second addition.' at the end",
                "Add a paragraph 'Third addition.' at the end", "Add a paragraph 'Fourth addition.' at the end"]
#: the bench runs' scope: instruction mode on three short dev instructions (one or two gold calls each), session mode
#: on the dev session with the fewest gold calls (dwb-008: six turns, 17 calls)
INSTRUCTION_SCOPE = ["--instructions", "dwb-008#1,dwb-008#2,dwb-004#1"]
SESSION_SCOPE = ["--sessions", "dwb-008"]
BENCH_CONFIGS = {
    "oracle-instruction": ["--system", "oracle", "--mode", "instruction"],
    "oracle-session": ["--system", "oracle", "--mode", "session"],
    "noisy-rules-instruction": ["--system", "noisy-oracle", "--validator", "rules", "--mode", "instruction"],
    "noisy-rules-session": ["--system", "noisy-oracle", "--validator", "rules", "--mode", "session"],
}


def cli(args: list[str], **kw: Any) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", CLI, *args], cwd=kw.pop("cwd", ROOT), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)


def kill_after(process: subprocess.Popen, delay: float) -> bool:
    """SIGKILL `process` after `delay` seconds unless it ended first; whether it was killed."""
    try:
        process.wait(timeout=delay)
        return False
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGKILL)
        process.wait()
        return True


def draw_delay(r: random.Random, full: float) -> float:
    """A kill moment: anywhere in the run, or (half the time) in its last third, where outputs are written."""
    return r.uniform(0.05, 0.95) * full if r.random() < 0.5 else r.uniform(0.7, 0.98) * full


def parts(path: Path) -> dict[str, str]:
    """Member name -> sha256 of a package (the zip's own bytes may differ in timestamps; ours do not)."""
    with zipfile.ZipFile(path) as zf:
        return {i.filename: hashlib.sha256(zf.read(i)).hexdigest() for i in zf.infolist()}


# --- autodw run ----------------------------------------------------------------------------------------


def record_session(path: Path, intents_model: Path | None) -> Path:
    """A cassette of the four instructions on the sample, recorded with a scripted model and this classifier."""
    from autodw import WordDocument
    from autodw.agent.build import make_agent
    from autodw.intents.classifier import load_or_train
    from autodw.llm.replay import RecordingBackend
    from autodw.llm.scripted import ScriptedBackend

    texts = [i.split("'")[1] for i in INSTRUCTIONS]
    script = {"planner": [a for t in texts for a in ({"done": False, "sub_instruction": f"Insert '{t}' at the end.",
                                                      "reason": "needed"},
                                                     {"done": True, "sub_instruction": None, "reason": "complete"})],
              "api_generator": [{"api": "insert_paragraph", "args": {"text": t, "position": "end"}} for t in texts],
              "validator": [{"decision": "pass", "confidence": 0.95, "explanation": "ok"}] * len(texts)}
    recorder = RecordingBackend(ScriptedBackend(script), path)
    classifier = load_or_train(intents_model, progress=False, train_missing=False)
    agent = make_agent(recorder, classifier=classifier, profile="hosted")
    agent.run(WordDocument.open(ROOT / "examples" / "report.docx"), INSTRUCTIONS)
    agent.close()
    return path


class RunTrials:
    """kill -9 of ``autodw run`` at random moments."""

    def __init__(self, folder: Path, intents_model: Path | None):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.model = intents_model
        self.cassette = folder / f"session-{commit()}.cassette.jsonl"  # the prompts are the code's: one per commit
        if not self.cassette.exists():
            record_session(self.cassette, intents_model)
        self.session = folder / "session.txt"
        self.session.write_text("\n".join(INSTRUCTIONS) + "\n", encoding="utf-8")
        self.original = (ROOT / "examples" / "report.docx").read_bytes()
        self.reference, self.full = self._uninterrupted()  # full: the last uninterrupted run's seconds

    def _command(self, work: Path) -> list[str]:
        args = ["run", str(work / "input.docx"), "--session", str(self.session), "-o", str(work / "out" / "out.docx"),
                "--llm", f"replay:{self.cassette}", "--trace", str(work / "out" / "trace.jsonl")]
        return args + (["--intents-model", str(self.model)] if self.model else [])

    def _fresh(self, name: str) -> Path:
        work = self.folder / name
        shutil.rmtree(work, ignore_errors=True)
        (work / "out").mkdir(parents=True)
        (work / "input.docx").write_bytes(self.original)
        return work

    def _uninterrupted(self) -> tuple[dict[str, str], float]:
        work = self._fresh("reference")
        start = time.monotonic()
        code = cli(self._command(work)).wait()
        if code != 0:
            raise SystemExit(f"the uninterrupted autodw run failed (exit status {code})")
        return parts(work / "out" / "out.docx"), time.monotonic() - start

    def trial(self, r: random.Random) -> dict[str, Any]:
        work = self._fresh("trial")
        delay = draw_delay(r, self.full)
        start = time.monotonic()
        killed = kill_after(cli(self._command(work)), delay)
        if not killed:
            self.full = time.monotonic() - start
        problems = []
        if (work / "input.docx").read_bytes() != self.original:
            problems.append("the input changed")
        out = work / "out" / "out.docx"
        if out.exists():
            try:
                if parts(out) != self.reference:
                    problems.append("the output differs from an uninterrupted run's")
            except zipfile.BadZipFile:
                problems.append("a half-written output at the output path")
        names = {p.name for p in (work / "out").iterdir()}
        temporary = sorted(n for n in names if n.endswith(".tmp"))
        unexpected = sorted(names - {"out.docx", "out.partial.docx", "trace.jsonl"} - set(temporary))
        if unexpected:
            problems.append(f"unexpected files beside the output: {unexpected}")
        return {"delay": round(delay, 2), "killed": killed, "output": out.exists(), "temporary_left": temporary,
                "problems": problems}


# --- autodw bench run -----------------------------------------------------------------------------------


def records(folder: Path) -> dict[str, Any]:
    """Every JSON file of a run folder, time and process fields left out, and a fingerprint of every .docx."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in VARYING}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    out: dict[str, Any] = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.suffix == ".json":
            out[rel] = strip(json.loads(path.read_text(encoding="utf-8")))
        elif path.suffix == ".docx":
            out[rel] = parts(path)
    return out


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    only = sorted(a.keys() ^ b.keys())
    differ = sorted(k for k in a.keys() & b.keys() if a[k] != b[k])
    return [f"only in one run: {k}" for k in only[:5]] + [f"differs: {k}" for k in differ[:5]]


class BenchTrials:
    """kill -9 of ``autodw bench run``, then the same command again."""

    def __init__(self, folder: Path, instructions: str | None = None):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.instructions = instructions  # only these instructions, in instruction mode only (the suite's short trial)
        self.references: dict[str, tuple[dict[str, Any], float]] = {}
        self.full: dict[str, float] = {}  # config -> seconds of its last run that went to its end

    def command(self, config: str, out: Path) -> list[str]:
        scope = (["--instructions", self.instructions] if self.instructions else
                 INSTRUCTION_SCOPE if config.endswith("instruction") else SESSION_SCOPE)
        return ["bench", "run", *BENCH_CONFIGS[config], "--split", "dev", *scope, "--no-word-check", "--out", str(out)]

    def reference(self, config: str) -> tuple[dict[str, Any], float]:
        if config not in self.references:
            out = self.folder / f"reference-{config}"
            timing = self.folder / f"reference-{config}.json"  # command, commit, seconds: kept for the next session
            made = json.loads(timing.read_text()) if timing.exists() else {}
            if not (out / "summary.json").exists() or made.get("command") != self.command(config, out) \
                    or made.get("commit") != commit():  # other code may write other records
                shutil.rmtree(out, ignore_errors=True)
                start = time.monotonic()
                code = cli(self.command(config, out)).wait()
                if code != 0:
                    raise SystemExit(f"the uninterrupted bench run {config} failed (exit status {code})")
                made = {"command": self.command(config, out), "commit": commit(), "seconds": time.monotonic() - start}
                timing.write_text(json.dumps(made))
            self.references[config] = records(out), made["seconds"]
            self.full.setdefault(config, self.references[config][1])
        return self.references[config]

    def configs(self) -> list[str]:
        """The configurations tried: with chosen instructions, instruction mode only."""
        return sorted(c for c in BENCH_CONFIGS if not self.instructions or c.endswith("instruction"))

    def trial(self, r: random.Random, config: str | None = None) -> dict[str, Any]:
        config = config or r.choice(self.configs())
        expected, _ = self.reference(config)
        out = self.folder / "trial"
        shutil.rmtree(out, ignore_errors=True)
        delay = draw_delay(r, self.full[config])
        start = time.monotonic()
        killed = kill_after(cli(self.command(config, out)), delay)
        if not killed:
            self.full[config] = time.monotonic() - start
        code = cli(self.command(config, out)).wait()
        problems = [] if code == 0 else [f"the resumed run ended with exit status {code}"]
        problems += differences(expected, records(out)) if out.exists() else ["the resumed run wrote nothing"]
        return {"config": config, "delay": round(delay, 2), "killed": killed, "problems": problems}


# --- resumable trials -----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("run", "bench"))
    ap.add_argument("--trials", type=int, default=5, help="stop when the results file counts this many trials in "
                                                          "which the process was killed (one that ended first is "
                                                          "counted apart)")
    add_out_argument(ap)
    ap.add_argument("--intents-model", type=Path, default=None, help="run: the intent classifier (default: the saved one)")
    args = ap.parse_args(argv)
    path = args.out / f"kills-{args.what}.json"
    scratch = args.out / "scratch" / "kills"
    results = json.loads(path.read_text()) if path.exists() else {"what": args.what, "trials": 0, "killed": 0,
                                                                  "failed": 0, "temporary_left": 0, "log": []}
    results["command"] = " ".join(["python -m tests.fuzz.kills", *(sys.argv[1:] if argv is None else argv)])
    trials = (RunTrials(scratch / "run", args.intents_model) if args.what == "run" else BenchTrials(scratch / "bench"))
    while results["killed"] < args.trials:
        r = random.Random(f"{args.what}:{results['trials']}")
        start = time.monotonic()
        outcome = trials.trial(r)
        outcome["seconds"] = round(time.monotonic() - start, 1)
        results["seconds"] = round(results.get("seconds", 0.0) + outcome["seconds"], 1)
        results["trials"] += 1
        results["killed"] += outcome["killed"]
        results["failed"] += bool(outcome["problems"])
        results["temporary_left"] += bool(outcome.get("temporary_left"))
        results["log"].append(outcome)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(results, indent=1) + "\n")
        os.replace(tmp, path)
        print(f"trial {results['trials']}: {outcome}", flush=True)
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
