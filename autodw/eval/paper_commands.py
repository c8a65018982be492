"""``autodw bench paper``: print the plan of the paper's runs (:mod:`autodw.eval.paper`), ask before spending, then run
each unit as ``autodw bench run`` would (resumable; a provider error that persists stops the run, its folder intact)."""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
from pathlib import Path
from typing import Callable, TextIO

from autodw.dwbench.records import SPLITS, TRACKS, Session
from autodw.core.errors import ConfigError, LLMError
from autodw.eval.paper_report import SETTINGS, write_report
from autodw.eval.run_folder import write_json
from autodw.eval.paper import Plan, PaperOptions, Unit, generated, load_figures, plan_paper, plan_text


def paper_command(args: argparse.Namespace) -> int:
    """Print the plan; with --dry-run stop there; else ask (or take --yes) and run every unit, then write the report.
    With --report-only, only the report of the run in --out."""
    if args.report_only:
        prices = (args.price_in, args.price_out) if args.price_in is not None or args.price_out is not None else None
        if prices is not None and None in prices:
            raise ConfigError("give both --price-in and --price-out (per million prompt and completion tokens), or neither")
        print(f"report: {write_report(Path(args.out), prices)}")
        return 0
    if not args.llm:
        raise ConfigError("bench paper needs --llm (openai:MODEL with --base-url, deepseek:MODEL, ...), unless "
                          "--report-only")
    options = PaperOptions(args.llm, args.out, args.split, args.track, args.repeats, args.workers, args.base_url,
                           args.api_key_env, args.rpm, args.tpm, args.concurrency, args.price_in, args.price_out,
                           args.profile, args.limit, args.sessions, args.no_word_check)
    sessions = _sessions(options)
    plan = plan_paper(options, len(sessions), sum(len(s.instructions) for s in sessions), load_figures(),
                      done=lambda folder, mode: generated(Path(options.out) / folder, mode, sessions))
    print(plan_text(plan))
    if args.dry_run:
        print("dry run: nothing was run and no LLM was contacted")
        return 0
    if not confirmed(plan, args.yes):
        print("nothing was run", file=sys.stderr)
        return 1
    return run_plan(plan, args.argv)


def _sessions(o: PaperOptions) -> list[Session]:
    """The sessions a unit runs (the split's, or those of --limit / --sessions)."""
    from autodw.dwbench.records import load_split

    sessions = load_split(o.split, o.track)
    if o.sessions:
        wanted = {i.strip() for i in o.sessions.split(",") if i.strip()}
        unknown = wanted - {s.session_id for s in sessions}
        if unknown:
            raise ConfigError(f"no session {', '.join(sorted(unknown))} in {o.track} {o.split}")
        sessions = [s for s in sessions if s.session_id in wanted]
    if o.limit:
        sessions = sessions[: o.limit]
    return sessions


