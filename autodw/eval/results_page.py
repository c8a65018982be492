"""The results page (``docs/results/index.md``), generated from the kept runs a manifest lists:
``autodw bench report --manifest docs/results/manifest.json``.

The manifest is data (:data:`SCHEMA`): each run's folder, a label, what it is (:data:`KINDS`: the oracle, the noisy
oracle, the embedded model, the ceiling), its track and split, whether anything was tuned on that split (checked
against ``autodw/core/provenance.json``), the commits it was made at and what of it is kept (:data:`KEPT`). The page's
figures are the runs' summaries (``summary.json``, :func:`autodw.eval.metrics.summarize`) as
:func:`autodw.eval.report.table` shows them: accuracy, cost, by difficulty and language, the validator on injected
faults; two plots; and each run's command, commits, data and judge versions as metadata (a table, and the page's
front matter), never in prose. An unfinished run is shown with its figures so far and marked unfinished.

Only runs on this autodw's DWBench data version are cited: runs on earlier data are history
(``docs/results/changelog.md``).
"""

from __future__ import annotations

import math
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pandas as pd
import yaml

from autodw.core.checked_json import read_checked
from autodw.core.errors import ConfigError
from autodw.core.package import write_atomically
from autodw.core.paths import repo_root
from autodw.core.plots import pyplot, save_png
from autodw.core.provenance import TUNED, label as provenance_label
from autodw.dwbench.records import DATA_VERSION, SPLITS, TRACKS
from autodw.eval.metrics import data_version, judge_version, run_track
from autodw.eval.report import SECTIONS, load_summaries, plot_difficulty, sections, table

KINDS = ("oracle", "noisy oracle", "embedded model", "ceiling")
#: what of a run the repository keeps (scripts/keep_run_records.sh): its settings, summary and commands only (the
#: rest made again by its command into a new folder: a deterministic run), or its records too (a run nothing makes
#: again: a model's, without its answers)
KEPT = {"summary": "settings, summary, command (the command makes the rest again)",
        "records": "settings, summary, command, records, statuses, outputs (no traces)"}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["runs"],
    "additionalProperties": False,
    "properties": {
        "_comment": {"type": "string"},
        "runs": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["folder", "label", "kind", "track", "split", "tuned_on", "commits", "kept"],
            "additionalProperties": False,
            "properties": {
                "folder": {"type": "string", "minLength": 1},
                "label": {"type": "string", "minLength": 1, "pattern": r"^[^|\n]+$"},
                "kind": {"enum": list(KINDS)},
                "track": {"enum": list(TRACKS)},
                "split": {"enum": list(SPLITS)},
                "tuned_on": {"type": "boolean"},
                "commits": {"type": "array", "minItems": 1, "items": {"type": "string", "pattern": "^[0-9a-f]{7,40}$"}},
                "kept": {"enum": list(KEPT)},
                "note": {"type": "string", "pattern": r"^[^|\n]+$"},
            },
        }},
    },
}
#: the page's tables: the columns of :func:`autodw.eval.report.table` each shows after ``run`` (with ``status``, and
#: the manifest's ``what``); the validator's only for runs that injected faults; the runs' metadata last
TABLES = {
    "Accuracy": ["split", "iACC %", "iACC held-out part %", "partial credit %", "sACC %", "final-state sACC %",
                 "instructions", "sessions", "status"],
    "Cost": ["LLM calls / instr.", "API calls / instr.", "tokens / instr.", "s / instr. (median)", "system time (s)",
             "wall time (s)"],
    "By difficulty and language": SECTIONS["By difficulty and language"],
    "The validator on injected faults": SECTIONS["The validator on injected faults"],
}
#: the metadata table's columns of :func:`autodw.eval.report.table` (after the manifest's ``what``)
RUN_COLUMNS = ["system", "setting", "LLM"]
PLOTS = {"accuracy.png": "iACC, partial credit and sACC of each run",
         "difficulty.png": "iACC and partial credit by difficulty"}


@dataclass(frozen=True)
class Entry:
    """One run of the manifest; `folder` resolved against the manifest's folder."""

    folder: Path
    label: str
    kind: str
    track: str
    split: str
    tuned_on: bool
    commits: tuple[str, ...]
    kept: str
    note: str = ""


@dataclass(frozen=True)
class Page:
    """The page's Markdown and its plots (file name -> a function drawing it to a path)."""

    text: str
    plots: dict[str, Callable[[Path], Any]]


