"""Write the explorer's static site: HTML pages from the templates in ``templates/`` (Jinja2, every value escaped),
the style sheet and script of ``static/``, page pictures under ``pages/`` and the report's plots under ``report/``.

Layout of a site: ``index.html`` (the overview of one run, or two side by side), ``a/index.html`` (run A's
instructions in a filterable table), ``a/SLUG.html`` (one instruction: its verdict, differences, page pictures and
the agent's steps), the same under ``b/`` for a second run and ``compare.html`` (the flips and paired statistics). A
trace's site is one ``index.html``. Every link is relative: the folder opens from disk and can be zipped and shared.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from autodw.core.errors import ConfigError, OutputPathError
from autodw.interfaces.explore import RENDERS
from autodw.interfaces.explore.pages import PageCache, Pictures, pictures
from autodw.interfaces.explore.runs import OUTCOMES, Gap, Run, Unit, compare_runs, documents, read_run
from autodw.interfaces.explore.trace import Trace, read_trace

LETTERS = ("a", "b")
PREPARED = 12  # units whose documents one LibreOffice run lays out


@dataclass
class Built:
    """What a build wrote."""

    site: Path
    pages: int  # HTML pages
    rendered: int  # instructions with page pictures
    gaps: int  # parts shown as missing
    seconds: float


def _environment() -> Environment:
    env = Environment(loader=PackageLoader("autodw.interfaces.explore", "templates"), autoescape=select_autoescape(default=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters.update(pct=_pct, num=_num, pretty=_pretty)
    return env


def _pct(x: Any) -> str:
    return "-" if not isinstance(x, (int, float)) or isinstance(x, bool) else f"{100 * x:.1f}%"


def _num(x: Any, digits: int = 0) -> str:
    return "-" if not isinstance(x, (int, float)) or isinstance(x, bool) else f"{x:,.{digits}f}"


def _pretty(value: Any) -> str:
    """A value as indented JSON (strings bare)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=1, default=str)


def _slug(unit: Unit) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", unit.slug)


class _Writer:
    """Writes the pages and assets of one site."""

    def __init__(self, site: Path, cache: PageCache):
        self.site, self.cache, self.env = site, cache, _environment()
        self.pages = self.gaps = self.rendered = 0
        self._copied: set[str] = set()

    def page(self, path: str, template: str, **values: Any) -> None:
        root = "../" * path.count("/")
        html = self.env.get_template(template).render(root=root, **values)
        target = self.site / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8")
        self.pages += 1

    def static(self) -> None:
        folder = self.site / "static"
        folder.mkdir(parents=True, exist_ok=True)
        for item in resources.files("autodw.interfaces.explore").joinpath("static").iterdir():
            if item.is_file():
                (folder / item.name).write_bytes(item.read_bytes())

    def pictures(self, docs: dict[str, bytes | Gap], differences: list[dict]) -> Pictures:
        """The page pictures of `docs`, copied into ``pages/`` (once per document page)."""
        shown = pictures(docs, differences, self.cache)
        for row in shown.rows:
            for cell in row.cells.values():
                if cell is not None:
                    name = f"{cell.digest}-{row.number}.png"
                    if name not in self._copied:
                        (self.site / "pages").mkdir(exist_ok=True)
                        shutil.copyfile(cell.picture, self.site / "pages" / name)
                        self._copied.add(name)
        self.gaps += len(shown.gaps)
        return shown


def _prepare(site: Path) -> Path:
    """The site's folder, made; a site made before there emptied of what the explorer writes (not of other files)."""
    site = Path(site)
    if site.exists() and not site.is_dir():
        raise OutputPathError(f"{site} is a file; give a folder for the site")
    if site.is_dir() and any(site.iterdir()):
        if not (site / "static" / "explore.js").is_file():
            raise OutputPathError(f"{site} holds other files; give a new or empty folder (or a site made before)")
        for name in ("static", "pages", "report", *LETTERS):
            shutil.rmtree(site / name, ignore_errors=True)
        for page in site.glob("*.html"):
            page.unlink()
    site.mkdir(parents=True, exist_ok=True)
    return site


def _progress(units: list, label: str, show: bool) -> Iterable:
    from autodw.core.progress import progress

    return progress(units, desc=label, unit="page", disable=not show, dynamic_ncols=True, file=sys.stderr)


# --- a run --------------------------------------------------------------------------------------------------------


def _wants_pictures(unit: Unit, renders: str) -> bool:
    return renders == "all" or (renders == "failed" and unit.outcome in ("failed", "error"))


def _intents(unit: Unit) -> list[str]:
    return list(unit.instruction.intents) if unit.instruction is not None else []


def _apis(unit: Unit) -> list[str]:
    return sorted({c.api for c in unit.instruction.gold}) if unit.instruction is not None else []


def _track(unit: Unit) -> str:
    return str(unit.field("track") or (unit.instruction.track if unit.instruction is not None else "") or "-")


