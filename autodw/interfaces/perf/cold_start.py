"""Cold start of the intent classifier: N fresh `autodw intents TEXT --format json` processes, median wall and CPU
time.

Each call is a new Python process (import, tokenizer and ONNX model load, one prediction, the candidate APIs), as a
user or the agent's first step pays it. Reports the median and the spread of wall-clock seconds and of the CPU
seconds the process used (user + system; on a busy machine wall time grows, CPU time much less), the 1-minute load
average before and after, and checks that every call printed the same intents and probabilities.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

TEXTS = ["Make the table header bold", "把文档导出为PDF", "Insert a page break after paragraph 2", "删除第三张图片"]


def run(args: argparse.Namespace) -> int:
    """Time the calls and print the figures; 1 if a call fails."""
    script = Path(sys.executable).parent / "autodw"  # the console script a user runs
    autodw = [str(script)] if script.is_file() else [sys.executable, "-m", "autodw.interfaces.cli"]
    model = ["--model", str(args.model)] if args.model else []
    load_before = os.getloadavg()[0]
    walls, cpus, outputs = [], [], {}
    for i in range(args.n):
        text = TEXTS[i % len(TEXTS)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run([*autodw, "intents", text, "--format", "json", *model], capture_output=True, text=True)
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return 1
        outputs.setdefault(text, set()).add(done.stdout)
    figures = {
        "calls": args.n,
        "wall_seconds": {"median": round(statistics.median(walls), 3), "min": round(min(walls), 3), "max": round(max(walls), 3)},
        "cpu_seconds": {"median": round(statistics.median(cpus), 3), "min": round(min(cpus), 3), "max": round(max(cpus), 3)},
        "same_output_every_call": all(len(v) == 1 for v in outputs.values()),
        "load_average_1m_before_after": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "cpu_count": os.cpu_count(),
        "predictions": {text: json.loads(next(iter(v)))["intents"] for text, v in outputs.items()},
    }
    if args.json:
        json.dump(figures, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0