def load_manifest(path: Path) -> list[Entry]:
    """The runs of a manifest, validated against :data:`SCHEMA`; ConfigError if it is unreadable, malformed, or
    names a label or folder twice."""
    data = read_checked(path, SCHEMA, "the results manifest")
    entries = [Entry((Path(path).parent / r["folder"]).resolve(), r["label"], r["kind"], r["track"], r["split"],
                     r["tuned_on"], tuple(r["commits"]), r["kept"], r.get("note", "")) for r in data["runs"]]
    for name, values in (("label", [e.label for e in entries]), ("folder", [e.folder for e in entries])):
        twice = sorted({str(v) for v in values if values.count(v) > 1})
        if twice:
            raise ConfigError(f"{path} names the {name} {', '.join(twice)} twice")
    return entries


def shown(path: Path) -> str:
    """`path` as the page shows it: from the repository's root when inside it."""
    root = repo_root()
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)


def checked_summary(entry: Entry) -> dict[str, Any]:
    """The run's summary, its ``run`` named by the entry's label; ConfigError if the run is on other DWBench data, of
    another track or split than the manifest says, or the manifest's word on tuning is not provenance's."""
    summary = load_summaries([entry.folder])[0]
    where = shown(entry.folder)
    if data_version(summary) != DATA_VERSION:
        raise ConfigError(f"{where} was made on DWBench {data_version(summary)} data: the results page cites runs on "
                          f"{DATA_VERSION} only (earlier runs are history: docs/results/changelog.md)")
    if (run_track(summary), summary["split"]) != (entry.track, entry.split):
        raise ConfigError(f"the manifest says {entry.label} ran on {entry.track}/{entry.split}; {where} ran on "
                          f"{run_track(summary)}/{summary['split']}")
    tuned = provenance_label(DATA_VERSION, entry.track, entry.split) == TUNED
    if tuned != entry.tuned_on:
        raise ConfigError(f"the manifest says of {entry.label} that {'something was' if entry.tuned_on else 'nothing was'}"
                          f" tuned on {entry.track}/{entry.split}; autodw/core/provenance.json says "
                          f"{'something was' if tuned else 'nothing was'}: set its tuned_on to {str(tuned).lower()}")
    return {**summary, "run": entry.label}


def commands(folder: Path) -> list[str]:
    """The distinct commands of a run's ``commands.txt`` (a resumed run repeats its command), without their time and
    with ``--out DIR``: where the run was made is not where a rebuild goes."""
    path = folder / "commands.txt"
    if not path.is_file():
        return []
    out: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        words = shlex.split(line)
        if words and re.match(r"^\d{4}-\d\d-\d\dT", words[0]):
            words = words[1:]
        words = ["--out=DIR" if w.startswith("--out=") else "DIR" if n and words[n - 1] == "--out" else w
                 for n, w in enumerate(words)]
        if words and (command := shlex.join(words)) not in out:
            out.append(command)
    return out


def done(summary: dict[str, Any]) -> str:
    """How much of its work a run has recorded, per mode: "N of M instructions, K of L sessions"."""
    return ", ".join(f"{summary[unit]} of {summary[f'{unit}_in_split']} {unit}"
                     for mode, unit in (("instruction", "instructions"), ("session", "sessions"))
                     if mode in summary["modes"])


def status(summary: dict[str, Any]) -> str:
    """"complete", or "unfinished: N of M instructions"."""
    return "complete" if summary["complete"] else f"unfinished: {done(summary)}"


def _markdown(frame: pd.DataFrame) -> str:
    return frame.to_markdown(index=False, disable_numparse=True)


def _metadata(entries: list[Entry], summaries: list[dict[str, Any]], frame: pd.DataFrame) -> str:
    """The runs' metadata: a table of what each is, its system and settings, commits, data and judge versions and
    what of it is kept; then each run's folder, command(s) and note."""
    meta = frame[["run", "what", *RUN_COLUMNS]].assign(**{
        "commits": [", ".join(e.commits) for e in entries], "data version": [data_version(s) for s in summaries],
        "judge version": [str(judge_version(s)) for s in summaries], "kept": [KEPT[e.kept] for e in entries]})
    lines = [f"- **{e.label}** (`{shown(e.folder)}`): " + ("; ".join(f"`{c}`" for c in commands(e.folder)) or "no command kept")
             + (f". {e.note}" if e.note else "") for e in entries]
    return "## Runs\n\n" + _markdown(meta) + "\n\n## Commands\n\n" + "\n".join(lines) + "\n"


