"""Handlers of ``autodw bench run|report|rescore|compare|agree|sweep`` (registered on the bench subparsers in autodw/interfaces/cli.py)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

from autodw.dwbench.records import SPLITS, TRACKS
from autodw.core.errors import ConfigError
from autodw.eval import registered_systems
from autodw.eval.system_registry import SystemInputs, SystemRegistry, positive_int

THRESHOLDS = tuple(round(0.1 * n, 1) for n in range(10))  # the paper's sensitivity analysis: 0.0 ... 0.9


def _llm(args: argparse.Namespace):
    from autodw.llm.factory import make_llm

    from autodw.llm.limits import ProviderLimits

    llm = make_llm(args.llm, base_url=args.base_url,
                   api_key=os.environ.get(args.api_key_env) if args.api_key_env else None,
                   announce=lambda *a, **k: print(*a, file=sys.stderr),
                   limits=ProviderLimits(args.rpm, args.tpm, args.concurrency))
    if args.llm_cache:
        from autodw.llm.replay import MemoBackend

        llm = MemoBackend(llm, args.llm_cache)
    return llm


def _config(args: argparse.Namespace, llm) -> Any:
    """--profile's assembly, else the backend's (the hosted profile without an LLM), with --threshold and --set."""
    from autodw.agent.assembly import assembly_for, profile_assembly

    if args.profile or llm is None:
        config = profile_assembly(args.profile or "hosted")
    else:
        config = assembly_for(llm)
    if args.threshold is not None:
        config = config.override(threshold=args.threshold)
    return config.override(**_settings(args.set))


def _settings(pairs: list[str]) -> dict[str, Any]:
    """--set NAME=VALUE pairs as agent settings (VALUE read as JSON when it is JSON: true, 0.5, "x")."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise ConfigError(f"--set takes NAME=VALUE (an agent setting), not {pair!r}")
        try:
            out[name] = json.loads(value)
        except json.JSONDecodeError:
            out[name] = value
    return out


def system_factory(args: argparse.Namespace) -> tuple[Callable[[], Any], str, dict[str, Any]]:
    """A function making the system `args` name (one per worker), the LLM's name and the options to record."""
    registry = registered_systems()
    spec = registry.get(args.system)
    options = registry.resolve(spec.name, _given_options(args, registry))
    if spec.uses_llm is False and args.llm:
        raise ConfigError(f"--system {spec.name} uses no LLM: leave out --llm")
    unused = [flag for flag, given, used in (
        ("--profile", getattr(args, "profile", None) is not None, spec.uses_agent_settings),
        ("--threshold", getattr(args, "threshold", None) is not None, spec.uses_agent_settings),
        ("--set", bool(getattr(args, "set", None)), spec.uses_agent_settings),
        ("--intents-model", getattr(args, "intents_model", None) is not None, spec.uses_classifier)) if given and not used]
    if unused:
        raise ConfigError(f"--system {spec.name} does not use {', '.join(unused)}: leave {'them' if len(unused) > 1 else 'it'} out")
    needs_llm = spec.needs_llm(options)
    if needs_llm and not args.llm and not os.environ.get("AUTODW_LLM"):  # a benchmark run names what it measures
        raise ConfigError(f"--system {spec.name} needs --llm: openai:MODEL (with --base-url for your endpoint), "
                          "deepseek:MODEL, ..., or local for the embedded model")
    llm = _llm(args) if needs_llm else None
    if llm is not None and args.workers > 1 and llm.name.startswith("local"):
        raise ConfigError("the embedded local model runs one request at a time: use --workers 1")
    recorded: dict[str, Any] = {}
    config = None
    if spec.uses_agent_settings:
        config = _config(args, llm).override(**spec.settings(options))
        recorded["config"] = config.to_dict()
    recorded.update(spec.recorded(options))
    classifier = _classifier(args) if spec.uses_classifier else None
    make = spec.assemble(SystemInputs(options, llm, config, classifier))
    return make, llm.name if llm is not None else "none", recorded


