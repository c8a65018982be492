"""Run the evaluation tasks with the embedded local model on two versions of the code and compare them.

    python scripts/ab_local_agent.py --checkout PATH --out DIR [--tasks ID,...] [--intents-from DIR]
    python scripts/ab_local_agent.py --compare NEW_DIR OLD_DIR

Runs each task's instruction with the local model and the local agent profile, in the checkout PATH (its own
code is imported: run it once for the new checkout and once for an old one, e.g. a `git worktree` of an
earlier commit), and writes DIR/TASK.json (status, steps, pass/fail by the task's check, the output's sha256,
LLM calls) and the cassette DIR/TASK.jsonl. Both runs open the documents of the checkout this script is in,
so they edit the same files. With the real intent classifier, every prediction is logged to
DIR/intents.json; `--intents-from DIR` answers from such a log instead (a sub-instruction not in it is an
error: the runs diverged), so an old checkout can be compared with the same intent predictions even when its
classifier cannot load today's model. `--compare` prints, per task, both outcomes and whether every LLM exchange
(role, request, answer text; token usage and timing aside) is identical: identical prompts and decisions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

DOCUMENTS = Path(__file__).resolve().parent.parent
TASKS8 = "title-bold-blue,delete-west-row,chart-title,header-text,margins-2cm,properties,zh-title-red,zh-add-row"


def _exchanges(cassette: Path) -> list[tuple[str, str, str, str]]:
    rows = [json.loads(line) for line in cassette.read_text(encoding="utf-8").splitlines()]
    return [(r["role"], r["key"], json.dumps(r["request"], sort_keys=True), r["response"]["text"])
            for r in rows if "cassette" not in r]  # the header line names the recording's profile


def compare(new: Path, old: Path) -> int:
    """Print each task's outcome in both runs and whether their LLM exchanges are identical; 1 if any differ."""
    differ = 0
    for row_file in sorted(new.glob("*.json")):
        if row_file.name == "intents.json" or not (old / row_file.name).exists():
            continue
        a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (row_file, old / row_file.name))
        same = all(a[k] == b[k] for k in ("status", "passed", "sha256", "steps", "llm_calls"))
        exchanges = _exchanges(new / f"{row_file.stem}.jsonl")
        identical = exchanges == _exchanges(old / f"{row_file.stem}.jsonl")
        differ += not (same and identical)
        print(f"{row_file.stem:16} new {'pass' if a['passed'] else 'fail'}, old {'pass' if b['passed'] else 'fail'}; "
              f"{'same outcome and document' if same else 'DIFFERENT OUTCOME'}; {len(exchanges)} LLM exchanges "
              f"{'identical' if identical else 'DIFFER'}; {a['seconds']} s / {b['seconds']} s")
    return 1 if differ else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compare", type=Path, nargs=2, metavar=("NEW_DIR", "OLD_DIR"))
    ap.add_argument("--checkout", type=Path)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--tasks", default=TASKS8)
    ap.add_argument("--intents-from", type=Path, default=None)
    args = ap.parse_args()
    if args.compare:
        return compare(*args.compare)
    if not (args.checkout and args.out):
        ap.error("--checkout and --out are required (or --compare NEW_DIR OLD_DIR)")
    sys.path.insert(0, str(args.checkout.resolve()))
    from autodw.document import WordDocument
    from autodw.llm.local import LocalBackend
    from autodw.llm.replay import RecordingBackend
    from autodw.state import extract_state
    try:  # the agent assembled from parts
        from autodw.agent.assembly import profile_assembly
        from autodw.agent.loop import Agent
        from autodw.eval.instruction_set import TASKS
        from autodw.intents.classifier import load_or_train
        options = {"assembly": profile_assembly("local")}
    except ImportError:
        try:  # the agent's settings as flags
            from autodw.agent.config import profile_config
            from autodw.agent.loop import Agent
            from autodw.eval.instruction_set import TASKS
            from autodw.intents.classifier import load_or_train
            options = {"config": profile_config("local")}
        except ImportError:  # before the one-package layout (top-level eval/ and intents/ packages)
            import importlib

            from autodw.agent.build import LOCAL_AGENT_CONFIG
            from autodw.agent.loop import Agent
            options = {"config": LOCAL_AGENT_CONFIG}
            TASKS = importlib.import_module("eval.instruction_set").TASKS
            load_or_train = importlib.import_module("intents.classifier").load_or_train

    args.out.mkdir(parents=True, exist_ok=True)
    if args.intents_from:
        logged = json.loads((args.intents_from / "intents.json").read_text(encoding="utf-8"))

        class Logged:
            def predict(self, text: str, k: int = 3):
                if text not in logged:
                    raise SystemExit(f"diverged: sub-instruction not in the new run's log: {text!r}")
                return [tuple(p) for p in logged[text]][:k]

        classifier = Logged()
    else:
        real, log = load_or_train(progress=True), {}

        class Logging:
            def predict(self, text: str, k: int = 3):
                log[text] = [[i, float(p)] for i, p in real.predict(text, k)]
                return real.predict(text, k)

        classifier = Logging()
    backend = LocalBackend()
    for task in [t for t in TASKS if t.id in args.tasks.split(",")]:
        doc = WordDocument.open(DOCUMENTS / task.document)
        before = extract_state(doc)
        llm = RecordingBackend(backend, args.out / f"{task.id}.jsonl")
        start = time.perf_counter()
        result = Agent(llm, classifier, **options).run(doc, [task.instruction])
        seconds = time.perf_counter() - start
        llm.close()
        row = {"task": task.id, "status": [i.status for i in result.instructions],
               "passed": bool(task.check(before, extract_state(doc))), "llm_calls": result.total_usage.calls,
               "seconds": round(seconds, 1), "sha256": hashlib.sha256(doc.to_bytes()).hexdigest(),
               "steps": [[s.accepted.api if s.accepted else None for s in i.steps] for i in result.instructions]}
        (args.out / f"{task.id}.json").write_text(json.dumps(row, indent=1), encoding="utf-8")
        print(json.dumps(row), flush=True)
        if not args.intents_from:
            (args.out / "intents.json").write_text(json.dumps(log, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