def _front_matter(manifest: Path, summaries: list[dict[str, Any]]) -> str:
    meta = {"title": "Results",
            "generated_by": f"autodw bench report --manifest {shown(manifest)}",
            "data_version": DATA_VERSION,
            "judge_versions": sorted({judge_version(s) for s in summaries}),
            "plots": [{"file": name, "shows": what} for name, what in PLOTS.items()]}
    return "---\n" + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True) + "---\n"


def build(manifest: Path) -> Page:
    """The page of the runs `manifest` lists (nothing written)."""
    manifest = Path(manifest).resolve()
    entries = load_manifest(manifest)
    summaries = [checked_summary(e) for e in entries]
    unfinished = [f"{s['run']} ({done(s)})" for s in summaries if not s["complete"]]
    frame = table(summaries).assign(what=[e.kind for e in entries], status=[status(s) for s in summaries])
    text = (_front_matter(manifest, summaries)
            + f"\n<!-- generated from {manifest.name}: edit it and run the command of generated_by above -->\n\n"
            + "# Results\n\n"
            + f"The DWBench {DATA_VERSION} runs listed in [{manifest.name}]({manifest.name}), from their summaries; what "
            "the figures mean: [metrics](../benchmark/metrics.md); earlier measurements: [changelog of results]"
            "(changelog.md).\n\n"
            + (f"Unfinished runs, their figures over the records so far: {'; '.join(unfinished)}.\n\n" if unfinished else "")
            + sections(frame, TABLES)
            + "\n## Plots\n\n" + "\n\n".join(f"![{what}]({name})" for name, what in PLOTS.items()) + "\n\n"
            + _metadata(entries, summaries, frame))
    plots = {"accuracy.png": lambda path: plot_accuracy(summaries, path),
             "difficulty.png": lambda path: plot_difficulty(summaries, path)}
    return Page(text, plots)


def write(manifest: Path, out: Path | None = None) -> Path:
    """Write the page of `manifest` to `out` (default: ``index.md`` beside the manifest) with its plots beside it."""
    out = Path(out) if out is not None else Path(manifest).parent / "index.md"
    page = build(manifest)
    for name, draw in page.plots.items():
        draw(out.parent / name)
    write_atomically(out, page.text.encode("utf-8"))
    return out


def stale(manifest: Path, page: Path) -> list[str]:
    """Why the page at `page` is not what `manifest`'s runs make now (its text differs, a plot is missing); [] if it
    is."""
    if not Path(page).is_file():
        return [f"{page} does not exist"]
    made, committed = build(manifest).text.splitlines(), Path(page).read_text(encoding="utf-8").splitlines()
    problems = []
    if made != committed:
        n = next((i for i, (a, b) in enumerate(zip(made, committed)) if a != b), min(len(made), len(committed)))
        problems.append(f"{page} differs from what its manifest's runs make from line {n + 1}: "
                        f"{(committed[n:n + 1] or ['(end)'])[0][:160]!r} where it would be "
                        f"{(made[n:n + 1] or ['(end)'])[0][:160]!r}")
    problems += [f"{Path(page).parent / name} does not exist" for name in PLOTS if not (Path(page).parent / name).is_file()]
    return problems


def plot_accuracy(summaries: list[dict[str, Any]], path: Path) -> None:
    """iACC, partial credit and sACC (%) of each run as horizontal bars; no bar for a figure a run has not (sACC of
    an instruction-only run), rather than one of 0."""
    plt = pyplot()
    metrics = (("iacc", "iACC"), ("partial_credit", "partial credit"), ("sacc", "sACC"))
    labels = [s["run"] + ("" if s["complete"] else " (unfinished)") for s in summaries]
    frame = pd.DataFrame({name: [math.nan if s.get(key) is None else 100 * s[key] for s in summaries]
                          for key, name in metrics}, index=labels)
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.55 * len(summaries)))
    frame.plot.barh(ax=ax, width=0.8)
    for bars, column in zip(ax.containers, frame.columns):  # a figure a run has not: no label either
        ax.bar_label(bars, labels=["" if math.isnan(v) else f"{v:.1f}" for v in frame[column]], fontsize=7, padding=2)
    ax.invert_yaxis()
    ax.set_xlim(0, 115)
    ax.set_xlabel("%")
    ax.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False)
    fig.tight_layout()
    save_png(fig, path)
