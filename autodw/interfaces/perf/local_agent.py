"""The whole agent with the embedded local model on the evaluation instruction set (autodw/eval/instruction_set.py).

For each configuration (constrained decoding, prompt caching, prompts kept on disk, the planner's view of the
state, ending an instruction after the step with nothing remaining, each aid of the local profile switched off),
runs every task's instruction on a fresh copy of its document and checks the outcome by code. Reports per task and
in total: success, wall time per instruction, LLM calls, prompt/completion tokens, cached prompt tokens, API calls,
and the peak resident memory of this process (model loaded).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
from pathlib import Path
from typing import Any, Callable

from autodw.agent.assembly import profile_assembly
from autodw.agent.events import ConsoleReporter
from autodw.agent.loop import Agent
from autodw.agent.records import RunResult
from autodw.core.document import WordDocument
from autodw.core.errors import AutodwError, ConfigError
from autodw.eval.instruction_set import TASKS, Task
from autodw.llm.replay import RecordingBackend
from autodw.core.paths import repo_root
from autodw.analysis.state import extract_state

CONFIGS: dict[str, tuple[dict, dict]] = {
    # name -> (LocalBackend options, agent settings that differ from the "local" profile: numbers, parts, or the
    # switches that name parts, see autodw.agent.assembly.SWITCHES)
    "default": ({"grammar": True, "prompt_cache": "role"}, {}),
    "nocache": ({"grammar": True, "prompt_cache": "off"}, {}),
    "nogrammar": ({"grammar": False, "prompt_cache": "role"}, {}),
    "grammarfirst": ({"grammar": True, "prompt_cache": "role", "grammar_last": False}, {}),  # llama-cpp-python's order
    "nodisk": ({"grammar": True, "prompt_cache": "role", "persist_prefixes": False}, {}),  # system prompts not on disk
    "plannernow": ({"grammar": True, "prompt_cache": "role"}, {"planner_state": "current"}),  # planner re-reads the state
    "nolast": ({"grammar": True, "prompt_cache": "role"}, {"stop_when_nothing_remains": False}),  # the planner alone says done
    "nogrounding": ({"grammar": True, "prompt_cache": "role"}, {"grounding": False}),  # quoted texts not looked up
    "norules": ({"grammar": True, "prompt_cache": "role"}, {"rule_checks": False}),  # the LLM validator alone
    "nosplit": ({"grammar": True, "prompt_cache": "role"}, {"split_requests": False}),  # one planner loop per instruction
    "norepair": ({"grammar": True, "prompt_cache": "role"}, {"repair_calls": False}),  # a repeated rejected call runs as it is
    "norepeat": ({"grammar": True, "prompt_cache": "role"},  # a step repeating an accepted one is run again
                 {"end_on_repeated_call": False, "refuse_repeated_steps": False}),
    "paperrule": ({"grammar": True, "prompt_cache": "role"}, {"verdict_rule": "paper"}),  # a fail below 0.6 accepted
    "decisionrule": ({"grammar": True, "prompt_cache": "role"}, {"verdict_rule": "decision"}),  # every fail rejects
}


def run_task(agent: Agent, task: Task) -> dict[str, Any]:
    """One task on a fresh copy of its document: outcome, time and cost."""
    doc = WordDocument.open(repo_root() / task.document)
    before = extract_state(doc)
    result = RunResult()
    start = time.perf_counter()
    error = None
    try:
        agent.run(doc, [task.instruction], result)
    except AutodwError as exc:
        error = f"{type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - start
    ok = False
    if error is None:
        try:
            ok = bool(task.check(before, extract_state(doc)))
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            error = f"check raised {type(exc).__name__}: {exc}"
    usage = result.total_usage
    record = result.instructions[0] if result.instructions else None
    return {"task": task.id, "lang": task.lang, "ok": ok, "status": record.status if record else "error", "error": error,
            "seconds": round(seconds, 1), "llm_calls": usage.calls, "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens, "cached_prompt_tokens": usage.cached_prompt_tokens,
            "api_calls": record.api_calls if record else 0,
            "calls": [f"{a}" for a, _ in (record.accepted_calls() if record else [])]}


def summarise(rows: list[dict[str, Any]], tasks: list[Task]) -> dict[str, Any]:
    """Totals of one configuration's rows."""
    return {
        "passed": sum(r["ok"] for r in rows), "tasks": len(rows),
        "median_seconds": statistics.median(r["seconds"] for r in rows),
        "mean_llm_calls": round(statistics.mean(r["llm_calls"] for r in rows), 1),
        "mean_prompt_tokens": round(statistics.mean(r["prompt_tokens"] for r in rows)),
        "mean_completion_tokens": round(statistics.mean(r["completion_tokens"] for r in rows)),
        "mean_cached_prompt_tokens": round(statistics.mean(r["cached_prompt_tokens"] for r in rows)),
        "simple_median_seconds": statistics.median(r["seconds"] for r, t in zip(rows, tasks) if t.calls <= 1) if rows else None,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def measure(configs: list[str], tasks: list[Task], classifier, open_backend: Callable[[dict], Any],
            record: Path | None = None, verbose: bool = False) -> dict[str, dict[str, Any]]:
    """Every task under each configuration, with the backend `open_backend(options)` gives for it (loaded once per
    configuration, closed after it); per configuration its summary and rows."""
    results = {}
    for name in configs:
        options, settings = CONFIGS[name]
        backend = open_backend(options)
        print(f"\n== {name}: {backend.name}, {options}, agent {settings or 'default'}, "
              f"loaded in {backend.load_seconds:.1f} s", flush=True)
        rows = []
        for task in tasks:
            llm = backend
            if record:
                llm = RecordingBackend(backend, record / f"{name}-{task.id}.jsonl")
            agent = Agent(llm, classifier, assembly=profile_assembly("local", **settings), sinks=[ConsoleReporter()] if verbose else [])
            row = run_task(agent, task)
            if llm is not backend:
                llm.close()  # the cassette; the backend is shared by every task of this configuration
            rows.append(row)
            print(f"{task.id:22} {'PASS' if row['ok'] else 'fail'} {row['seconds']:6.1f}s llm={row['llm_calls']:2} "
                  f"prompt={row['prompt_tokens']:6} cached={row['cached_prompt_tokens']:6} out={row['completion_tokens']:5} "
                  f"apis={row['calls']} {row['error'] or ''}", flush=True)
        summary = summarise(rows, tasks)
        print(f"{name}: {summary['passed']}/{len(rows)} passed; median {summary['median_seconds']} s per instruction; "
              f"{summary['mean_llm_calls']} LLM calls, {summary['mean_prompt_tokens']} prompt + "
              f"{summary['mean_completion_tokens']} completion tokens per instruction "
              f"({summary['mean_cached_prompt_tokens']} prompt tokens from cache); peak RSS {summary['peak_rss_mb']} MB", flush=True)
        results[name] = {"summary": summary, "tasks": rows}
        backend.close()
    return results


def run(args: argparse.Namespace) -> int:
    """The measurement with the embedded model and the saved intent classifier (trained first if missing)."""
    from autodw.intents.classifier import load_or_train
    from autodw.llm.local import LocalBackend

    names = args.configs.split(",")
    unknown = [n for n in names if n not in CONFIGS]
    if unknown:
        raise ConfigError(f"unknown configuration {', '.join(unknown)}: one of {', '.join(CONFIGS)}")
    classifier = load_or_train(progress=True)
    tasks = [t for t in TASKS if args.tasks is None or t.id in args.tasks.split(",")]
    results = measure(names, tasks, classifier, lambda options: LocalBackend(args.model, **options),
                      Path(args.record) if args.record else None, args.verbose)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, ensure_ascii=False))
    return 0
