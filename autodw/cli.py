"""The ``autodw`` command line. A thin layer: each command's work lives in a library function.

Handlers are imported lazily so that ``autodw state`` never imports torch or transformers.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from typing import Any, Callable, Sequence

from autodw.errors import AutodwError

Handler = Callable[[argparse.Namespace], int]


def _state(args: argparse.Namespace) -> int:
    from autodw.document import WordDocument
    from autodw.state import extract_state
    from autodw.state.render import render_state

    doc = WordDocument.open(args.file)
    state = extract_state(doc)
    if args.format == "json":
        _print_json(state)
    else:
        print(render_state(state, budget_tokens=args.budget))
    for note in doc.repairs:
        print(f"note: {note}", file=sys.stderr)
    return 0


def _diff(args: argparse.Namespace) -> int:
    from autodw.change_summary import summarize_change
    from autodw.changes import analyze_change
    from autodw.document import WordDocument
    from autodw.state import extract_state

    from autodw.align import align_ids

    before = extract_state(WordDocument.open(args.before))
    after = align_ids(before, extract_state(WordDocument.open(args.after)))  # two files: ids are per file
    change = analyze_change(before, after)
    if args.format == "json":
        _print_json({"changes": change, "summary": summarize_change(change)})
    else:
        print(summarize_change(change, max_lines=args.max_lines))
    return 0


def _apis(args: argparse.Namespace) -> int:
    from autodw.apis import registry

    specs = list(registry())
    if args.intent:
        specs = [s for s in specs if s.intent == args.intent]
    if args.format == "json":
        _print_json([s.to_json() for s in specs])
        return 0
    current = None
    for spec in specs:
        if spec.intent != current:
            current = spec.intent
            print(f"\n## {current} ({sum(1 for s in specs if s.intent == current)})")
        print(f"{spec.signature_text()}\n    {spec.description}")
    print(f"\n{len(specs)} APIs")
    return 0


def _call(args: argparse.Namespace) -> int:
    from pathlib import Path

    from autodw.apis import execute
    from autodw.change_summary import summarize_change
    from autodw.changes import analyze_change
    from autodw.document import WordDocument
    from autodw.errors import ArgumentError, ConfigError
    from autodw.state import extract_state

    try:
        call_args = json.loads(args.args)
    except json.JSONDecodeError as exc:
        raise ArgumentError(f"--args is not valid JSON: {exc}") from None
    doc = WordDocument.open(args.file)
    out = Path(args.output)
    if out.exists() and out.resolve() == Path(args.file).resolve():
        raise ConfigError("refusing to overwrite the input file; choose another -o path")
    doc.asset_roots = [Path(p) for p in args.assets] or []
    before = extract_state(doc)
    result = execute(doc, args.api, call_args)
    if result.data is not None:
        _print_json(result.data)
    print(result.message)
    if result.snapshot is not None:
        print(summarize_change(analyze_change(before, extract_state(doc))))
        doc.save(out)
        print(f"saved {out}")
    return 0


def _run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from autodw.agent.build import make_agent
    from autodw.agent.records import RunResult
    from autodw.document import WordDocument
    from autodw.errors import ConfigError, LLMError

    instructions = []
    if args.session:
        lines = Path(args.session).read_text(encoding="utf-8").splitlines()
        instructions += [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
    instructions += args.instruction or []
    if not instructions:
        raise ConfigError("give at least one instruction with -i or --session")
    out = Path(args.output)
    if out.exists() and out.resolve() == Path(args.file).resolve():
        raise ConfigError("refusing to overwrite the input file; choose another -o path")
    doc = WordDocument.open(args.file)
    doc.asset_roots = [Path(p) for p in args.assets]
    settings = {"rollback": int(args.rollback) if args.rollback.isdigit() else args.rollback, "threshold": args.threshold}
    settings.update({k: v for k, v in (("max_steps", args.max_steps), ("state_budget", args.state_budget)) if v})
    classifier = None
    if args.intents_model:
        from autodw.intents.classifier import IntentClassifier

        classifier = IntentClassifier.load(args.intents_model)
    agent = make_agent(args.llm, classifier=classifier, settings=settings, console=True, trace=args.trace, record=args.record,
                       base_url=args.base_url, api_key=os.environ.get(args.api_key_env) if args.api_key_env else None)
    result = RunResult()
    try:
        agent.run(doc, instructions, result)
    except (KeyboardInterrupt, LLMError) as exc:
        done = sum(1 for i in result.instructions if i.status == "done")
        what = "interrupted" if isinstance(exc, KeyboardInterrupt) else f"LLM failure: {exc}"
        if agent.last_complete is not None and done:
            doc.restore(agent.last_complete)
            partial = out.with_name(out.stem + ".partial" + out.suffix)
            doc.save(partial)
            print(f"error: {what}; the input is unchanged; saved the result of the first {done} instruction(s) to {partial}",
                  file=sys.stderr)
        else:
            print(f"error: {what}; the input is unchanged; nothing was saved", file=sys.stderr)
        return 130 if isinstance(exc, KeyboardInterrupt) else 2
    finally:
        agent.close()
    doc.save(out)
    print(f"saved {out}")
    if args.json:
        Path(args.json).write_text(json.dumps(result.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8")
    return 0 if result.completed else 3


def _print_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


def _lazy(target: str) -> Handler:
    """A handler that imports ``module:function`` only when the command runs."""

    def handler(args: argparse.Namespace) -> int:
        module, func = target.split(":")
        return getattr(importlib.import_module(module), func)(args)

    return handler


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="autodw", description="Edit Word documents from natural-language instructions.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("state", help="print the seven-part document state")
    p.add_argument("file")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--budget", type=int, default=None, metavar="TOKENS", help="token budget of the text rendering")
    p.set_defaults(handler=_state)

    p = sub.add_parser("diff", help="analyse the change between two documents")
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--max-lines", type=int, default=60, help="lines of the text summary")
    p.set_defaults(handler=_diff)

    p = sub.add_parser("apis", help="list the document APIs")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--intent", default=None, help="only the APIs of one intent")
    p.set_defaults(handler=_apis)

    p = sub.add_parser("call", help="run one API on a document and save the result")
    p.add_argument("file")
    p.add_argument("api")
    p.add_argument("--args", default="{}", help="the arguments as a JSON object")
    p.add_argument("-o", "--output", required=True, help="output .docx (never the input file)")
    p.add_argument("--assets", action="append", default=[], metavar="DIR",
                   help="folder image/export paths may use (repeatable; default: the document's folder and the current one)")
    p.set_defaults(handler=_call)

    p = sub.add_parser("run", help="run the agent: carry out instructions on a document")
    p.add_argument("file")
    p.add_argument("-i", "--instruction", action="append", help="an instruction (repeat for a session)")
    p.add_argument("--session", help="a text file with one instruction per line (# comments allowed)")
    p.add_argument("-o", "--output", required=True, help="output .docx (never the input file)")
    p.add_argument("--llm", default=None, help="openai:MODEL, deepseek:MODEL, qwen:MODEL, gemini:MODEL, ollama:MODEL, "
                                               "local[:MODEL] or replay:CASSETTE (default: $AUTODW_LLM, an endpoint "
                                               "from OPENAI_BASE_URL/OPENAI_API_KEY, else the local model)")
    p.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint URL")
    p.add_argument("--api-key-env", default=None, metavar="VAR", help="environment variable holding the API key")
    p.add_argument("--trace", default=None, metavar="TRACE.jsonl", help="write every event (prompts, calls, verdicts) here")
    p.add_argument("--record", default=None, metavar="CASSETTE.jsonl", help="record every LLM exchange for replay:CASSETTE")
    p.add_argument("--rollback", default="full", help="none, arg, full (one round, default) or a number of rounds")
    p.add_argument("--threshold", type=float, default=0.6, help="validator confidence threshold (default 0.6)")
    p.add_argument("--max-steps", type=int, default=None, help="sub-instructions per instruction before giving up "
                                                                "(default 15; 8 with the local model)")
    p.add_argument("--state-budget", type=int, default=None, metavar="TOKENS", help="token budget of the state in prompts")
    p.add_argument("--assets", action="append", default=[], metavar="DIR", help="folder image/export paths may use")
    p.add_argument("--json", default=None, metavar="RESULT.json", help="write the run's result summary as JSON")
    p.add_argument("--intents-model", default=None, metavar="DIR", help="trained intent classifier (default: the one "
                                                                          "train-intents saved; trained first if absent)")
    p.set_defaults(handler=_run)

    for register in _EXTRA_COMMANDS:
        register(sub)
    return parser


def _register_intents(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train-intents", help="train the intent classifier")
    p.add_argument("--out", default=None, help="output directory (default: the model directory the agent uses)")
    p.add_argument("--backbone", default=None, help="transformers model path or id (default: the bundled multilingual-e5-small)")
    p.add_argument("--epochs", type=int, default=None)
    p.add_argument("--seed", type=int, default=13)
    p.set_defaults(handler=_lazy("autodw.intents.cli:train_command"))

    p = sub.add_parser("intents", help="classify a sub-instruction: top-3 intents and candidate APIs")
    p.add_argument("text")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--model", default=None, help="trained model directory")
    p.set_defaults(handler=_lazy("autodw.intents.cli:intents_command"))


def _register_bench(sub: argparse._SubParsersAction) -> None:
    # autodw.dwbench.cli imports only the light record module; each subcommand's work is imported lazily.
    # It returns the bench subparsers: more subcommands (run, report, ...) are added there.
    from autodw.dwbench.cli import register

    register(sub, _lazy)


_EXTRA_COMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [_register_intents, _register_bench]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run one command; bad input gives ``error: ...`` on stderr and exit status 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except AutodwError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
