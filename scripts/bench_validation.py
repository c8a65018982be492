"""Time of the Word check (autodw.validation.validate_all) per document, with 2 lanes as the tests use.

    python scripts/bench_validation.py [--corpus DIR] [--limit 24] [--repeat 3] [--workers 2]

Documents: every sample document and up to N corpus .docx files (every k-th in name order). The whole
set is validated `--repeat` times; prints the median wall time of a pass and per document, and the
number of findings (the same on every pass, or the script fails).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autodw.validation import validate_all  # noqa: E402


def documents(corpus: Path, limit: int) -> list[Path]:
    """The sample documents and every k-th corpus .docx, at most `limit` of them."""
    found = sorted(corpus.rglob("*.docx")) if corpus.is_dir() else []
    step = max(1, len(found) // limit) if limit else 1
    return sorted((ROOT / "examples").glob("*.docx")) + found[::step][:limit]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get("AUTODW_CORPUS") or ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--limit", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    paths = documents(args.corpus, args.limit)
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


if __name__ == "__main__":
    sys.exit(main())
