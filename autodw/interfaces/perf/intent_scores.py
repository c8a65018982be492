"""A trained intent classifier: accuracy on one split (overall, en, zh), top-3 recall, batch-1 latency, size.

The default split is the frozen test split: under the evaluation protocol (autodw/intents/README.md) it is scored
once, with the final model; use ``--split validation`` while tuning.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

from autodw.intents.classifier import IntentClassifier, default_model_dir
from autodw.intents.datagen import load_dataset, load_test_b
from autodw.intents.labels import INTENTS
from autodw.intents.metrics import evaluate_probabilities


def run(args: argparse.Namespace) -> int:
    """Load the model, score one split, time single-sentence predictions and print the figures."""
    folder = Path(args.model) if args.model else default_model_dir()
    load_before = os.getloadavg()
    started = time.perf_counter()
    clf = IntentClassifier.load(folder, threads=args.threads)
    load_seconds = time.perf_counter() - started
    rows = load_test_b() if args.split == "test_b" else [e for e in load_dataset() if e.split == args.split]
    started = time.perf_counter()
    probs = clf.probabilities([e.text for e in rows])
    batch_seconds = time.perf_counter() - started
    report = evaluate_probabilities(probs, [INTENTS.index(e.intent) for e in rows], [e.lang for e in rows], INTENTS)
    sample = random.Random(0).sample(rows, min(args.latency_n, len(rows)))
    for e in sample[:10]:  # warm-up
        clf.predict(e.text)
    times = []
    for e in sample:
        t = time.perf_counter()
        clf.predict(e.text)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    size_mb = sum(f.stat().st_size for f in folder.iterdir() if f.is_file()) / 2**20
    figures = {
        "model": str(folder),
        "weights": "fp32 ONNX",
        "split": args.split,
        **report.summary(),
        "latency_ms_batch1": {
            "median": round(statistics.median(times), 2),
            "p90": round(times[int(0.9 * (len(times) - 1))], 2),
            "mean": round(statistics.fmean(times), 2),
            "n": len(times),
        },
        "throughput_per_s_batch64": round(len(rows) / batch_seconds, 1),
        "load_seconds": round(load_seconds, 2),
        "model_size_mb": round(size_mb, 1),
        "model_files_mb": {f.name: round(f.stat().st_size / 2**20, 1) for f in sorted(folder.iterdir()) if f.is_file()},
        "threads": args.threads or "onnxruntime default",
        "load_average_1m_before_after": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
        "training": {k: clf.meta.training.get(k) for k in ("train_seconds", "precompute_seconds", "n_train", "best_epoch",
                                                           "frozen_layers", "torch_threads")},
    }
    if args.json:
        json.dump(figures, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(report.render())
        print()
        for key in ("latency_ms_batch1", "throughput_per_s_batch64", "load_seconds", "model_size_mb", "model_files_mb",
                    "threads", "load_average_1m_before_after", "training"):
            print(f"{key}: {figures[key]}")
    return 0
