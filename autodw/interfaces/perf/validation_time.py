"""Time of the Word check (autodw.analysis.validation.validate_all) per document, with 2 lanes as the tests use.

Documents: every sample document and up to `--limit` corpus .docx files (every k-th in name order). The whole set
is validated `--repeat` times; prints the median wall time of a pass and per document, and the number of findings
(the same on every pass, or the measurement fails).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from autodw.dwbench.records import corpus_dir
from autodw.core.paths import repo_root
from autodw.analysis.validation import validate_all


def documents(corpus: Path, limit: int) -> list[Path]:
    """The sample documents and every k-th corpus .docx, at most `limit` of them."""
    found = sorted(corpus.rglob("*.docx")) if corpus.is_dir() else []
    step = max(1, len(found) // limit) if limit else 1
    return sorted((repo_root() / "examples").glob("*.docx")) + found[::step][:limit]


def run(args: argparse.Namespace) -> int:
    """Validate the set `--repeat` times; 1 if the passes disagree."""
    paths = documents(Path(args.corpus) if args.corpus else corpus_dir(), args.limit)
    times, counts = [], set()
    for _ in range(args.repeat):
        start = time.perf_counter()
        findings = validate_all(paths, workers=args.workers)
        times.append(time.perf_counter() - start)
        counts.add(sum(len(f) for f in findings))
    if len(counts) != 1:
        print(f"error: the passes found different numbers of findings: {sorted(counts)}", file=sys.stderr)
        return 1
    median = statistics.median(times)
    print(f"{len(paths)} documents, {args.workers} lanes, {args.repeat} passes: median {median:.1f} s a pass, "
          f"{median / len(paths):.2f} s a document; {counts.pop()} findings")
    return 0