def _facet(unit: Unit, name: str) -> list[str]:
    """The values of filter `name` a unit has (an instruction has several intents and gold APIs)."""
    value = {"outcome": lambda: unit.outcome, "mode": lambda: unit.mode, "status": lambda: unit.field("status"),
             "difficulty": lambda: unit.instruction.difficulty if unit.instruction else unit.field("difficulty"),
             "language": lambda: unit.instruction.language if unit.instruction else unit.field("language"),
             "track": lambda: _track(unit), "intent": lambda: _intents(unit), "api": lambda: _apis(unit)}[name]()
    return [str(v) for v in value] if isinstance(value, list) else [str(value if value is not None else "-")]


FILTERS = ("outcome", "mode", "status", "difficulty", "language", "track", "intent", "api")
BREAKDOWNS = ("difficulty", "language", "intent", "api", "track")


def _options(units: list[Unit]) -> dict[str, list[str]]:
    """Each filter's values among `units`, outcomes in their own order, the others sorted."""
    seen: dict[str, set[str]] = defaultdict(set)
    for unit in units:
        for name in FILTERS:
            seen[name].update(_facet(unit, name))
    return {name: [o for o in OUTCOMES if o in seen[name]] if name == "outcome" else sorted(seen[name])
            for name in FILTERS}


def breakdown(units: list[Unit], name: str) -> list[dict[str, Any]]:
    """iACC by one facet over the judged instruction-mode units: value, passed, judged, accuracy."""
    groups: dict[str, list[bool]] = defaultdict(list)
    for unit in units:
        if unit.mode == "instruction" and unit.record is not None:
            for value in _facet(unit, name):
                groups[value].append(bool(unit.record["success"]))
    return [{"value": k, "passed": sum(v), "n": len(v), "accuracy": sum(v) / len(v)} for k, v in sorted(groups.items())]


