"""The documentation site's reference pages written from the code: every command and option (from the argument
parser), every document API (from the registry), the run folder's files and fields, the agent's trace events and the
rule checks. ``python -m autodw.interfaces.reference_pages`` writes them under ``docs/reference/``; a test fails when a
committed page differs from what this module writes (``--check`` names the stale ones)."""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

from autodw.agent.checks.catalogue import markdown_line, markdown_paragraphs

COMMAND = "python -m autodw.interfaces.reference_pages"


def _prose(text: str) -> str:
    """Help or description text for a table cell: Markdown's own characters outside code spans escaped, so that
    ``data[i][j]`` or ``<w:p>`` shows as written."""
    parts = markdown_line(text).split("`")
    for n in range(0, len(parts), 2):  # outside the code spans
        parts[n] = re.sub(r"([\[\]<*])", r"\\\1", parts[n])
    return "`".join(parts)


def _header(title: str, source: str) -> list[str]:
    return [f"# {title}", "", f"<!-- Written from {source} by `{COMMAND}`; do not edit by hand (a test fails when this "
                              "page is out of date). -->", ""]


# --- the command line ----------------------------------------------------------------------------------------------


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ("autodw",)
             ) -> Iterator[tuple[tuple[str, ...], str, argparse.ArgumentParser]]:
    """Every command under `parser`, depth first: its words (``("autodw", "bench", "run")``), its help and parser."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                yield (*path, name), helps.get(name, ""), sub
                yield from commands(sub, (*path, name))


def arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """A command's own arguments and options (not ``-h`` nor its subcommands)."""
    return [a for a in parser._actions if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))]


def _metavar(action: argparse.Action) -> str:
    if action.nargs == 0:
        return ""
    name = action.metavar or ("{" + ",".join(map(str, action.choices)) + "}" if action.choices else
                              action.dest if not action.option_strings else action.dest.upper())
    return {"?": f"[{name}]", "*": f"[{name} ...]", "+": f"{name} [{name} ...]"}.get(action.nargs, name)  # type: ignore[arg-type]


def _invocation(action: argparse.Action) -> str:
    if not action.option_strings:
        return _metavar(action)
    return ", ".join(action.option_strings) + (f" {_metavar(action)}" if action.nargs != 0 else "")


def _default(action: argparse.Action) -> str:
    if action.required and action.option_strings:
        return "required"
    if action.default in (None, False, [], argparse.SUPPRESS) or action.nargs == 0:
        return ""
    return f"`{action.default}`"


def _usage(parser: argparse.ArgumentParser) -> str:
    """The usage line at a fixed width (the terminal's would change the page)."""
    formatter = argparse.HelpFormatter(parser.prog, width=100)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return formatter.format_help().strip()


def _anchor(words: tuple[str, ...]) -> str:
    return "-".join(words)


def cli_page() -> str:
    """``docs/reference/cli.md``: every command, subcommand and option of ``autodw`` with its help."""
    from autodw.interfaces.cli import build_parser

    parser = build_parser()
    found = list(commands(parser))
    lines = _header("Command line", "the argument parser (`autodw.interfaces.cli.build_parser`)")
    lines += [markdown_line(parser.description or ""), "",
              "Every command prints `error: ...` and exits with status 2 on bad input, 4 on a bug of autodw (an internal "
              "error, with its traceback). `autodw COMMAND -h` prints the same help as this page.", "",
              "| command | what it does |", "|---|---|"]
    lines += [f"| [`{' '.join(words)}`](#{_anchor(words)}) | {_prose(help_text)} |" for words, help_text, _ in found]
    for words, help_text, sub in found:
        lines += ["", f"## {' '.join(words)}", "", _prose(help_text), ""]
        if sub.description and sub.description != help_text:
            lines += [markdown_paragraphs(sub.description), ""]
        lines += ["```text", _usage(sub), "```"]
        own = arguments(sub)
        if own:
            lines += ["", "| argument | what it is | default |", "|---|---|---|"]
            lines += [f"| `{markdown_line(_invocation(a))}` | {_prose(a.help or '')} | {_default(a)} |" for a in own]
    return "\n".join(lines) + "\n"


