"""The rule checks' catalogue (``docs/reference/rule-checks.md``), written from the registry."""

from __future__ import annotations

import re
from types import ModuleType
from typing import Iterable, Sequence

from autodw.core import provenance
from autodw.agent.checks.registry import Certainty, Check

COMMAND = "python -m autodw.agent.checks > docs/reference/rule-checks.md"
_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")  # a Sphinx role (":func:`repair`") -> `repair`


def _inline(text: str) -> str:
    """A docstring's text as Markdown on one line: roles and double backquotes as code."""
    return " ".join(_ROLE.sub(r"`\1`", text).replace("``", "`").split())


def markdown_line(text: str) -> str:
    """A docstring's text as Markdown for a table cell: on one line, pipes escaped."""
    return _inline(text).replace("|", "\\|")


def markdown_paragraphs(text: str) -> str:
    """A docstring's text as Markdown paragraphs: each paragraph, and each ``- `` item of a list, on one line."""
    blocks = []
    for paragraph in text.strip().split("\n\n"):
        items = re.split(r"\n(?=\s*- )", paragraph.strip())
        blocks.append("\n".join(_inline(item) for item in items))
    return "\n\n".join(blocks)


def _splits(names: Iterable[str]) -> str:
    """``dwbench-1.1/templated/dev`` and its like, grouped: "1.1 templated: dev, mini; 2.0 hand: dev"."""
    groups: dict[str, list[str]] = {}
    for name in names:
        version, track, split = provenance.SPLIT_NAME.match(name).groups()  # type: ignore[union-attr]  # validated
        groups.setdefault(f"{version} {track}", []).append(split)
    return "; ".join(f"{group}: {', '.join(splits)}" for group, splits in groups.items()) or "none"


def _reads(c: Check) -> str:
    fields = [f"{name} (single request only)" if name == "request" and c.single_request else name for name in c.reads]
    return ", ".join([*fields, *c.word_lists])


def _certainty(c: Check) -> str:
    gives = "" if c.finding == c.name else f"; its findings are named `{c.finding}`"
    hints = f"; also hints (`{c.hint}`)" if c.hint else ""
    absence = "; **reads absence**" if c.absence else ""
    return f"{c.certain.value}{gives}{hints}{absence}"


def page(checks: Sequence[Check], families: Sequence[ModuleType], about: str) -> str:
    """The catalogue page: `about` (the package's docstring), what a finding does, the `families` (modules) and
    `checks` in the order they run, with what each reads and the DWBench splits it was tuned on."""
    title, _, body = about.strip().partition("\n")
    lines = ["# Rule checks", "",
             f"<!-- Written from the registry of autodw/agent/checks/ by `{COMMAND}`; do not edit by hand "
             "(a test fails when this page is out of date). -->", "",
             markdown_line(title), ""]
    lines += [markdown_paragraphs(body), ""]
    lines += ["## What a finding does", ""]
    lines += [f"- **{c.value}**: {markdown_line(c.meaning)}" for c in Certainty]
    lines += ["", "A check that **reads absence** finds that the request does not mention what the call does (an "
              "API, a flag, a property, an option, a separator's words): open-vocabulary evidence, since each new "
              "writer finds new words. Under an assembly whose `absence_findings` is `hint` (the `hosted` profile) its "
              "certain findings are shown to the LLM validator as hints (no fix, no API rollback); under `reject` "
              "(`local`, `paper`, and the noisy oracle's rule-check validator) they reject as declared. The checks that "
              "find a contradiction (the request names X, the call does Y) always reject."]
    lines += ["", "## Families", ""]
    lines += [f"- `{m.__name__.rpartition('.')[2]}`: {markdown_line((m.__doc__ or '').strip().splitlines()[0])}"
              for m in families]
    lines += ["", "## The checks, in the order they run", "",
              "A check reads only the parts of the call it names: `sub_instruction` (the planner's step), `instruction` "
              "(the user's request the step serves), `request` (the call's own request of a compound instruction), "
              "`api`, `args`, `before` and `after` (the document's states), and the word lists it names.", "",
              "| # | Check | Family | Certain | Reads | Tuned on | What it finds |",
              "|---|---|---|---|---|---|---|"]
    lines += [f"| {n} | `{c.name}` | {c.family} | {_certainty(c)} | {_reads(c)} | {_splits(c.tuned_on)} | "
              f"{markdown_line(c.purpose)} |" for n, c in enumerate(checks, 1)]
    lines += ["", "## Tuned on", "",
              "Each check names the DWBench splits its code was made or narrowed on and, for a check that reads a word "
              "list, the splits `autodw/core/provenance.json` says that list was derived from: one schema with the "
              "provenance of every other tuned artefact (`autodw/core/provenance.py`). A figure of the rule checks on a "
              "split is labelled so (`provenance.label`):", "",
              "| DWBench | " + " | ".join(provenance.SPLITS) + " |", "|---|" + "---|" * len(provenance.SPLITS)]
    entries = [c.entry for c in checks]
    for version, track in sorted({provenance.SPLIT_NAME.match(n).groups()[:2]  # type: ignore[union-attr]
                                  for c in checks for n in c.tuned_on} | {("2.0", t) for t in provenance.TRACKS}):
        labels = [provenance.label(version, track, split, entries) for split in provenance.SPLITS]
        lines.append(f"| {version} {track} | " + " | ".join(labels) + " |")
    return "\n".join(lines) + "\n"