def _given_options(args: argparse.Namespace, registry: SystemRegistry) -> dict[str, Any]:
    """The registered systems' options given on the command line (their arguments are absent unless given)."""
    return {o.name: getattr(args, o.name) for o in registry.options() if hasattr(args, o.name)}


def _classifier(args: argparse.Namespace):
    from autodw.intents.classifier import load_or_train

    return load_or_train(args.intents_model, train_missing=False) if args.intents_model else load_or_train(progress=True)


def run_command(args: argparse.Namespace) -> int:
    """``autodw bench run``: run a system on a split into --out (resumable); print the summary."""
    from autodw.eval.runner import Runner, RunSpec

    make, llm_name, options = system_factory(args)
    mode = args.mode or ("instruction" if args.instructions else "both")  # chosen instructions: instruction mode
    modes = ["instruction", "session"] if mode == "both" else [mode]
    spec = RunSpec(args.system, llm_name, args.split, modes, options, args.limit, _session_ids(args),
                   stop_at_failure=args.stop_at_failure, instructions=_keys(args.instructions), track=args.track)
    runner = Runner(spec, Path(args.out), make, workers=args.workers, word_check=not args.no_word_check)
    _log_command(Path(args.out), args.argv)
    try:
        summary = runner.run()
    except KeyboardInterrupt:
        print(f"\ninterrupted: what finished is kept in {args.out}; run the same command again to continue",
              file=sys.stderr)
        return 130
    _print_summary(summary, args.format)
    return 0


#: environment variables that change what a run measures, written with its command
_RUN_ENV = ("AUTODW_LOCAL_N_CTX", "AUTODW_RESPONSE_FORMAT", "AUTODW_LLM_TIMEOUT", "AUTODW_LLM", "AUTODW_MODEL",
            "OPENAI_BASE_URL", "AUTODW_HOME", "AUTODW_CORPUS")  # the saved intent model; the corpus documents


def _log_command(out: Path, argv: list[str]) -> None:
    """Append the command (and the environment settings that change a run) to ``DIR/commands.txt``: run.json holds
    the settings, this how they were given, to rerun."""
    import shlex

    env = " ".join(f"{k}={shlex.quote(os.environ[k])}" for k in _RUN_ENV if os.environ.get(k))
    line = f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {env + ' ' if env else ''}autodw {shlex.join(argv)}\n"
    with open(out / "commands.txt", "a", encoding="utf-8") as fh:
        fh.write(line)


def _session_ids(args: argparse.Namespace) -> list[str] | None:
    """The ids of --sessions ID,ID (None: every session)."""
    return _keys(args.sessions)


def _keys(listed: str | None) -> list[str] | None:
    """The items of a comma-separated option (None when not given)."""
    return [i.strip() for i in listed.split(",") if i.strip()] if listed else None