# --- the document APIs ---------------------------------------------------------------------------------------------


def apis_page() -> str:
    """``docs/reference/apis.md``: every API of the registry with its description, arguments, schema and examples."""
    from autodw.apis import registry
    from autodw.apis.registry import INTENTS, describe_schema

    specs = registry()
    lines = _header("Document APIs", "the API registry (`autodw.apis.registry`)")
    lines += [f"The {len(specs)} document APIs the agent calls, by intent (the eight of the paper: the intent classifier "
              "offers the APIs of the top intents). `autodw apis --format json` prints the same catalogue; "
              "`autodw call FILE API --args JSON -o OUT.docx` runs one API, and so does each example below. Element ids "
              "(`p3`, `t1`, `img1`, ...) are those `autodw state FILE` shows.", "",
              "| intent | APIs |", "|---|---|"]
    lines += [f"| [{intent}](#{intent}) | " + ", ".join(f"[`{s.name}`](#{s.name})" for s in specs.by_intent(intent)) + " |"
              for intent in INTENTS]
    for intent in INTENTS:
        lines += ["", f"## {intent}"]
        for spec in specs.by_intent(intent):
            required = set(spec.parameters.get("required", []))
            kind = " Reads the document only." if spec.read_only else " Writes a file of its own." if spec.writes_files else ""
            lines += ["", f"### {spec.name}", "", f"`{spec.signature_text()}`", "", _prose(spec.description) + kind, ""]
            if spec.parameters["properties"]:
                lines += ["| argument | required | what it is |", "|---|---|---|"]
                lines += [f"| `{name}` | {'yes' if name in required else 'no'} | {_prose(describe_schema(schema))} |"
                          for name, schema in spec.parameters["properties"].items()]
                lines.append("")
            # a plain block: collapsible ones cost the browser a layout each when the page opens (seconds for 97)
            lines += ["JSON Schema of the arguments:", "", "```text", json.dumps(spec.parameters, indent=2, ensure_ascii=False),
                      "```", ""]
            for example in spec.examples:
                args = json.dumps(example.args, ensure_ascii=False)
                lines += [f"Example (on `{example.document}`):", "", "```sh",
                          f"autodw call {example.document} {spec.name} --args {shlex.quote(args)} -o out.docx", "```", ""]
        lines.pop()
    return "\n".join(lines) + "\n"


# --- the run folder ------------------------------------------------------------------------------------------------


def _type_name(types: tuple[type, ...]) -> str:
    names = {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object",
             type(None): "null"}
    return " or ".join(names[t] for t in types)


def _fields_table(fields: dict[str, tuple[type, ...]]) -> list[str]:
    return ["| field | JSON type |", "|---|---|"] + [f"| `{name}` | {_type_name(types)} |" for name, types in fields.items()]


def run_folder_page() -> str:
    """``docs/reference/run-folder.md``: what a ``bench run`` folder holds and the fields each file must have."""
    from autodw.eval import metrics, run_folder

    lines = _header("Run folder", "`autodw.eval.run_folder` and `autodw.eval.metrics`")
    lines += ["What `autodw bench run --out DIR` writes, and what `bench rescore`, `bench report`, `bench compare` and "
              "`bench explore` read. A file that lacks a field below, or has it of another type, is refused as damaged, "
              "with the file named and what to do about it.", "", markdown_paragraphs(run_folder.__doc__ or ""), "",
              "## run.json: the run's settings", "", *_fields_table(metrics.RUN_FIELDS), "",
              "and, in a folder made since runs record their code, `code` (object: `version` and `fingerprint`, "
              "strings; see above).", "",
              "## summary.json: the run's metrics", "",
              "Written from the records by grading (and by `autodw bench rescore`); the fields every summary has (it "
              "has many more: the means, medians and breakdowns of the metrics below):", "",
              *_fields_table(metrics.SUMMARY_FIELDS), "", markdown_paragraphs(metrics.__doc__ or ""), "",
              "## A unit's status (.status)", "", *_fields_table(run_folder.STATUS_FIELDS), "",
              "## A unit's record (.json)", "",
              "The fields every record has (besides the judge's differences, partial credit's counts, calls, tokens and "
              "seconds):", "", *_fields_table(metrics.RECORD_FIELDS), "",
              "## A unit's trace (.trace.jsonl)", "", "The agent's events, one JSON object a line: see "
              "[trace events](trace-events.md)."]
    return "\n".join(lines) + "\n"


