"""``autodw bench ceiling``: the ``ceiling`` system on a split into a run folder (resumable, graded as ``bench run``
grades), then the table of causes written to the folder (``causes.md``, ``causes.json``) and printed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from autodw.agent.assembly import PROFILES
from autodw.core.errors import ConfigError
from autodw.dwbench.records import SPLITS, TRACKS
from autodw.eval.system_registry import positive_int


def ceiling_command(args: argparse.Namespace) -> int:
    """Run the ceiling of --profile on --split into --out (what is there is continued), then print the causes."""
    from autodw.eval.ceiling.causes import table_text, write_causes
    from autodw.eval.run_commands import _keys, _log_command, _print_summary, system_factory
    from autodw.eval.runner import Runner, RunSpec

    args.system, args.llm, args.threshold = "ceiling", None, None
    make, llm_name, options = system_factory(args)
    instructions = _keys(args.instructions)
    if args.held_out:
        instructions = held_out_keys(args.split, args.track, instructions)
    spec = RunSpec("ceiling", llm_name, args.split, ["instruction"], options, args.limit, _keys(args.sessions),
                   instructions=instructions, track=args.track)
    out = Path(args.out)
    runner = Runner(spec, out, make, workers=args.workers, word_check=args.word_check)
    _log_command(out, args.argv)
    try:
        summary = runner.run()
    except KeyboardInterrupt:
        print(f"\ninterrupted: what finished is kept in {out}; run the same command again to continue", file=sys.stderr)
        return 130
    _print_summary(summary, "text")
    print()
    print(table_text(write_causes(out)), end="")
    return 0


def held_out_keys(split: str, track: str, chosen: list[str] | None) -> list[str]:
    """The keys of the held-out instructions of `split` (of those `chosen`, if given); ConfigError for a split that
    holds none (dev is what is tuned on)."""
    from autodw.dwbench.records import load_instructions

    keys = [i.key for i in load_instructions(split, track) if i.held_out and (chosen is None or i.key in chosen)]
    if not keys:
        raise ConfigError(f"--held-out: the {track} {split} split holds no held-out instruction"
                          f"{' among those chosen' if chosen else ''} (test and mini hold them)")
    return keys


def register_ceiling(bench_sub: argparse._SubParsersAction, lazy) -> None:
    """Add ``ceiling`` to the ``bench`` subcommands."""
    p = bench_sub.add_parser("ceiling", help="the ceiling our prompts put on any model: the agent of a profile with a "
                                             "perfect model that sees only its prompts, each failure attributed")
    p.add_argument("--profile", choices=tuple(PROFILES), required=True, help="the agent profile measured")
    p.add_argument("--track", choices=TRACKS, default="templated", help="DWBench track")
    p.add_argument("--split", choices=SPLITS, required=True,
                   help="the DWBench split (dev: tuned on; test with --held-out: the one look)")
    p.add_argument("--out", required=True, metavar="DIR", help="run folder (an unfinished run there is continued)")
    p.add_argument("--limit", type=positive_int, default=None, metavar="N", help="only the first N sessions")
    p.add_argument("--sessions", default=None, metavar="ID,ID", help="only these sessions of the split")
    p.add_argument("--instructions", default=None, metavar="SID#T,SID#T", help="only these instructions")
    p.add_argument("--held-out", action="store_true",
                   help="only the held-out instructions of the split (test's part no dev template or phrasing has)")
    p.add_argument("--workers", type=positive_int, default=1, help="instructions run at once (processes)")
    p.add_argument("--word-check", action="store_true", help="also check the outputs with openxml-audit")
    p.add_argument("--intents-model", default=None, metavar="DIR", help="trained intent classifier (default: the saved one)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="change an agent setting of the profile (repeatable), e.g. --set planner_state_budget=8000")
    p.add_argument("--prompts", choices=("all",), default=argparse.SUPPRESS,  # absent unless given, as bench run's
                   help="all: the traces keep each prompt's text (about 30,000 tokens an instruction), to read what a "
                        "role was shown where a cause is named; by default only each answer and its usage")
    p.set_defaults(handler=lazy("autodw.eval.ceiling.commands:ceiling_command"))
