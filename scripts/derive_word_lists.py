"""Which DWBench gold calls the rule checks reject, by the word list they read (autodw.eval.gold_rejections).

The word lists of the rule checks (autodw/agent/api_words.json, value_words.json) are derived from dev alone: start
from their seed and add words only where a dev gold call is rejected, until this reports none that a word explains::

    python scripts/derive_word_lists.py --split dev                 # templated and hand dev, every rejection shown
    python scripts/derive_word_lists.py --split test --counts-only  # the held-out figure: counts, no calls shown

Each gold call runs as ``autodw bench run --system noisy-oracle --p 0 --validator rules --mode instruction`` would
run it (teacher forcing, hosted profile); the false rejections are that run's ``faults.false_rejections``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from autodw.agent.checks.reading import use_word_lists
from autodw.dwbench.records import DATA_VERSION, SPLITS, BenchmarkDataError
from autodw.core.errors import ConfigError
from autodw.eval.gold_rejections import gold_rejections
from autodw.core.provenance import label


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="dev", choices=SPLITS)
    parser.add_argument("--track", action="append", choices=("templated", "hand"),
                        help="a track (repeatable; default both; a hand track without sessions of the split is skipped)")
    parser.add_argument("--workers", type=int, default=1, help="forked processes (default 1)")
    parser.add_argument("--counts-only", action="store_true", help="counts only, no rejected call shown (for test)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--word-lists", metavar="DIR", help="read api_words.json and value_words.json from DIR instead "
                        "of autodw/agent (candidate lists, tried before they are written)")
    args = parser.parse_args(argv)
    if args.word_lists:  # read in this process and the workers it forks
        try:
            use_word_lists(Path(args.word_lists))
        except ConfigError as exc:
            raise SystemExit(str(exc)) from None
    reports = []
    for track in args.track or ["templated", "hand"]:
        start = time.perf_counter()
        try:
            report = gold_rejections(args.split, track, workers=args.workers)
        except BenchmarkDataError as exc:
            print(f"{track} {args.split}: skipped ({exc})", file=sys.stderr)
            continue
        reports.append((report, time.perf_counter() - start))
    if args.format == "json":
        print(json.dumps([dict(r.to_dict(args.counts_only), seconds=round(s, 1), data_version=DATA_VERSION,
                               label=label(DATA_VERSION, r.track, r.split)) for r, s in reports],
                         ensure_ascii=False, indent=1))
        return 0
    for report, seconds in reports:
        print(f"== {report.track} {report.split} [{label(DATA_VERSION, report.track, report.split)}] ({report.source}): "
              f"{report.sessions} sessions, {report.instructions} "
              f"instructions, {report.gold_calls} gold calls judged ({report.stats.get('gold_steps', 0)} gold steps); "
              f"false rejections {report.false_rejections}  [{seconds:.0f} s]")
        for name, rejected in sorted(report.by_word_list().items()):
            print(f"  {name or '(checks that read no word list)'}: {len(rejected)}")
            if args.counts_only:
                continue
            for r in rejected:
                print(f"    {r.key} step {r.step} {r.api} {json.dumps(r.args, ensure_ascii=False)[:200]}")
                print(f"      {', '.join(r.checks)}: {r.explanation[:300]}")
                print(f"      instruction: {r.instruction[:400]}")
    total = sum(r.false_rejections for r, _ in reports)
    judged = sum(r.gold_calls for r, _ in reports)
    print(f"== all tracks: {total} false rejections in {judged} gold calls judged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
