"""The ``autodw`` command line. A thin layer: each command's work lives in a library function.

Handlers are imported lazily so that ``autodw state`` never imports torch or transformers.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from autodw.apis.registry import INTENTS
from autodw.core import DEFAULT_AUTHOR
from autodw.core.errors import AutodwError, InternalError

if TYPE_CHECKING:
    from autodw.interfaces.redline import RedlineResult

Handler = Callable[[argparse.Namespace], int]

#: the one setting of who the comments and the tracked changes autodw writes are by
AUTHOR_HELP = (f"author of the comments added (unless an instruction names one) and of the tracked changes written "
               f"(default {DEFAULT_AUTHOR})")

#: Exit status of a bug of autodw (an InternalError); bad input is 2, an incomplete `run` 3, an interruption 130.
EXIT_INTERNAL_ERROR = 4


def _document_path(arg: str) -> Path:
    """The FILE of state and call: a path, or a source as DWBench sessions name one (``bench author`` reads them):
    ``corpus:NAME.docx`` (the shared corpus) or ``docs/NAME.docx`` (the benchmark's data) when no such path exists."""
    from autodw.core.errors import DocumentNotFoundError
    from autodw.dwbench.records import corpus_dir, source_path

    if not arg.startswith("corpus:") and (Path(arg).exists() or not arg.startswith("docs/")):
        return Path(arg)
    path = source_path(arg)
    if path.is_file():
        return path
    if arg.startswith("corpus:") and not corpus_dir().is_dir():
        raise DocumentNotFoundError(f"{arg}: the shared corpus is not at {corpus_dir().parent} (set AUTODW_CORPUS "
                                    "to the corpus folder, the one holding docx/)")
    raise DocumentNotFoundError(f"{arg}: no such file (looked at {path})")


def _state(args: argparse.Namespace) -> int:
    from autodw.core.document import WordDocument
    from autodw.analysis.state import extract_state
    from autodw.analysis.state.render import render_state

    doc = WordDocument.open(_document_path(args.file))
    state = extract_state(doc)
    if args.format == "json":
        _print_json(state)
    else:
        print(render_state(state, budget_tokens=args.budget))
    for note in doc.repairs:
        print(f"note: {note}", file=sys.stderr)
    return 0


def _diff(args: argparse.Namespace) -> int:
    from autodw.analysis.change_summary import summarize_change
    from autodw.analysis.changes import analyze_change
    from autodw.core.document import WordDocument
    from autodw.analysis.state import extract_state

    from autodw.analysis.align import align_ids

    before = extract_state(WordDocument.open(args.before))
    after = align_ids(before, extract_state(WordDocument.open(args.after)))  # two files: ids are per file
    change = analyze_change(before, after)
    if args.format == "json":
        _print_json({"changes": change, "summary": summarize_change(change)})
    else:
        print(summarize_change(change, max_lines=args.max_lines))
    return 0


def _judge(args: argparse.Namespace) -> int:
    from autodw.core.errors import ConfigError

    if args.judge == "llm":
        from autodw.eval.llm_judge import llm_judge

        if args.initial:
            raise ConfigError("--initial is only used by the deterministic judge")
        from autodw.llm.factory import make_llm

        llm = make_llm(args.llm, base_url=args.base_url,
                       api_key=os.environ.get(args.api_key_env) if args.api_key_env else None)
        verdict = llm_judge(args.expected, args.actual, llm=llm, instruction=args.instruction, free_text=args.free_text)
    else:
        from autodw.eval.judge import judge

        if args.llm:
            raise ConfigError("--llm is only used with --judge llm")
        verdict = judge(args.expected, args.actual, instruction=args.instruction, free_text=args.free_text,
                        initial=args.initial)
    if args.format == "json":
        _print_json(verdict.to_dict())
    else:
        print(verdict.to_text())
    return 0 if verdict.equivalent else 1


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
    from autodw.apis import execute
    from autodw.analysis.change_summary import summarize_change
    from autodw.analysis.changes import analyze_change
    from autodw.core.document import WordDocument
    from autodw.core.errors import ArgumentError, ConfigError
    from autodw.core.package import check_extension, check_output_path
    from autodw.analysis.state import extract_state

    try:
        call_args = json.loads(args.args)
    except json.JSONDecodeError as exc:
        raise ArgumentError(f"--args is not valid JSON: {exc}") from None
    except RecursionError:
        raise ArgumentError("--args is nested too deeply to read") from None
    source = _document_path(args.file)
    doc = WordDocument.open(source)
    out = Path(args.output)
    if out.exists() and out.resolve() == source.resolve():
        raise ConfigError("refusing to overwrite the input file; choose another -o path")
    check_extension(out, doc.main_content_type)  # before the call: nothing is reported done that cannot be saved
    check_output_path(out)
    doc.asset_roots = [Path(p) for p in args.assets] or []
    before = extract_state(doc)
    result = execute(doc, args.api, call_args)
    if result.data is not None:
        _print_json(result.data)
    if result.snapshot is None:  # a read-only call: with data, stdout is that JSON alone (a script reads it)
        print(result.message, file=sys.stderr if result.data is not None else sys.stdout)
        return 0
    report = f"{result.message}\n{summarize_change(analyze_change(before, extract_state(doc)))}"
    doc.save(out)
    print(_in_saved_numbering(doc, report, out))
    print(f"saved {out}")
    return 0


def _in_saved_numbering(doc, report: str, out: Path) -> str:
    """`report` (what the call did, in the ids of the edited document) with its ids as `out`, read afresh, numbers
    them (a saved file carries no ids: a new paragraph p111 may be p3 there, and p111 another one), so printed ids
    can name elements in a next call on `out`. When reading `out` does not give the elements that numbering
    expects, the ids stay and a note says so."""
    from autodw.core.document import WordDocument
    from autodw.core.ids import ids_in_text, rename_ids_in_text

    names = doc.saved_ids()
    if list(names.values()) != WordDocument.open(out).ids():
        return (f"{report}\nnote: the ids above are this call's, not {out}'s: reading {out} numbers its elements "
                f"afresh (see `autodw state {out}`)")
    gone = [i for i in ids_in_text(report) if i not in names]
    note = (f"\nnote: {', '.join(gone)} above named element(s) of the input that {out} no longer has; the other ids "
            f"above are {out}'s") if gone else ""
    return rename_ids_in_text(report, names) + note


def _validate(args: argparse.Namespace) -> int:
    from autodw.core.package import read_package
    from autodw.analysis.validation import PART_ROOT_SOURCE, added, validate, validate_all

    for path in [args.file] + ([args.against] if args.against else []):
        read_package(path)  # a file that is no Word document is bad input (exit 2), not a validation finding
    if args.against:
        before, after = validate_all([args.against, args.file], workers=2)
        findings = added(before, after)
    else:
        findings = validate(args.file)
    errors = [f for f in findings if f.is_error]
    if args.format == "json":
        _print_json({"file": args.file, "against": args.against, "errors": [f.to_dict() for f in errors],
                     "reported": [f.to_dict() for f in findings if not f.is_error]})
    else:
        what = f"added by the edit of {args.against}" if args.against else "in the file"
        for f in errors:
            print(f"error: {f}")
        for f in findings:
            if not f.is_error:
                print(f"note: {f}")
        own = sum(f.source == PART_ROOT_SOURCE for f in errors)
        print(f"{len(errors) - own} Open XML SDK error(s)"
              + (f" and {own} part(s) whose root element is not the one its content type names" if own else "")
              + f" {what}" + ("; Word should open it without repair" if not errors else ""))
    return 1 if errors else 0


def _local_model(args: argparse.Namespace) -> int:
    from autodw.llm.local_model import resolve_model

    print(resolve_model(args.model)[1])
    return 0


def _run(args: argparse.Namespace) -> int:
    from autodw.agent.build import make_agent
    from autodw.agent.records import RunResult
    from autodw.core.document import WordDocument
    from autodw.core.errors import ConfigError, InternalError, LLMError
    from autodw.core.package import check_output_path, read_text_input

    instructions = []
    if args.session:
        lines = read_text_input(args.session, "a session file (one instruction per line)").splitlines()
        instructions += [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
    instructions += args.instruction or []
    if not instructions:
        raise ConfigError("give at least one instruction with -i or --session")
    out = Path(args.output)
    if out.exists() and out.resolve() == Path(args.file).resolve():
        raise ConfigError("refusing to overwrite the input file; choose another -o path")
    if args.redline and Path(args.redline).resolve() in (Path(args.file).resolve(), out.resolve()):
        raise ConfigError("--redline must name a file other than the input and the -o output")
    for option, path in (("-o", args.output), ("--redline", args.redline), ("--trace", args.trace),
                         ("--json", args.json), ("--record", args.record)):
        if path:
            check_output_path(path, option)  # before the run, not after it
    doc = WordDocument.open(args.file)
    doc.asset_roots = [Path(p) for p in args.assets]
    doc.author = args.author
    rollback = int(args.rollback) if args.rollback is not None and args.rollback.isdigit() else args.rollback
    given = {"rollback": rollback, "threshold": args.threshold, "max_steps": args.max_steps,
             "planner_state_budget": args.state_budget}
    settings = {name: value for name, value in given.items() if value is not None}  # None: the profile's value
    classifier = None
    if args.intents_model:
        from autodw.intents.classifier import load_or_train

        classifier = load_or_train(args.intents_model, train_missing=False)
    agent = make_agent(args.llm, classifier=classifier, profile=args.profile, settings=settings, console=True,
                       trace=args.trace, record=args.record, base_url=args.base_url,
                       api_key=os.environ.get(args.api_key_env) if args.api_key_env else None)
    result = RunResult()
    try:
        agent.run(doc, instructions, result)
    except (KeyboardInterrupt, LLMError, InternalError) as exc:
        if isinstance(exc, InternalError):
            status = EXIT_INTERNAL_ERROR
            what = f"internal error (a bug in autodw, not a mistake of the model): {exc}; {_save_traceback(exc, out, args.trace)}"
        elif isinstance(exc, KeyboardInterrupt):
            status, what = 130, "interrupted"
        else:
            status, what = 2, f"LLM failure: {exc}"
        done = sum(1 for i in result.instructions if i.status == "done")
        if agent.last_complete is not None and done:
            doc.restore(agent.last_complete)
            partial = out.with_name(out.stem + ".partial" + out.suffix)
            doc.save(partial)
            print(f"error: {what}; the input is unchanged; saved the result of the first {done} instruction(s) to {partial}",
                  file=sys.stderr)
        else:
            print(f"error: {what}; the input is unchanged; nothing was saved", file=sys.stderr)
        return status
    finally:
        agent.close()
    doc.save(out)
    print(f"saved {out}")
    if args.redline:
        _save_redline(args.file, out, args.redline, args.author)
    if args.show is not None:
        from autodw.interfaces.render import show_run

        print(show_run(args.file, out, args.show or out.with_suffix(".show.png")))
    if args.json:
        Path(args.json).write_text(json.dumps(result.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8")
    return 0 if result.completed else 3


def _save_traceback(error: InternalError, out: Path, trace: str | None) -> str:
    """Write `error`'s traceback next to the output file; say where it and the run's trace are."""
    path = out.with_name(out.stem + ".internal-error.txt")
    path.write_text(error.traceback or str(error), encoding="utf-8")
    return f"traceback in {path}" + (f" and the trace {trace}" if trace else "")


def _save_redline(original: str, edited: str | os.PathLike[str], target: str, author: str, date: str | None = None,
                  json_output: bool = False) -> "RedlineResult":
    """Write the redline of two files, say where, and print a note for each kind of edit it does not carry."""
    from datetime import datetime, timezone

    from autodw.core.errors import ConfigError
    from autodw.interfaces.redline import write_redline

    when = None
    if date:
        try:
            when = datetime.fromisoformat(date.replace("Z", "+00:00"))
        except ValueError:
            raise ConfigError(f"--date is not an ISO 8601 date: {date!r}") from None
        when = when if when.tzinfo else when.replace(tzinfo=timezone.utc)
    result = write_redline(original, edited, target, author=author, date=when)
    print(f"saved {target} (the edits as tracked changes by {author})", file=sys.stderr if json_output else sys.stdout)
    for note in result.check.notes():
        print(f"note: {note}", file=sys.stderr)
    return result


def _redline(args: argparse.Namespace) -> int:
    result = _save_redline(args.original, args.edited, args.output, args.author, args.date, args.format == "json")
    if args.format == "json":
        _print_json({"output": str(result.path), "complete": result.check.complete,
                     "not_shown": result.check.not_shown, "not_restored": result.check.not_restored})
    return 0


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

    p = sub.add_parser("state", help="print the seven-part document state", description=(
        "Print the seven-part document state. Its element ids are numbered afresh in document order as the file is "
        "opened (p1, p2, ...), so after a deletion they differ from the live ids, stable across deletions, that "
        "`autodw bench author FILE --state N` shows of a replay, unless the file was saved with `bench author --save`, "
        "which keeps those."))
    p.add_argument("file", help="the Word document (.docx, .docm, .dotx or .dotm), or a DWBench source: "
                                "corpus:NAME.docx (the shared corpus) or docs/NAME.docx (the benchmark's documents)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: the compact rendering the prompts use; json: the whole seven-part state")
    p.add_argument("--budget", type=int, default=None, metavar="TOKENS", help="token budget of the text rendering")
    p.set_defaults(handler=_state)

    p = sub.add_parser("diff", help="analyse the change between two documents")
    p.add_argument("before", help="the document before the edit")
    p.add_argument("after", help="the document after it (ids are aligned by content)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text to read (the default) or json for programs")
    p.add_argument("--max-lines", type=int, default=60, help="lines of the text summary")
    p.set_defaults(handler=_diff)

    p = sub.add_parser("judge", help="is ACTUAL equivalent to EXPECTED? (exit 0 yes, 1 no, 2 bad input)")
    p.add_argument("expected", help="the expected document")
    p.add_argument("actual", help="the document to judge")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text to read (the default) or json for programs")
    p.add_argument("--instruction", default=None, metavar="TEXT",
                   help="the instruction: colours it names in words accept any colour of that name")
    p.add_argument("--free-text", action="store_true", help="the instruction asks for free text: judge written text "
                                                            "by place, type, formatting and length, not its words")
    p.add_argument("--initial", default=None, metavar="FILE",
                   help="the document before the instruction (with --free-text: texts already in it must match; "
                        "named colours are tolerated only where the expected document set them)")
    p.add_argument("--judge", choices=("deterministic", "llm"), default="deterministic",
                   help="deterministic (the default: the benchmark's judge) or llm (the paper's LLM judge, with --llm)")
    p.add_argument("--llm", default=None, help="the model of --judge llm (specs as for run)")
    p.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint URL")
    p.add_argument("--api-key-env", default=None, metavar="VAR", help="environment variable holding the API key")
    p.set_defaults(handler=_judge)

    p = sub.add_parser("apis", help="list the document APIs")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text to read (the default) or json for programs")
    p.add_argument("--intent", default=None, choices=INTENTS, help="only the APIs of one intent")
    p.set_defaults(handler=_apis)

    p = sub.add_parser("call", help="run one API on a document and save the result")
    p.add_argument("file", help="the Word document to edit (never written to), or a DWBench source as for state")
    p.add_argument("api", help="the API's name (autodw apis lists them)")
    p.add_argument("--args", default="{}", help="the arguments as a JSON object")
    p.add_argument("-o", "--output", required=True, help="output .docx (never the input file); the ids printed are "
                                                         "the ones it has when read, as a next call on it uses them")
    p.add_argument("--assets", action="append", default=[], metavar="DIR",
                   help="folder image/export paths may use (repeatable; default: the document's folder and the current one)")
    p.set_defaults(handler=_call)

    p = sub.add_parser("validate", help="check that Word opens a .docx without repair (Open XML SDK checks, via openxml-audit)")
    p.add_argument("file", help="the Word document to check")
    p.add_argument("--against", default=None, metavar="ORIGINAL", help="only the errors FILE has that ORIGINAL did not")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text to read (the default) or json for programs")
    p.set_defaults(handler=_validate)

    p = sub.add_parser("run", help="run the agent: carry out instructions on a document")
    p.add_argument("file", help="the Word document to edit (never written to)")
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
    p.add_argument("--profile", default=None, help="agent assembly: paper, hosted or local (default: the backend's own: local "
                                                   "for the embedded model, hosted otherwise, the recorded one for replay)")
    p.add_argument("--rollback", default=None, help="none, arg, full or a number of rounds (default: the profile's, full)")
    p.add_argument("--threshold", type=float, default=None, help="validator confidence threshold (default: the profile's, 0.6)")
    p.add_argument("--max-steps", type=int, default=None, help="sub-instructions per instruction before giving up "
                                                                "(default: the profile's: hosted 15, local 8)")
    p.add_argument("--state-budget", type=int, default=None, metavar="TOKENS",
                   help="token budget of the planner's document state (default: the profile's: hosted 6000, local 1500)")
    p.add_argument("--assets", action="append", default=[], metavar="DIR", help="folder image/export paths may use")
    p.add_argument("--json", default=None, metavar="RESULT.json", help="write the run's result summary as JSON")
    p.add_argument("--show", nargs="?", const="", default=None, metavar="PICTURE.png",
                   help="also draw the pages the run changed, before and after (default OUT.show.png; LibreOffice)")
    p.add_argument("--intents-model", default=None, metavar="DIR", help="trained intent classifier (default: the one "
                                                                          "train-intents saved; trained first if absent)")
    p.add_argument("--redline", default=None, metavar="OUT-redline.docx",
                   help="also write the input with the run's edits as Word tracked changes")
    p.add_argument("--author", "--redline-author", default=DEFAULT_AUTHOR, metavar="NAME", dest="author",
                   help=AUTHOR_HELP)
    p.set_defaults(handler=_run)

    p = sub.add_parser("local-model", help="print the embedded model's GGUF file (joined from its packages if needed), "
                                           "e.g. to serve it with llama-cpp-python's OpenAI-compatible server")
    p.add_argument("model", nargs="?", default=None, help="a known model name or a .gguf path (default: $AUTODW_LOCAL_MODEL "
                                                          "or the default model)")
    p.set_defaults(handler=_local_model)

    p = sub.add_parser("redline", help="write the edits between two documents as Word tracked changes")
    p.add_argument("original", help="the document before the edits")
    p.add_argument("edited", help="the document after them")
    p.add_argument("-o", "--output", required=True, help="output .docx (never one of the inputs)")
    p.add_argument("--author", default=DEFAULT_AUTHOR, metavar="NAME",
                   help=f"author of the tracked changes (default {DEFAULT_AUTHOR})")
    p.add_argument("--date", default=None, help="ISO 8601 date of the tracked changes (default: now, UTC)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text to read (the default) or json for programs")
    p.set_defaults(handler=_redline)

    for register in _EXTRA_COMMANDS:
        register(sub)
    return parser


def _register_intents(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train-intents", help="train the intent classifier")
    p.add_argument("--out", default=None, help="output directory (default: the model directory the agent uses)")
    p.add_argument("--backbone", default=None, help="a transformers model folder (default: the packaged multilingual-e5-small; nothing is downloaded)")
    p.add_argument("--epochs", type=int, default=None, help="training epochs (default: the recipe's)")
    p.add_argument("--seed", type=int, default=13, help="random seed of the training (default 13)")
    p.add_argument("--if-missing", action="store_true",
                   help="train the default recipe only if no model is there (one of the old format is converted); "
                        "scripts/install_local.sh runs this")
    p.set_defaults(handler=_lazy("autodw.intents.intent_commands:train_command"))

    p = sub.add_parser("intents", help="classify a sub-instruction: top-3 intents and candidate APIs")
    p.add_argument("text", help="the sub-instruction to classify")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text to read (the default) or json for programs")
    p.add_argument("--model", default=None, help="trained model directory")
    p.set_defaults(handler=_lazy("autodw.intents.intent_commands:intents_command"))


def _register_sessions(sub: argparse._SubParsersAction) -> None:
    from autodw.interfaces.session_agent import add_arguments

    p = sub.add_parser("chat", help="an interactive session: instructions one after another, with undo")
    p.add_argument("file", help="the Word document to edit (never written to)")
    p.add_argument("-o", "--output", default=None, help="where :save writes (default NAME-edited.docx; never the input)")
    p.add_argument("--assets", action="append", default=[], metavar="DIR", help="folder image/export paths may use")
    p.add_argument("--author", default=DEFAULT_AUTHOR, metavar="NAME", help=AUTHOR_HELP)
    add_arguments(p)
    p.set_defaults(handler=_lazy("autodw.interfaces.chat:chat_command"))

    p = sub.add_parser("mcp", help="serve the document APIs and the agent to MCP clients (stdio or HTTP)")
    p.add_argument("--root", default=".", metavar="DIR",
                   help="the only folder documents and outputs may be in (default: the current directory)")
    p.add_argument("--transport", choices=("stdio", "http"), default="stdio",
                   help="stdio (default: the client starts the server) or streamable HTTP")
    p.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    p.add_argument("--author", default=DEFAULT_AUTHOR, metavar="NAME", help=AUTHOR_HELP)
    add_arguments(p)
    p.set_defaults(handler=_lazy("autodw.interfaces.mcp_server:mcp_command"))

    p = sub.add_parser("render", help="draw pages of a document as a PNG picture (LibreOffice)")
    p.add_argument("file", help="the Word document to draw")
    p.add_argument("--pages", default=None, help="pages to draw, e.g. 1-3 or 1,4 (default: all)")
    p.add_argument("-o", "--output", required=True, help="output .png (the pages side by side)")
    p.add_argument("--dpi", type=int, default=60, help="resolution (default 60)")
    p.set_defaults(handler=_lazy("autodw.interfaces.render:render_command"))


def _register_bench(sub: argparse._SubParsersAction) -> None:
    # autodw.dwbench.data_commands imports only the light record module; each subcommand's work is imported lazily.
    # It returns the bench subparsers: more subcommands (run, report, ...) are added there.
    from autodw.dwbench.data_commands import register
    from autodw.eval.run_commands import register as register_eval
    from autodw.eval.ceiling.commands import register_ceiling
    from autodw.eval.paper_commands import register_paper
    from autodw.interfaces.explore.explore_commands import register as register_explore
    from autodw.interfaces.perf import register as register_perf

    bench = register(sub, _lazy)
    register_eval(bench, _lazy)
    register_paper(bench, _lazy)
    register_ceiling(bench, _lazy)
    register_perf(bench, _lazy)
    register_explore(sub, bench, _lazy)


_EXTRA_COMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [_register_intents, _register_sessions, _register_bench]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run one command; bad input gives ``error: ...`` on stderr and exit status 2, a bug of autodw
    ``error: internal error ...`` with its traceback and exit status 4."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # what was typed (a run folder keeps its commands)
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
    except Exception as exc:  # noqa: BLE001 - a bug of ours: said to be one, with its traceback
        error = InternalError.wrap(exc, f"autodw {args.command}")
        print(f"{error.traceback}error: internal error (a bug in autodw): {error}", file=sys.stderr)
        return EXIT_INTERNAL_ERROR


if __name__ == "__main__":
    sys.exit(main())
