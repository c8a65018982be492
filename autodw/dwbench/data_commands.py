"""Handlers of ``autodw bench validate|stats|show`` (registered in autodw/interfaces/cli.py)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from autodw.dwbench.records import SPLITS, TRACKS, find_session, iter_records, load_split


def _print_json(data) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


def validate_command(args: argparse.Namespace) -> int:
    """Replay the gold calls of one split (or all) and list every failed check; exit 1 if any."""
    from autodw.dwbench.validate import validate

    splits = [args.split] if args.split else ["dev", "test"]
    from autodw.core.progress import progress

    with progress(desc=f"validating {args.track} {'+'.join(splits)}", unit="session") as bar:
        def done(sid: str) -> None:
            if args.verbose:
                print(f"  {sid}", file=sys.stderr, flush=True)
            bar.update(1)

        report = validate(splits, progress=done, track=args.track)
    if args.format == "json":
        _print_json(report.to_dict())
    else:
        for failure in report.failures:
            print(failure)
        status = "ok" if report.ok else f"{len(report.failures)} failure(s)"
        print(f"{args.track} {'+'.join(splits)}: {report.sessions} sessions, {report.instructions} instructions, {report.calls} gold calls "
              f"replayed in {report.seconds:.1f} s: {status}")
    return 0 if report.ok else 1


def stats_command(args: argparse.Namespace) -> int:
    """Print the shape of a split (text or JSON); optionally draw the Fig. 2 histograms."""
    from autodw.dwbench.stats import compute_stats, plot, render_text

    stats = compute_stats(load_split(args.split, args.track))
    stats["track"], stats["split"] = args.track, args.split
    if args.plot:
        plot(stats, args.plot)
    if args.format == "json":
        _print_json(stats)
    else:
        print(f"{args.track} split {args.split}")
        print(render_text(stats))
        if args.plot:
            print(f"plot written to {args.plot}")
    return 0


def leakage_command(args: argparse.Namespace) -> int:
    """Print what split B shares with split A, per track (and across tracks with --track all)."""
    from autodw.dwbench.export import has_data
    from autodw.dwbench.leakage import leakage, render_text

    tracks = TRACKS if args.track == "all" else (args.track,)
    pairs = [(ta, tb) for ta in tracks for tb in tracks]
    missing = []
    if args.track == "all":  # one track: a missing split is an error
        missing = [f"{t} {s}" for t in tracks for s in dict.fromkeys((args.a, args.b)) if not has_data(s, t)]
        pairs = [(ta, tb) for ta, tb in pairs if has_data(args.a, ta) and has_data(args.b, tb)]
    reports = [{"a": {"track": ta, "split": args.a}, "b": {"track": tb, "split": args.b},
                **leakage(iter_records(args.a, ta), iter_records(args.b, tb))} for ta, tb in pairs]
    if args.format == "json":
        _print_json({"pairs": reports, "missing": missing})
        return 0
    for r in reports:
        print(render_text(f"{r['a']['track']} {r['a']['split']} -> {r['b']['track']} {r['b']['split']}", r))
    if missing:
        print("no data (skipped): " + ", ".join(missing))
    return 0


def export_command(args: argparse.Namespace) -> int:
    """Write the data as Parquet files (one per track and split) and a README.md under --out."""
    from autodw.dwbench.export import export

    for path in export(args.out, TRACKS if args.track == "all" else (args.track,)):
        print(path)
    return 0


def show_command(args: argparse.Namespace) -> int:
    """Print one session: source, then each turn's instruction and gold calls."""
    session = find_session(args.session_id)
    if args.format == "json":
        _print_json({"session_id": session.session_id, "language": session.language,
                     "source": vars(session.source),
                     "turns": [{"turn": i.turn, "instruction": i.text, "difficulty": i.difficulty, "free_text": i.free_text,
                                "intents": list(i.intents), "gold": [{"api": c.api, "args": c.args} for c in i.gold]}
                               for i in session.instructions]})
        return 0
    src = session.source
    print(f"{session.session_id} ({session.language}; {len(session.instructions)} turns, {session.n_calls} gold calls)")
    print(f"starts from {src.kind} file {src.file} (sha256 {src.sha256[:12]}...)")
    for ins in session.instructions:
        flag = ", free text" if ins.free_text else ""
        print(f"\n[{ins.turn}] {ins.text}\n    {ins.difficulty}, {len(ins.gold)} call(s){flag}; intents: {', '.join(ins.intents)}")
        for call in ins.gold:
            print(f"    - {call.api}({json.dumps(call.args, ensure_ascii=False)})")
    return 0


def author_command(args: argparse.Namespace) -> int:
    """Check hand-written session files (replay every turn and alternative); print the document after a turn."""
    from autodw.dwbench import hand

    if args.state is not None:
        from autodw.analysis.state import extract_state
        from autodw.analysis.state.render import render_state

        authored = hand.read(args.files[0], draft=True)  # a session being written: its turns so far
        doc = hand.document_after(authored, args.state)
        if args.save:  # with the replay's ids, so that `autodw state` of the saved file shows the ids gold calls use
            Path(args.save).write_bytes(doc.to_bytes(keep_ids=True))
        state = extract_state(doc)
        if args.format == "json":
            _print_json(state)
        else:
            print(render_state(state))
        return 0
    bad = 0
    for path in args.files:
        authored = hand.read(path, draft=True)
        problems = hand.check(authored)
        turns = len(authored.data["turns"])
        needed = hand.SESSION_SCHEMA["properties"]["turns"]["minItems"]
        verdict = f"{len(problems)} problem(s)" if problems else "ok" if turns >= needed else \
            f"ok so far (a draft: a session needs at least {needed} turns)"
        print(f"{authored.session_id}: {turns} turns, {verdict}")
        for p in problems:
            print(f"  {p}")
        bad += bool(problems)
        _print_review(authored.session_id, hand.review(authored), args.quiet)
    return 1 if bad else 0