def _print_summary(summary: dict[str, Any], fmt: str) -> None:
    if fmt == "json":
        json.dump(summary, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return

    def pct(x):
        return "-" if x is None else f"{100 * x:.1f}%"

    stopped = f"; {summary['sessions_stopped']} stopped at a failed turn" if summary.get("sessions_stopped") else ""
    from autodw.eval.report import split_label

    print(f"{summary['system']} ({summary['llm']}) on {split_label(summary)}: "
          f"iACC {pct(summary['iacc'])} of {summary['instructions']}/{summary['instructions_in_split']} instructions, "
          f"sACC {pct(summary['sacc'])} of {summary['sessions']}/{summary['sessions_in_split']} sessions "
          f"(final state {pct(summary['sacc_final'])}{stopped}), {summary['seconds']:.0f} s of system time"
          + (f", {summary['wall_seconds']:.0f} s wall" if summary.get("wall_seconds") is not None else ""))
    if "iacc_held_out" in summary:
        print(f"test's held-out part: iACC {pct(summary['iacc_held_out'])} of {summary['held_out_instructions']} instructions")
    print(f"per instruction: {summary['api_calls_per_instruction']} API calls, {summary['llm_calls_per_instruction']} LLM "
          f"calls, {summary['tokens_per_instruction']} tokens, median {summary['median_seconds_per_instruction']} s")
    if "faults" in summary:
        f = summary["faults"]
        print(f"faults: {f['faults']} injected in {f['gold_steps']} steps ({f['by_kind']}); validator caught "
              f"{f['caught']}/{f['judged_faults']}, false rejections {f['false_rejections']}, precision "
              f"{f['precision']}, recall {f['recall']}; had every fail rejected: caught "
              f"{f['if_every_fail_rejected']['caught']}, false rejections {f['if_every_fail_rejected']['false_rejections']}")
    word = summary["word_check"]
    failed = f"; it failed on {word['failed']} (their records' word_check_error)" if word.get("failed") else ""
    print(f"Word check: {word['outputs_with_added_errors']} of {word['checked']} outputs added validation errors{failed}")
    if summary.get("judge_errors"):
        print(f"internal error: the judge could not judge {summary['judge_errors']} output(s), counted as failures "
              f"(their records' judge_error)", file=sys.stderr)


def sweep_command(args: argparse.Namespace) -> int:
    """``autodw bench sweep``: the noisy oracle at each acceptance threshold 0.0 ... 0.9 (into OUT/t0.0 ...), the
    LLM validator's answers shared through one cache, then a table (and a plot with --plot)."""
    from autodw.eval.runner import Runner, RunSpec

    out = Path(args.out)
    if args.plot and Path(args.plot).suffix.lower() != ".png":  # known before the runs, not after them
        raise ConfigError(f"--plot {args.plot}: plots are PNG pictures; give a file name ending in .png")
    args.system = "noisy-oracle"
    registry = registered_systems()
    validator = registry.resolve(args.system, _given_options(args, registry))["validator"]
    if validator == "llm" and not args.llm_cache:
        args.llm_cache = str(out / "llm-cache.jsonl")
    rows = []
    for threshold in THRESHOLDS:
        args.threshold = threshold
        make, llm_name, options = system_factory(args)
        spec = RunSpec("noisy-oracle", llm_name, args.split, ["instruction"], options, args.limit, _session_ids(args),
                       track=args.track)
        runner = Runner(spec, out / f"t{threshold:.1f}", make, workers=args.workers, word_check=False)
        if threshold == THRESHOLDS[0]:
            _log_command(out, args.argv)
        summary = runner.run()
        f = summary.get("faults") or {}
        rows.append({"threshold": threshold, "iacc": summary["iacc"], "caught": f.get("caught"),
                     "judged_faults": f.get("judged_faults"), "false_rejections": f.get("false_rejections"),
                     "api_calls_per_instruction": summary["api_calls_per_instruction"],
                     "llm_calls_per_instruction": summary["llm_calls_per_instruction"]})
    from autodw.eval.report import write_sweep

    table = write_sweep(rows, out, plot=args.plot)
    print(table)
    return 0


def report_command(args: argparse.Namespace) -> int:
    """``autodw bench report``: Markdown tables across run folders, and plots beside --out."""
    from autodw.eval.report import report

    text = report([Path(d) for d in args.runs], Path(args.out) if args.out else None,
                  Path(args.baseline) if args.baseline else None)
    print(text)
    return 0


def rescore_command(args: argparse.Namespace) -> int:
    """``autodw bench rescore``: the units of runs generated but not graded graded, or (``--rejudge``) every output
    judged again by this autodw's judge; the summary rewritten."""
    from autodw.eval.rescore import rescore

    for run in args.runs:
        done = rescore(Path(run), rejudge=args.rejudge)
        summary = done.summary
        print(f"{run}: {done.judged} output(s) judged; iACC {summary['iacc']}, partial credit "
              f"{summary['partial_credit']} ({summary['instructions']} instructions), sACC {summary['sacc']} "
              f"({summary['sessions']} sessions)")
        if done.flipped:
            print(f"  {len(done.flipped)} verdict(s) changed: " + "; ".join(done.flipped))
        if done.dropped:
            print(f"  {len(done.dropped)} record(s) dropped: {', '.join(done.dropped)}")
        if done.to_continue:
            print(f"  {len(done.to_continue)} session(s) not finished: {', '.join(done.to_continue)}")
        if not summary["complete"]:
            print("  unfinished: the same `autodw bench run` command as the run's runs what is missing")
    return 0


def compare_command(args: argparse.Namespace) -> int:
    """``autodw bench compare``: run B against run A, paired on the instructions both finished."""
    from autodw.eval.compare import compare, compare_text

    result = compare(Path(args.a), Path(args.b))
    if args.format == "json":
        json.dump(result, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        print(compare_text(result))
    return 0


def agree_command(args: argparse.Namespace) -> int:
    """``autodw bench agree``: the LLM judge on every output of a run, against the deterministic judge."""
    from autodw.eval.agreement import agreement

    result = agreement(Path(args.run), _llm(args), limit=args.limit)
    if args.format == "json":
        json.dump(result, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        print(result["text"])
    return 0


def _llm_options(p: argparse.ArgumentParser, required: bool = False) -> None:
    p.add_argument("--llm", default=None, required=required, help="LLM spec as for autodw run (openai:MODEL, local, ...)")
    p.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint URL")
    p.add_argument("--api-key-env", default=None, metavar="VAR", help="environment variable holding the API key")
    p.add_argument("--llm-cache", default=None, metavar="CACHE.jsonl",
                   help="answer a request asked before from this file (and add new answers to it); runs that share "
                        "it report a recalled answer's tokens and seconds as first asked")
    p.add_argument("--rpm", type=float, default=None, metavar="R", help="the endpoint's requests per minute (kept to)")
    p.add_argument("--tpm", type=float, default=None, metavar="T", help="the endpoint's tokens per minute (kept to)")
    p.add_argument("--concurrency", type=positive_int, default=None, metavar="N",
                   help="requests in flight at once at most (default: one per worker)")


def _system_options(p: argparse.ArgumentParser, names: list[str] | None = None) -> None:
    """The registered options of the systems `names` (default: all), each said to be whose. Their arguments are left
    out of the parsed namespace unless given: the registry fills in the defaults, and refuses another system's."""
    group = p.add_argument_group("options of a system", "each given only with the system(s) it names")
    for option, systems in registered_systems().options(names).items():
        default = "" if option.default is None else f" (default {option.default})"
        group.add_argument(option.flag, dest=option.name, type=option.type, choices=option.choices,
                           metavar=option.metavar, default=argparse.SUPPRESS,
                           help=f"{', '.join(systems)}: {option.help}{default}".replace("%", "%%"))


def _systems_listed() -> str:
    """The registered systems, one line each, for --help."""
    specs = list(registered_systems())
    width = max(len(s.name) for s in specs)
    return "systems:\n" + "\n".join(f"  {s.name:<{width}}  {s.help}" for s in specs)


def _track_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--track", choices=TRACKS, default="templated",
                   help="DWBench track: hand (written by people) or templated (the default, for now)")


def _settings_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="change an agent setting (repeatable), e.g. --set grounding=false for an ablation")


def register(bench_sub: argparse._SubParsersAction, lazy) -> None:
    """Add run, sweep, report, rescore, compare and agree to the ``bench`` subcommands."""
    p = bench_sub.add_parser("run", help="run a system on a split: iACC/sACC, cost, per-instruction records (resumable)",
                             epilog=_systems_listed(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--system", choices=registered_systems().names(), required=True, help="the system to run (below)")
    p.add_argument("--split", choices=SPLITS, required=True, help="the DWBench split to run on (mini: a quick one)")
    _track_option(p)
    p.add_argument("--mode", choices=("instruction", "session", "both"), default=None,
                   help="instruction: iACC (each from its gold start); session: sACC (own output carried); both "
                        "(the default; instruction with --instructions)")
    p.add_argument("--out", required=True, metavar="DIR", help="run folder (an unfinished run there is continued)")
    p.add_argument("--limit", type=positive_int, default=None, metavar="N", help="only the first N sessions of the split")
    p.add_argument("--sessions", default=None, metavar="ID,ID", help="only these sessions of the split")
    p.add_argument("--instructions", default=None, metavar="SID#T,SID#T",
                   help="instruction mode: only these instructions (session id # turn, as in the records' key)")
    p.add_argument("--workers", type=positive_int, default=1,
                   help="instructions or sessions run at once: threads for a hosted endpoint, processes for a system "
                        "without an LLM (the oracle; the noisy oracle with the oracle or rules validator)")
    p.add_argument("--stop-at-failure", action="store_true",
                   help="session mode: end a session at its first failed turn (sACC and turns before failure are "
                        "the same; the final-state sACC and the cost per session are then not measured)")
    p.add_argument("--profile", default=None, help="agent assembly: paper, hosted or local (default: the backend's own)")
    p.add_argument("--threshold", type=float, default=None, help="validator acceptance threshold (default: the profile's)")
    p.add_argument("--intents-model", default=None, metavar="DIR", help="trained intent classifier (default: the saved one)")
    p.add_argument("--no-word-check", action="store_true", help="do not check outputs with openxml-audit")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text to read (the default) or json for programs")
    _llm_options(p)
    _system_options(p)
    _settings_option(p)
    p.set_defaults(handler=lazy("autodw.eval.run_commands:run_command"))

    p = bench_sub.add_parser("sweep", help="noisy oracle at acceptance thresholds 0.0-0.9: iACC, faults caught, false "
                                           "rejections, calls")
    p.add_argument("--split", choices=SPLITS, default="dev", help="the DWBench split (default dev)")
    _track_option(p)
    p.add_argument("--out", required=True, metavar="DIR", help="folder of the sweep: a run folder per threshold")
    p.add_argument("--limit", type=positive_int, default=None, metavar="N", help="only the first N sessions of the split")
    p.add_argument("--sessions", default=None, metavar="ID,ID", help="only these sessions of the split")
    p.add_argument("--workers", type=positive_int, default=1, help="instructions run at once (as for bench run)")
    p.add_argument("--profile", default=None, help="agent settings: hosted or local (default: the backend's)")
    p.add_argument("--plot", default=None, metavar="FILE.png", help="also draw the sweep (iACC, faults, false rejections)")
    _llm_options(p)
    _system_options(p, ["noisy-oracle"])
    _settings_option(p)
    p.set_defaults(handler=lazy("autodw.eval.run_commands:sweep_command"), threshold=None)

    p = bench_sub.add_parser("report", help="Markdown tables (Table 2/3 style) across run folders, and plots")
    p.add_argument("runs", nargs="+", metavar="DIR", help="run folders (autodw bench run --out)")
    p.add_argument("--out", default=None, metavar="report.md", help="write the tables here; plots go beside it")
    p.add_argument("--baseline", default=None, metavar="DIR",
                   help="also pair every run with this one (bench compare): an ablation table")
    p.set_defaults(handler=lazy("autodw.eval.run_commands:report_command"))

    p = bench_sub.add_parser("rescore", help="grade the units of runs generated but not graded (a run stopped between "
                                             "the two); with --rejudge, judge every saved output again with this "
                                             "autodw's judge")
    p.add_argument("runs", nargs="+", metavar="DIR", help="run folders to grade")
    p.add_argument("--rejudge", action="store_true",
                   help="judge every output again (a run judged by an older judge version; the records are rewritten)")
    p.set_defaults(handler=lazy("autodw.eval.run_commands:rescore_command"))

    p = bench_sub.add_parser("compare", help="run B against run A on the instructions both finished: iACC with "
                                             "McNemar's test, partial credit with a bootstrap interval")
    p.add_argument("a", metavar="RUN_A", help="the run compared against (e.g. without the change)")
    p.add_argument("b", metavar="RUN_B", help="the run compared (e.g. with it)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text to read (the default) or json for programs")
    p.set_defaults(handler=lazy("autodw.eval.run_commands:compare_command"))

    p = bench_sub.add_parser("agree", help="agreement of the LLM judge with the deterministic judge on a run's outputs")
    p.add_argument("run", metavar="RUN_DIR", help="the run folder whose outputs are judged again")
    p.add_argument("--limit", type=positive_int, default=None, metavar="N", help="only the first N outputs")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text to read (the default) or json for programs")
    _llm_options(p, required=True)
    p.set_defaults(handler=lazy("autodw.eval.run_commands:agree_command"))