def _breakdown_tables(views: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Each breakdown as lines: a facet value and each run's figures for it (None where a run has none)."""
    tables = {}
    for name in BREAKDOWNS:
        by_run = [{row["value"]: row for row in v["breakdowns"][name]} for v in views]
        values = sorted(set().union(*by_run))
        tables[name] = [{"value": value, "cells": [rows.get(value) for rows in by_run]} for value in values]
    return tables


def _number(value: Any) -> int | float | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _row(unit: Unit) -> dict[str, Any]:
    """One line of the instruction table (``rows.js``): the filters' values, the figures shown, the page's name."""
    number, facets = _number, {name: _facet(unit, name) for name in FILTERS}
    return {"href": f"{_slug(unit)}.html", "key": unit.key, "text": unit.text,
            **{name: values if name in ("intent", "api") else values[0] for name, values in facets.items()},
            "partial_credit": number(unit.field("partial_credit")), "differences": number(unit.field("n_differences")),
            "api_calls": number(unit.field("api_calls")), "seconds": number(unit.field("seconds")),
            "tokens": (number(unit.field("prompt_tokens")) or 0) + (number(unit.field("completion_tokens")) or 0)
            if unit.record is not None else None,
            "gaps": "; ".join(f"{g.what}: {g.reason}" for g in unit.gaps)}


def _rows_script(units: list[Unit]) -> str:
    """The table's rows as a script that sets ``AUTODW_ROWS`` (data, not markup: explore.js writes it as text)."""
    return "window.AUTODW_ROWS = " + json.dumps([_row(u) for u in units], ensure_ascii=False) + ";\n"


def _run_view(run: Run, letter: str) -> dict[str, Any]:
    """What the overview shows of one run."""
    settings = run.settings or {}
    source = run.summary or settings
    label = "-"
    if "split" in source:
        from autodw.eval.report import split_label

        label = split_label(source)
    return {"run": run, "letter": letter, "settings": settings, "summary": run.summary, "split": label,
            "breakdowns": {name: breakdown(run.units, name) for name in BREAKDOWNS},
            "counts": {o: sum(1 for u in run.units if u.outcome == o) for o in OUTCOMES},
            "gaps": [{"unit": None, "gap": g} for g in run.gaps]
            + [{"unit": u, "href": f"{letter}/{_slug(u)}.html", "gap": g} for u in run.units for g in u.gaps]}


def _report(runs: list[Run], writer: _Writer) -> tuple[list[str], Gap | None]:
    """The plots of ``bench report`` (and its Markdown) under ``report/``: their file names, or why there are none."""
    from autodw.eval.report import report

    with_summary = [r.folder for r in runs if r.summary is not None]
    if not with_summary:
        return [], Gap("plots", "no run has a summary.json")
    folder = writer.site / "report"
    folder.mkdir(exist_ok=True)
    try:
        report(with_summary, folder / "report.md")
    except (ConfigError, KeyError, TypeError, ValueError) as exc:  # a summary of another shape
        return [], Gap("plots", f"bench report cannot read the runs: {exc}")
    return sorted(p.name for p in folder.glob("report-*.png")), None


def _unit_page(writer: _Writer, run: Run, unit: Unit, letter: str, neighbours: tuple[Unit | None, Unit | None],
               docs: dict[str, bytes | Gap] | None, renders: str) -> None:
    """Write one unit's page; `docs`: its documents, when its pages are drawn."""
    differences = [d for d in unit.field("differences") or [] if isinstance(d, dict)]
    shown = None
    if docs is not None:
        shown = writer.pictures(docs, differences)
        writer.rendered += 1
    trace = read_trace(unit.trace) if unit.trace is not None else None
    if trace is not None:  # the table and the overview, written after this page, list its gaps too
        unit.gaps += [Gap("trace", f"{unit.trace.name}: {g.reason}") for g in trace.gaps]
    gold = [{"api": c.api, "args": c.args} for c in unit.instruction.gold] if unit.instruction is not None else None
    writer.page(f"{letter}/{_slug(unit)}.html", "unit.html", title=f"{unit.key} ({unit.mode})", run=run, unit=unit,
                letter=letter, differences=differences, shown=shown, trace=trace, gold=gold,
                calls=unit.field("calls") if isinstance(unit.field("calls"), list) else None,
                renders=renders, previous=neighbours[0], next=neighbours[1], slug=_slug,
                record_text=json.dumps(unit.record, ensure_ascii=False, indent=1) if unit.record else None,
                status_text=json.dumps(unit.generation, ensure_ascii=False, indent=1) if unit.generation else None,
                labels=DOCUMENT_LABELS)


DOCUMENT_LABELS = {"initial": "initial (before the instruction)", "expected": "expected (the gold calls)",
                   "actual": "actual (the system's output)"}


def build_run_site(folders: list[Path], site: Path, renders: str = "failed", cache: PageCache | None = None,
                   progress: bool = True) -> Built:
    """The site of one run folder, or two compared (A first); `renders`: which instructions get page pictures."""
    if renders not in RENDERS:
        raise ConfigError(f"--renders must be one of {', '.join(RENDERS)}, not {renders!r}")
    if not 1 <= len(folders) <= 2:
        raise ConfigError("give one run folder, or two to compare")
    start = time.perf_counter()
    runs = [read_run(Path(f)) for f in folders]
    writer = _Writer(_prepare(site), cache or PageCache())
    writer.static()
    plots, plots_gap = _report(runs, writer)
    comparison = compare_runs(runs[0], runs[1]) if len(runs) == 2 else None
    for run, letter in zip(runs, LETTERS):  # the instruction pages first: reading the traces finds their gaps
        units, docs = run.units, {}
        for n, unit in enumerate(_progress(units, f"explore {run.name}", progress)):
            if n % PREPARED == 0:  # the documents of the next units laid out together
                docs = {u.key + u.mode: documents(u) for u in units[n: n + PREPARED] if _wants_pictures(u, renders)}
                writer.cache.prepare(d for unit_docs in docs.values() for d in unit_docs.values() if isinstance(d, bytes))
            _unit_page(writer, run, unit, letter, (units[n - 1] if n else None, units[n + 1] if n + 1 < len(units) else None),
                       docs.get(unit.key + unit.mode), renders)
        (writer.site / letter).mkdir(exist_ok=True)
        (writer.site / letter / "rows.js").write_text(_rows_script(run.units), encoding="utf-8")
        writer.page(f"{letter}/index.html", "table.html", title=f"{run.name}: instructions", run=run, letter=letter,
                    rows=len(run.units), options=_options(run.units), filters=FILTERS)
    views = [_run_view(run, letter) for run, letter in zip(runs, LETTERS)]
    writer.page("index.html", "overview.html", title="overview", views=views, plots=plots, plots_gap=plots_gap,
                comparison=comparison, tables=_breakdown_tables(views))
    if comparison is not None:
        writer.page("compare.html", "compare.html", title="two runs", a=runs[0], b=runs[1], comparison=comparison,
                    slug=_slug)
    writer.gaps += sum(len(v["gaps"]) for v in views)
    return Built(writer.site, writer.pages, writer.rendered, writer.gaps, round(time.perf_counter() - start, 1))


# --- a trace ------------------------------------------------------------------------------------------------------


def build_trace_site(trace_path: Path, site: Path, before: Path | None = None, after: Path | None = None,
                     cache: PageCache | None = None) -> Built:
    """The site of one ``autodw run --trace`` file; with the run's input (`before`) and output (`after`), the pages
    they differ on drawn side by side."""
    start = time.perf_counter()
    trace_path = Path(trace_path)
    if not trace_path.is_file():
        raise ConfigError(f"{trace_path} is not a file; give the trace an `autodw run --trace` wrote")
    writer = _Writer(_prepare(site), cache or PageCache())
    writer.static()
    trace: Trace = read_trace(trace_path)
    docs: dict[str, bytes | Gap] = {}
    for name, path in (("initial", before), ("actual", after)):
        if path is not None:
            docs[name] = Path(path).read_bytes() if Path(path).is_file() else Gap("document", f"{path} is not a file")
    shown = writer.pictures(docs, []) if docs else None
    writer.rendered += bool(docs)
    writer.gaps += len(trace.gaps)
    writer.page("index.html", "trace.html", title=trace_path.name, trace=trace, shown=shown,
                labels={"initial": f"before ({before})", "actual": f"after ({after})"},
                files={"before": before, "after": after})
    return Built(writer.site, writer.pages, writer.rendered, writer.gaps, round(time.perf_counter() - start, 1))

