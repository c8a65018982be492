"""Time the document work one agent step does, on a few documents: median of N runs each of opening the document,
extract_state, render_state (the prompts' view) and analyze_change (between two extractions of the document: every paragraph and table compared, as
an edit leaves most of them), in milliseconds of CPU.

Usage: python scripts/time_state_extraction.py [--runs N] [DOCX ...]
(default: documents DWBench dev sessions start from: two generated ones, and four from the corpus when
AUTODW_CORPUS is set)
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from autodw.analysis.changes import analyze_change
from autodw.analysis.state.extract import extract_state
from autodw.analysis.state.render import render_state
from autodw.core.document import WordDocument

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = [ROOT / "dwbench" / "data" / "docs" / f"{n}.docx" for n in ("report-en-1", "letter-zh-1")]
CORPUS = ("docx4j__headers_footers.docx", "oxsdk__Business_Plan_for_a_Startup_Business_July.docx", "oxsdk__2007.docx",
          "pydocx__missing_content.docx")


def cpu_ms(fn, runs: int) -> float:
    """The median CPU time of `runs` calls of `fn`, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("docs", nargs="*", type=Path)
    args = parser.parse_args()
    docs = args.docs or DEFAULT + ([Path(os.environ["AUTODW_CORPUS"]) / "docx" / n for n in CORPUS]
                                   if os.environ.get("AUTODW_CORPUS") else [])
    totals = [0.0, 0.0, 0.0, 0.0]
    print(f"{'document':60} {'paras':>6} {'open':>7} {'state':>7} {'render':>7} {'change':>7}  (ms of CPU, median of {args.runs})")
    for path in docs:
        data = path.read_bytes()
        doc = WordDocument.from_bytes(data, path.name)
        state, again = extract_state(doc), extract_state(doc)
        row = [cpu_ms(lambda: WordDocument.from_bytes(data, path.name), args.runs),
               cpu_ms(lambda: extract_state(doc), args.runs),
               cpu_ms(lambda: render_state(state), args.runs),
               cpu_ms(lambda: analyze_change(state, again), args.runs)]
        totals = [t + r for t, r in zip(totals, row)]
        print(f"{path.name[:60]:60} {len(state['paragraphs']):6} " + " ".join(f"{r:7.1f}" for r in row))
    print(f"{'total':60} {'':6} " + " ".join(f"{t:7.1f}" for t in totals))


if __name__ == "__main__":
    main()
