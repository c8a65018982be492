"""Measurements someone reruns after a change: ``autodw bench perf NAME`` (speed, and the quality of a part).

Each subcommand is a module of this package with a ``run(args) -> int``, imported only when it runs; the results
pages and docs/measurements-history.md give the figures measured with them. One-off studies are not here: their
conclusions are in docs/measurements-history.md ("One-off studies") with the commit that still has their script.
"""

from __future__ import annotations

import argparse
from typing import Callable

Handler = Callable[[argparse.Namespace], int]


def register(bench_sub: argparse._SubParsersAction, lazy: Callable[[str], Handler]) -> None:
    """Add ``perf`` and its subcommands to the ``bench`` subcommands."""
    perf = bench_sub.add_parser("perf", help="measurements to rerun after a change: speed of the core, render, Word "
                                "check, judge, intent classifier, local agent; the API library on the corpus")
    sub = perf.add_subparsers(dest="perf_command", required=True, metavar="MEASUREMENT")

    p = sub.add_parser("core", help="per-step overhead of the document core: open, snapshot, state, change, restore, "
                       "save, on a generated 30-page document and the corpus's 872-page handbook (targets: a step "
                       "under 50 ms on 30 pages, the handbook's state under 2 s)")
    p.add_argument("--repeat", type=int, default=7, help="passes; the median is reported (default 7)")
    p.add_argument("--handbook", default=None, metavar="DOCX", help="default: the corpus's unstructured__handbook-872p.docx")
    p.add_argument("--no-page-count", action="store_true", help="do not lay the 30 pages out with LibreOffice")
    p.set_defaults(handler=lazy("autodw.interfaces.perf.step_overhead:run"))

    p = sub.add_parser("render", help="time to draw a document's pages (LibreOffice, then pdftoppm), cold and warm")
    p.add_argument("--repeat", type=int, default=5, help="renders of each kind; the median is reported (default 5)")
    p.add_argument("--file", default=None, metavar="DOCX", help="default: examples/report.docx")
    p.add_argument("--dpi", type=int, default=None, help="default: autodw render's")
    p.set_defaults(handler=lazy("autodw.interfaces.perf.render_time:run"))

    p = sub.add_parser("validation", help="time of the Word check (autodw.analysis.validation) per document, 2 lanes as the "
                       "tests use")
    p.add_argument("--corpus", default=None, metavar="DIR", help="default: the shared corpus's docx folder")
    p.add_argument("--limit", type=int, default=24, help="corpus files (every k-th in name order) beside the samples")
    p.add_argument("--repeat", type=int, default=3, help="passes; the median is reported (default 3)")
    p.add_argument("--workers", type=int, default=2, help="validation lanes (default 2)")
    p.set_defaults(handler=lazy("autodw.interfaces.perf.validation_time:run"))

    p = sub.add_parser("word-check", help="cost of the benchmark runner's Word check per output: the oracle on a split "
                       "with and without it")
    p.add_argument("--split", default="mini", help="the DWBench split the oracle runs on (default mini)")
    p.add_argument("--mode", choices=("instruction", "session"), default="instruction",
                   help="the run's mode (default instruction)")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="only the first N sessions of the split")
    p.add_argument("--repeat", type=int, default=3, help="passes; the median is reported (default 3)")
    p.set_defaults(handler=lazy("autodw.interfaces.perf.word_check_cost:run"))

    p = sub.add_parser("judge", help="time of the deterministic judge per pair of .docx files (open, extract, compare)")
    p.add_argument("--corpus", default=None, metavar="DIR", help="default: the shared corpus's docx folder")
    p.add_argument("--limit", type=int, default=60, help="corpus files (spread over the sorted list)")
    p.add_argument("--repeat", type=int, default=3, help="passes; the median is reported (default 3)")
    p.set_defaults(handler=lazy("autodw.interfaces.perf.judge_time:run"))

    p = sub.add_parser("intents", help="a trained intent classifier: accuracy (en, zh), top-3 recall, batch-1 "
                       "latency, size (the frozen test split is scored once, with the final model)")
    p.add_argument("--model", default=None, metavar="DIR", help="model folder (default: the agent's model directory)")
    p.add_argument("--split", default="test", choices=("train", "validation", "test", "test_b"),
                   help="test_b: the second, hand-written held-out set; validation while tuning")
    p.add_argument("--latency-n", type=int, default=300, help="sentences timed one by one (batch 1)")
    p.add_argument("--threads", type=int, default=None, help="ONNX Runtime threads (default: its choice)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON only")
    p.set_defaults(handler=lazy("autodw.interfaces.perf.intent_scores:run"))

    p = sub.add_parser("cold-start", help="N fresh `autodw intents TEXT --format json` processes: median wall and CPU "
                       "time, the same answer every time")
    p.add_argument("--model", default=None, metavar="DIR", help="model folder (default: the agent's model directory)")
    p.add_argument("-n", type=int, default=10, help="calls (the sentences rotate)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON only")
    p.set_defaults(handler=lazy("autodw.interfaces.perf.cold_start:run"))

    p = sub.add_parser("local-agent", help="the agent with the embedded model on the 27-task instruction set, per "
                       "configuration: tasks passed, time, LLM calls, tokens, peak memory")
    p.add_argument("--model", default=None, help="local model name or .gguf path (default: the package default)")
    p.add_argument("--configs", default="default,nocache,nogrammar", help="comma-separated, of: "
                   "default, nocache, nogrammar, grammarfirst, nodisk, plannernow, nolast, nogrounding, norules, "
                   "nosplit, norepair, norepeat, paperrule, decisionrule")
    p.add_argument("--tasks", default=None, help="comma-separated task ids (default: all)")
    p.add_argument("--json", default=None, metavar="FILE", help="write every row and summary here")
    p.add_argument("--record", default=None, metavar="DIR", help="folder for one LLM cassette per config and task")
    p.add_argument("--verbose", action="store_true", help="print the agent's progress (sub-instructions, calls, verdicts)")
    p.set_defaults(handler=lazy("autodw.interfaces.perf.local_agent:run"))

    p = sub.add_parser("apis", help="every API's first example adapted to real corpus files: calls that succeed "
                       "(and re-open), typed refusals by kind")
    p.add_argument("--files", type=int, default=20, help="applicable files per API")
    p.add_argument("--corpus", default=None, metavar="DIR", help="default: the shared corpus's docx folder")
    p.add_argument("--json", default=None, metavar="FILE", help="write the report here")
    p.set_defaults(handler=lazy("autodw.interfaces.perf.api_coverage:run"))
