"""``autodw bench explore RUN [RUN_B] -o SITE`` and ``autodw explore TRACE -o SITE`` (registered in autodw/interfaces/cli.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from autodw.interfaces.explore import RENDERS


def bench_explore_command(args: argparse.Namespace) -> int:
    """Write the site of one run folder, or of two compared."""
    from autodw.interfaces.explore.site import build_run_site

    runs = [Path(args.run)] + ([Path(args.run_b)] if args.run_b else [])
    built = build_run_site(runs, Path(args.output), renders=args.renders)
    _report(built)
    return 0


def explore_command(args: argparse.Namespace) -> int:
    """Write the site of one ``autodw run --trace`` file."""
    from autodw.interfaces.explore.site import build_trace_site

    built = build_trace_site(Path(args.trace), Path(args.output), Path(args.before) if args.before else None,
                             Path(args.after) if args.after else None)
    _report(built)
    return 0


def _report(built) -> None:
    gaps = f"; {built.gaps} part(s) shown as missing" if built.gaps else ""
    print(f"wrote {built.site / 'index.html'}: {built.pages} page(s), {built.rendered} with page pictures, "
          f"in {built.seconds:.1f} s{gaps}")


def register(sub: argparse._SubParsersAction, bench_sub: argparse._SubParsersAction, lazy) -> None:
    """Add ``explore`` to the commands and to the ``bench`` subcommands."""
    p = bench_sub.add_parser("explore", help="a static site of a run (or two compared) to open in a browser: "
                                             "overview, filterable instructions, each with its pages and steps")
    p.add_argument("run", metavar="RUN", help="a run folder (autodw bench run --out)")
    p.add_argument("run_b", nargs="?", default=None, metavar="RUN_B", help="a second run folder to compare with it")
    p.add_argument("-o", "--output", required=True, metavar="SITE", help="the site's folder (new, or a site made before)")
    p.add_argument("--renders", choices=RENDERS, default="failed",
                   help="which instructions get page pictures (LibreOffice; cached by document): failed (the "
                        "default), all or none")
    p.set_defaults(handler=lazy("autodw.interfaces.explore.explore_commands:bench_explore_command"))

    p = sub.add_parser("explore", help="a static site of one run's trace (autodw run --trace): the agent's steps, "
                                       "and with --before/--after the pages it changed")
    p.add_argument("trace", metavar="TRACE.jsonl", help="a trace written by autodw run --trace")
    p.add_argument("-o", "--output", required=True, metavar="SITE", help="the site's folder")
    p.add_argument("--before", default=None, metavar="IN.docx", help="the document the run started from")
    p.add_argument("--after", default=None, metavar="OUT.docx", help="the document the run saved")
    p.set_defaults(handler=lazy("autodw.interfaces.explore.explore_commands:explore_command"))