# --- the trace events ----------------------------------------------------------------------------------------------


def trace_events_page() -> str:
    """``docs/reference/trace-events.md``: every event the agent emits, with its fields."""
    from autodw.agent.events import TRACE_EVENTS, TRACE_LINE_FIELDS

    lines = _header("Trace events", "`autodw.agent.events.TRACE_EVENTS`")
    lines += ["What the agent does, as events: `autodw run --trace TRACE.jsonl` writes each as one JSON line, flushed at "
              "once (a crash keeps the trace); a run folder keeps a unit's as `.trace.jsonl`; the console shows them as "
              "progress lines; `autodw explore TRACE.jsonl -o SITE` draws them as a timeline in a site. Every line has these "
              "fields besides its event's:", "", "| field | what it holds |", "|---|---|"]
    lines += [f"| `{name}` | {_prose(text)} |" for name, text in TRACE_LINE_FIELDS.items()]
    lines += ["", "Events, in the order a run emits them:", "", "| event | when |", "|---|---|"]
    lines += [f"| [`{name}`](#{name}) | {_prose(event.description)} |" for name, event in TRACE_EVENTS.items()]
    for name, event in TRACE_EVENTS.items():
        lines += ["", f"## {name}", "", _prose(event.description[0].upper() + event.description[1:]) + ".", "",
                  "| field | what it holds |", "|---|---|"]
        lines += [f"| `{field}` | {_prose(text)} |" for field, text in event.fields.items()]
    return "\n".join(lines) + "\n"


def rule_checks_page() -> str:
    """``docs/reference/rule-checks.md``: the rule checks' catalogue (:func:`autodw.agent.checks.catalogue_page`)."""
    from autodw.agent.checks import catalogue_page

    return catalogue_page()


#: Each generated page (its path from the repository root) and what writes it.
PAGES: dict[str, Callable[[], str]] = {
    "docs/reference/cli.md": cli_page,
    "docs/reference/apis.md": apis_page,
    "docs/reference/run-folder.md": run_folder_page,
    "docs/reference/trace-events.md": trace_events_page,
    "docs/reference/rule-checks.md": rule_checks_page,
}


def stale(root: Path) -> list[str]:
    """The pages under `root` that differ from what their writer gives now (or are missing)."""
    out = []
    for name, write in PAGES.items():
        path = root / name
        if not path.is_file() or path.read_text(encoding="utf-8") != write():
            out.append(name)
    return out


def main(argv: list[str] | None = None) -> int:
    """Write every page under the repository root (``--check``: only name the stale ones; exit 1 if any)."""
    from autodw.core.package import write_atomically
    from autodw.core.paths import repo_root

    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__)
    parser.add_argument("--check", action="store_true", help="write nothing; name the stale pages (exit 1 if any)")
    parser.add_argument("--root", default=None, help="the repository root (default: this checkout's)")
    args = parser.parse_args(argv)
    root = Path(args.root) if args.root else repo_root()
    if args.check:
        names: Any = stale(root)
        for name in names:
            print(f"stale: {name}")
        return 1 if names else 0
    for name, write in PAGES.items():
        write_atomically(root / name, write().encode("utf-8"))
        print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
