"""Time of the deterministic judge per pair of .docx files on disk (open both, extract, canonicalise, compare).

Pairs: every sample document and up to `--limit` corpus files (those that open) against a re-saved copy
(equivalent pairs), plus edited copies of the sample report made with the API library (different pairs, as a
benchmark run produces). Each pair is judged `--repeat` times; the median of a pair's runs is its time. Prints the
median, 90th percentile and maximum over pairs in milliseconds, and the slowest pairs. The benchmark harness
judges ~1,700 instructions.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from autodw.apis import execute
from autodw.core.document import WordDocument
from autodw.dwbench.records import corpus_dir
from autodw.core.errors import AutodwError
from autodw.eval.canonical import prepare
from autodw.eval.judge import judge
from autodw.core.paths import repo_root

EDITS = [  # on examples/report.docx
    ("set_cell_text", {"table": "t1", "row": 2, "col": 1, "text": "99"}),
    ("set_text_format", {"paragraphs": "p2", "span": {"match": "sales"}, "bold": True}),
    ("insert_paragraph", {"text": "Sales rose in all regions.", "position": {"after": "p2"}}),
    ("move_block", {"block": "p6", "position": {"before": "p4"}}),
    ("set_page_setup", {"section": 0, "orientation": "landscape"}),
    ("merge_cells", {"table": "t1", "first_row": 1, "first_col": 0, "last_row": 2, "last_col": 0}),
]


def pairs(tmp: Path, corpus: Path, limit: int) -> list[tuple[str, Path, Path]]:
    """(label, expected, actual) files."""
    out = []
    examples = repo_root() / "examples"
    sources = sorted(examples.glob("*.docx"))
    if corpus.is_dir():
        files = sorted(corpus.glob("*.docx"))
        sources += files[:: max(1, len(files) // limit)][:limit] if limit else []
    for n, path in enumerate(sources):
        try:
            again = tmp / f"{n}-{path.name}"
            WordDocument.open(path).save(again)
        except AutodwError:
            continue
        out.append((f"resaved {path.name}", path, again))
    report = examples / "report.docx"
    for n, (api, args) in enumerate(EDITS):
        doc = WordDocument.open(report)
        execute(doc, api, args)
        out.append((f"report + {api}", report, doc.save(tmp / f"edit{n}.docx")))
    return out


def run(args: argparse.Namespace) -> int:
    """Judge every pair `--repeat` times, from the files and from extracted states, and print the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        todo = pairs(Path(tmp), Path(args.corpus) if args.corpus else corpus_dir(), args.limit)
        times: list[tuple[float, str, bool]] = []
        compare_ms: list[float] = []
        for label, expected, actual in todo:
            runs = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                verdict = judge(expected, actual)
                runs.append(time.perf_counter() - start)
            times.append((statistics.median(runs) * 1000, label, verdict.equivalent))
            exp, act = prepare(expected), prepare(actual)  # the comparison alone, on states already extracted
            runs = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                judge(exp.state, act.state)
                runs.append(time.perf_counter() - start)
            compare_ms.append(statistics.median(runs) * 1000)
    ms = sorted(t for t, _, _ in times)
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    print(f"{len(times)} pairs ({sum(1 for t in times if t[2])} equivalent), {args.repeat} runs each")
    print(f"judge time per pair (open both files, extract, compare): median {statistics.median(ms):.1f} ms, "
          f"p90 {p90:.1f} ms, max {ms[-1]:.1f} ms")
    edits = [t for t, label, _ in times if label.startswith("report + ")]
    print(f"edited sample report (different pairs): median {statistics.median(edits):.1f} ms")
    print(f"comparison alone (states given): median {statistics.median(compare_ms):.1f} ms, max {max(compare_ms):.1f} ms")
    print(f"1,700 pairs at the median: {statistics.median(ms) * 1700 / 1000:.1f} s")
    print("slowest:", "; ".join(f"{label} {t:.0f} ms" for t, label, _ in sorted(times, reverse=True)[:5]))
    return 0
