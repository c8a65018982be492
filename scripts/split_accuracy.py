"""How often the request splitter (autodw.agent.requests.split) gives a DWBench turn's number of requests (its
``requests`` field), per track: right, over-split (more parts) and under-split (fewer), no model run.

    python scripts/split_accuracy.py                      # dev of both tracks: counts
    python scripts/split_accuracy.py --track hand --show  # and each mis-split turn with its parts

Only dev and dev-mini are read: the splitter is tuned on them (autodw/core/provenance.json). A test or mini split is
refused unless --held-out-ok says the caller knows it is held out (then counts only, never a turn shown).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from autodw.agent.requests import split
from autodw.core.provenance import label
from autodw.dwbench.records import DATA_VERSION, TRACKS, iter_records

HELD_OUT = ("test", "mini")


def measure(split_name: str, track: str) -> tuple[Counter, list[tuple[dict, list[str]]]]:
    """Counts (right, over, under, turns) of a split of a track, and each mis-split record with its parts."""
    counts, wrong = Counter(), []
    for rec in iter_records(split_name, track):
        parts = split(rec["instruction"])
        verdict = "right" if len(parts) == rec["requests"] else "over" if len(parts) > rec["requests"] else "under"
        counts[verdict] += 1
        counts["turns"] += 1
        if verdict != "right":
            wrong.append((rec, parts))
    return counts, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="dev", choices=("dev", "dev-mini", *HELD_OUT))
    parser.add_argument("--track", action="append", choices=TRACKS, help="a track (repeatable; default both)")
    parser.add_argument("--show", action="store_true", help="each mis-split turn with its parts (dev splits only)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--held-out-ok", action="store_true",
                        help="allow a test or mini split: the caller knows it is held out (counts only)")
    args = parser.parse_args(argv)
    if args.split in HELD_OUT and not args.held_out_ok:
        parser.error(f"{args.split} is held out: the splitter is tuned on dev only; --held-out-ok counts it anyway")
    show = args.show and args.format == "text" and args.split not in HELD_OUT
    out = []
    for track in args.track or list(TRACKS):
        counts, wrong = measure(args.split, track)
        out.append({"track": track, "split": args.split, "label": label(DATA_VERSION, track, args.split),
                    **{k: counts[k] for k in ("turns", "right", "over", "under")}})
        if args.format == "text":
            print(f"{track} {args.split} [{out[-1]['label']}]: {counts['right']} of {counts['turns']} turns split into "
                  f"their number of requests; over-split {counts['over']}, under-split {counts['under']}")
        for rec, parts in wrong if show else ():
            print(f"  {rec['session_id']}#{rec['turn']} requests {rec['requests']}, parts {len(parts)}: "
                  + json.dumps(parts, ensure_ascii=False))
    if args.format == "json":
        print(json.dumps(out, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