def _print_review(session_id: str, turns, quiet: bool) -> None:
    """The writer's review of :func:`autodw.dwbench.hand.review`: each turn's request and its gold calls' targets
    (id, part, first words); a warning for a call on a part the request does not name (with `quiet`, only those)."""
    for n, (text, calls) in enumerate(turns, 1):
        if not quiet:
            print(f"  [{n}] {text}")
        for call in calls:
            targets = call.shown()
            if not quiet:
                print(f"      {call.api}: {targets}")
            if call.unnamed_parts:
                print(f"  warning: {session_id} turn {n}: {call.api} acts on the {' and '.join(call.unnamed_parts)}, "
                      f"which the request does not name ({targets})")


def register(sub: argparse._SubParsersAction, lazy) -> argparse._SubParsersAction:
    """Add ``bench`` and its subcommands; returns the bench subparsers so more can be added (run, report...)."""
    bench = sub.add_parser("bench", help="DWBench: validate, describe and show the benchmark; run systems on it, report, compare, judge again")
    bench_sub = bench.add_subparsers(dest="bench_command", required=True, metavar="SUBCOMMAND")

    p = bench_sub.add_parser("validate", help="replay every gold sequence and check it (exit 1 on failures)")
    p.add_argument("--split", choices=SPLITS, default=None, help="one split (default: dev and test)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text to read (the default) or json for programs")
    p.add_argument("--track", choices=TRACKS, default="templated", help="hand-written or templated (default: templated)")
    p.add_argument("-v", "--verbose", action="store_true", help="print each session id as it is checked")
    p.set_defaults(handler=lazy("autodw.dwbench.data_commands:validate_command"))

    p = bench_sub.add_parser("stats", help="sessions, instructions, languages, intents, difficulty, distributions")
    p.add_argument("--track", choices=TRACKS, default="templated", help="hand or templated (default: templated)")
    p.add_argument("--split", choices=SPLITS, default="test", help="the split described (default test)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text to read (the default) or json for programs")
    p.add_argument("--plot", default=None, metavar="FILE.png", help="draw the three distributions (as the paper's Fig. 2)")
    p.set_defaults(handler=lazy("autodw.dwbench.data_commands:stats_command"))

    p = bench_sub.add_parser("leakage", help="what split B shares with split A: documents, templates, phrasings, verbatim "
                             "clauses and clause patterns; B's held-out part")
    p.add_argument("--track", choices=(*TRACKS, "all"), default="all", help="one track, or all (pairs across tracks too)")
    p.add_argument("--a", choices=SPLITS, default="dev", help="the split B is compared with (default dev)")
    p.add_argument("--b", choices=SPLITS, default="test", help="the split checked (default test)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text to read (the default) or json for programs")
    p.set_defaults(handler=lazy("autodw.dwbench.data_commands:leakage_command"))

    p = bench_sub.add_parser("export", help="write the data as Parquet files (DIR/TRACK/SPLIT.parquet) with a README.md")
    p.add_argument("--out", required=True, metavar="DIR", help="the folder the Parquet files and README.md go to")
    p.add_argument("--track", choices=(*TRACKS, "all"), default="all", help="one track, or all (the default)")
    p.set_defaults(handler=lazy("autodw.dwbench.data_commands:export_command"))

    p = bench_sub.add_parser("show", help="print a session's turns, instructions and gold calls")
    p.add_argument("session_id", help="the session's id, e.g. dwb-001 or dwh-001")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text to read (the default) or json for programs")
    p.set_defaults(handler=lazy("autodw.dwbench.data_commands:show_command"))
    p = bench_sub.add_parser("author", help="check hand-written session files by replaying them; --state N prints the "
                             "document after turn N with its element ids", description=(
        "Check hand-written session files by replaying them; --state N prints the document after turn N with its "
        "element ids. Those are the replay's live ids, the ones gold calls use, stable across deletions (after p2 is "
        "deleted the next paragraph is still p3), whereas `autodw state` numbers the paragraphs of a saved file afresh "
        "(p1, p2, ...) unless it was saved with --save, which keeps the replay's ids."))
    p.add_argument("files", nargs="+", metavar="SESSION.json", help="authoring files (data/hand/sessions/dwh-NNN.json)")
    p.add_argument("--state", type=int, default=None, metavar="N", help="print the document after turn N (0: the source) of the first file")
    p.add_argument("--save", default=None, metavar="OUT.docx", help="with --state: also save that document, keeping the replay's ids")
    p.add_argument("--format", choices=("text", "json"), default="text", help="with --state: compact text or the whole state as JSON")
    p.add_argument("--quiet", action="store_true", help="print each file's verdict, problems and warnings, not the review "
                   "of its turns (each request and its gold calls' targets: id, part, first words)")
    p.set_defaults(handler=lazy("autodw.dwbench.data_commands:author_command"))
    return bench_sub