def confirmed(plan: Plan, yes: bool, stdin: TextIO | None = None, ask: Callable[[str], str] = input) -> bool:
    """Whether to run `plan`: --yes, or a yes typed on the terminal; with no terminal to ask on, ConfigError (a run
    that waits for an answer nobody can give would hang a script or CI)."""
    if yes:
        return True
    stdin = stdin if stdin is not None else sys.stdin
    if not (stdin is not None and stdin.isatty()):
        raise ConfigError(f"bench paper would make about {plan.llm_calls:,.0f} LLM calls to {plan.options.llm} and there "
                          "is no terminal to ask on: add --yes to run it (--dry-run prints the plan only)")
    try:
        answer = ask(f"Run these {len(plan.units)} units? [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def run_plan(plan: Plan, argv: list[str]) -> int:
    """Run every unit in order, as ``autodw bench run`` with its arguments; 130 if interrupted. A provider error that
    persists stops here with what finished kept, saying which unit and how to continue."""
    out = Path(plan.options.out)
    out.mkdir(parents=True, exist_ok=True)
    command = f"autodw {shlex.join(argv)}"
    with open(out / "commands.txt", "a", encoding="utf-8") as fh:
        fh.write(command + "\n")
    write_json(out / SETTINGS, {**dataclasses.asdict(plan.options), "command": command})
    for n, unit in enumerate(plan.units, 1):
        print(f"\nunit {n}/{len(plan.units)}: {unit.system}, {unit.mode} level, repeat {unit.repeat} -> {out / unit.folder}",
              file=sys.stderr, flush=True)
        try:
            status = run_unit(unit)
        except LLMError as exc:
            raise type(exc)(f"bench paper stopped at unit {n}/{len(plan.units)} ({unit.folder}, {unit.mode}): {exc}. "
                            f"{out} keeps what finished, and its LLM caches every answer received: the same "
                            "`autodw bench paper` command continues where it stopped") from exc
        if status:
            print(f"stopped at unit {n}/{len(plan.units)}: the same `autodw bench paper` command continues where it "
                  "stopped", file=sys.stderr)
            return status
    print(f"\nall {len(plan.units)} units finished in {out}")
    print(f"report: {write_report(out)} (the paper's tables beside the paper's own figures, and plots)")
    return 0


def run_unit(unit: Unit) -> int:
    """One unit through ``autodw bench run``'s own handler (its exit status)."""
    from autodw.eval.run_commands import register, run_command

    parser = argparse.ArgumentParser(prog="autodw bench")
    register(parser.add_subparsers(dest="bench_command"), lambda target: target)
    args = parser.parse_args(["run", *unit.argv])
    args.argv = ["bench", "run", *unit.argv]
    return run_command(args)


def register_paper(bench_sub: argparse._SubParsersAction, lazy) -> None:
    """Add ``paper`` to the ``bench`` subcommands."""
    from autodw.eval.run_commands import positive_int

    p = bench_sub.add_parser("paper", help="the paper's Table 2, Table 3 and Fig. 3 runs with one LLM: plan, cost "
                                           "estimate, confirmation, then every run (resumable), then OUT/report.md",
                             description="Ends with OUT/report.md (the paper's tables, mean and spread over the "
                                         "repeats, beside the paper's own figures; the cost) with report.json and "
                                         "plots beside it. --report-only writes them again from OUT (a run stopped "
                                         "or still going: over what finished).")
    p.add_argument("--llm", default=None, help="LLM spec: openai:MODEL (with --base-url), deepseek:MODEL, ... "
                                               "(needed unless --report-only)")
    p.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint URL")
    p.add_argument("--api-key-env", default=None, metavar="VAR", help="environment variable holding the API key")
    p.add_argument("--split", choices=SPLITS, default="test", help="the DWBench split (default test, as the paper)")
    p.add_argument("--track", choices=TRACKS, default="templated", help="the DWBench track (default templated)")
    p.add_argument("--repeats", type=positive_int, default=3, help="independent repeats of every unit (the paper: 3)")
    p.add_argument("--workers", type=positive_int, default=1, help="instructions or sessions run at once per unit")
    p.add_argument("--rpm", type=float, default=None, metavar="R", help="the endpoint's requests per minute (kept to)")
    p.add_argument("--tpm", type=float, default=None, metavar="T", help="the endpoint's tokens per minute (kept to)")
    p.add_argument("--concurrency", type=positive_int, default=None, metavar="N", help="requests in flight at most")
    p.add_argument("--price-in", type=float, default=None, metavar="X", help="price per million prompt tokens")
    p.add_argument("--price-out", type=float, default=None, metavar="Y", help="price per million completion tokens")
    p.add_argument("--profile", default=None, help="agent assembly: paper, hosted or local (default: the backend's own)")
    p.add_argument("--limit", type=positive_int, default=None, metavar="N", help="only the first N sessions")
    p.add_argument("--sessions", default=None, metavar="ID,ID", help="only these sessions of the split")
    p.add_argument("--no-word-check", action="store_true", help="do not check outputs with openxml-audit")
    p.add_argument("--dry-run", action="store_true", help="print the plan and its cost only: nothing runs")
    p.add_argument("--yes", action="store_true", help="run without asking (needed where there is no terminal)")
    p.add_argument("--report-only", action="store_true",
                   help="run nothing: write OUT/report.md and its plots from the runs in OUT (prices: those given, "
                        "else the run's)")
    p.add_argument("--out", required=True, metavar="DIR", help="folder of every unit's run (a run there is continued)")
    p.set_defaults(handler=lazy("autodw.eval.paper_commands:paper_command"))
