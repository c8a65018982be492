"""Reports across run folders: Markdown tables like the paper's Tables 2 and 3 (pandas), the accuracy-vs-tokens plot
(Fig. 3) and iACC and partial credit by difficulty; the threshold sweep's table and plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from autodw.core.errors import ConfigError, OutputPathError
from autodw.eval.metrics import (SUMMARY_FIELDS, SUMMARY_REMEDY, data_version, judge_version, read_json, rejudge_hint,
                                 run_track)
from autodw.core.package import write_atomically
from autodw.core.plots import pyplot, save_png

DIFFICULTIES = ("easy", "medium", "hard")
LANGUAGES = ("en", "zh")


def _pct(x: float | None) -> str:
    return "-" if x is None or pd.isna(x) else f"{100 * x:.1f}"


def _num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None or pd.isna(x) else f"{x:,.{digits}f}"


def load_summaries(runs: list[Path]) -> list[dict[str, Any]]:
    """Each run folder's ``summary.json`` (ConfigError naming a folder that has none)."""
    out = []
    for run in runs:
        path = run / "summary.json"
        if not path.is_file():
            raise ConfigError(f"{run} is not a run folder (no summary.json); make one with autodw bench run")
        summary = read_json(path, SUMMARY_REMEDY, SUMMARY_FIELDS)
        summary["run"] = run.name
        out.append(summary)
    return out


def _setting(summary: dict[str, Any]) -> str:
    """A run's options (the noisy oracle's), its profile, and the acceptance threshold when an LLM validator uses it
    (the ``local`` profile judges by rule checks alone, so its threshold decides nothing; the noisy oracle uses the
    validator its ``validator`` option names, whatever the profile says)."""
    options = summary.get("options", {})
    config = options.get("config") or {}
    if "parts" in config:  # an agent assembly (autodw.agent.assembly): what of it the setting shows
        config = {"profile": config["profile"], "threshold": config["numbers"]["threshold"],
                  "llm_validator": "llm" in config["parts"]["validator"]}
    parts = [f"{k}={v}" for k, v in options.items() if k != "config"]
    if "profile" in config:
        parts.append(f"profile={config['profile']}")
    llm_validator = options["validator"] == "llm" if "validator" in options else config.get("llm_validator", True)
    if llm_validator and "threshold" in config:
        parts.append(f"threshold={config['threshold']}")
    return ", ".join(parts) or "-"


def split_label(summary: dict[str, Any]) -> str:
    """The run's track and split and whether anything was tuned on it (``autodw/core/provenance.json``): "hand/test (held
    out)", "templated/dev (tuned on)"; a split of data this autodw does not describe is shown bare."""
    from autodw.core.errors import ConfigError
    from autodw.core.provenance import label

    track, split = run_track(summary), summary["split"]
    try:
        return f"{track}/{split} ({label(data_version(summary), track, split)})"
    except ConfigError:
        return f"{track}/{split}"


def table(summaries: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per run: accuracy (iACC of test's held-out part too), cost (per instruction, and the systems' and the
    runner's seconds in all), the validator on injected faults, iACC and partial credit by difficulty and language."""
    rows = []
    for s in summaries:
        row = {"run": s["run"], "system": s["system"], "setting": _setting(s), "LLM": s["llm"], "split": split_label(s),
               "iACC %": _pct(s["iacc"]),
               "partial credit %": _pct(s.get("partial_credit")) + (" (some not scored)" if s.get("partial_credit_missing") else ""),
               "sACC %": _pct(s["sacc"]), "final-state sACC %": _pct(s["sacc_final"]),
               "turns before failure": _num(s["turns_before_failure"], 2),
               "instructions": f"{s['instructions']}/{s['instructions_in_split']}",
               "sessions": f"{s['sessions']}/{s['sessions_in_split']}",
               "API calls / instr.": _num(s["api_calls_per_instruction"], 2),
               "LLM calls / instr.": _num(s["llm_calls_per_instruction"], 2),
               "tokens / instr.": _num(s["tokens_per_instruction"], 0),
               "s / instr. (median)": _num(s["median_seconds_per_instruction"], 1),
               "iACC held-out part %": _pct(s.get("iacc_held_out")),
               "system time (s)": _num(s.get("seconds"), 0), "wall time (s)": _num(s.get("wall_seconds"), 0)}
        faults = s.get("faults") or {}
        row["faults caught"] = f"{faults['caught']}/{faults['judged_faults']}" if faults else "-"
        row["validator precision"] = _num(faults.get("precision"), 3) if faults else "-"
        row["validator recall"] = _num(faults.get("recall"), 3) if faults else "-"
        row["false rejections"] = str(faults["false_rejections"]) if faults else "-"
        for group, keys in (("difficulty", DIFFICULTIES), ("language", LANGUAGES)):
            for k in keys:
                row[f"iACC {k} %"] = _pct((s[f"iacc_by_{group}"].get(k) or {}).get("accuracy"))
                row[f"partial credit {k} %"] = _pct((s.get(f"partial_credit_by_{group}", {}).get(k) or {}).get("partial_credit"))
        for lang in LANGUAGES:
            row[f"sACC {lang} %"] = _pct((s["sacc_by_language"].get(lang) or {}).get("accuracy"))
        rows.append(row)
    return pd.DataFrame(rows)


#: the report's tables (the columns of :func:`table` each shows, after ``run``); the validator's only for runs that
#: injected faults
SECTIONS = {
    "Accuracy and cost": ["system", "setting", "LLM", "split", "iACC %", "partial credit %", "sACC %",
                          "final-state sACC %", "turns before failure", "instructions", "sessions",
                          "API calls / instr.", "LLM calls / instr.", "tokens / instr.", "s / instr. (median)"],
    "By difficulty and language": [f"{m} {k} %" for k in DIFFICULTIES for m in ("iACC", "partial credit")]
                                  + [f"{m} {k} %" for k in LANGUAGES for m in ("iACC", "partial credit", "sACC")],
    "The validator on injected faults": ["faults caught", "validator precision", "validator recall",
                                         "false rejections"],
}


def sections(frame: pd.DataFrame, tables: dict[str, list[str]] = SECTIONS) -> str:
    """The Markdown tables of `tables` (title: columns; default :data:`SECTIONS`), each of the rows that have its
    figures."""
    parts = []
    for title, columns in tables.items():
        rows = frame[frame["faults caught"] != "-"] if title.startswith("The validator") else frame
        if len(rows):
            parts.append(f"## {title}\n\n" + rows[["run", *columns]].to_markdown(index=False, disable_numparse=True))
    return "\n\n".join(parts) + "\n"


def paired(baseline: Path, runs: list[Path]) -> tuple[pd.DataFrame, list[str]]:
    """Each run against `baseline` on the instructions both finished (:func:`autodw.eval.compare.compare`); and why
    the others cannot be paired (a session-only run, another split)."""
    from autodw.eval.compare import compare

    rows, unpaired = [], []
    for run in runs:
        if run.resolve() == baseline.resolve():
            continue
        try:
            c = compare(baseline, run)
        except ConfigError as exc:
            unpaired.append(f"{run.name} ({exc})")
            continue
        low, high = c["difference_95ci"]
        left_out = f" ({len(c['left_out'])} left out: {', '.join(c['left_out'])})" if c["left_out"] else ""
        rows.append({"run": run.name, "instructions": f"{c['instructions']}{left_out}",
                     "iACC % (baseline, run)": f"{_pct(c['iacc_a'])}, {_pct(c['iacc_b'])}",
                     "only baseline / only run right": f"{c['only_a_succeeded']} / {c['only_b_succeeded']}",
                     "McNemar p": f"{c['mcnemar_p']:.3g}",
                     "partial credit (baseline, run)": f"{c['partial_credit_a']:.3f}, {c['partial_credit_b']:.3f}",
                     "difference [95% interval]": f"{c['partial_credit_difference']:+.3f} [{low:+.3f}, {high:+.3f}]",
                     "run higher / equal / lower": f"{c['b_higher']} / {c['equal']} / {c['b_lower']}"})
    return pd.DataFrame(rows), unpaired


def report(runs: list[Path], out: Path | None = None, baseline: Path | None = None) -> str:
    """The Markdown report of `runs`; with `baseline`, each run paired with it too; with `out`, written there with
    the plots beside it."""
    summaries = load_summaries(runs + ([baseline] if baseline is not None else []))[: len(runs)]  # the baseline too
    frame = table(summaries)
    text = "# DWBench results\n\n" + sections(frame)
    session_only = [s["run"] for s in summaries if s["instructions"] == 0 and s["sessions"]]
    if session_only:
        text += (f"\nSession-only runs ({', '.join(session_only)}): the cost per instruction is over the session turns "
                 "run.\n")
    versions = sorted({judge_version(s) for s in summaries})
    text += ("\nJudged by judge version " + str(versions[0]) + ".\n" if len(versions) == 1 else
             "\nThese runs were judged by different judge versions (" + "; ".join(
                 f"{s['run']}: {judge_version(s)}" for s in summaries) + "): their figures are not comparable; "
             f"{rejudge_hint('RUN')}.\n")
    data = sorted({data_version(s) for s in summaries})
    text += (f"\nOn DWBench {data[0]} data.\n" if len(data) == 1 else
             "\nThese runs were made on different DWBench data (" + "; ".join(
                 f"{s['run']}: {data_version(s)}" for s in summaries) + "): the instructions changed in between are "
             "not the same (`autodw bench compare` leaves them out).\n")
    partial = [s["run"] for s in summaries if not s.get("complete")]
    if partial:
        text += f"\nUnfinished runs (figures over the records so far): {', '.join(partial)}.\n"
    if baseline is not None:
        pairs, unpaired = paired(baseline, runs)
        text += f"\n## Paired with {baseline.name} (the instructions both finished)\n\n"
        if len(pairs):
            text += pairs.to_markdown(index=False, disable_numparse=True) + "\n"
        if unpaired:
            text += "\nNot paired: " + "; ".join(unpaired) + ".\n"
    if out is not None:
        if out.is_dir():
            raise OutputPathError(f"{out} is a folder; give the report's file name (its plots go beside it)")
        stem = out.with_suffix("")
        tokens_png, difficulty_png = Path(f"{stem}-accuracy-tokens.png"), Path(f"{stem}-difficulty.png")
        _plot_tokens(summaries, tokens_png)
        text += f"\n![accuracy vs tokens]({tokens_png.name})\n"
        if plot_difficulty(summaries, difficulty_png):
            text += f"\n![iACC and partial credit by difficulty]({difficulty_png.name})\n"
        write_atomically(out, text.encode("utf-8"))
    return text


def _plot_tokens(summaries: list[dict[str, Any]], path: Path) -> None:
    """Accuracy against tokens per instruction (the paper's Fig. 3): a colour per run, a marker per metric, both in
    the legend (labels beside the points overlapped where runs score alike)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    metrics = (("iacc", "o", "iACC"), ("sacc", "s", "sACC"), ("partial_credit", "^", "partial credit"))
    for i, s in enumerate(summaries):
        if (x := s["tokens_per_instruction"]) is None:  # no record yet: no point (rather than one at 0 tokens)
            continue
        colour = colours[i % len(colours)]
        ax.scatter([], [], marker="o", color=colour, label=f"{s['system']} ({s['run']})")
        for metric, marker, _ in metrics:
            if s.get(metric) is not None:
                ax.scatter(x, 100 * s[metric], marker=marker, color=colour, alpha=0.85)
    for _, marker, name in metrics:
        ax.scatter([], [], marker=marker, color="grey", label=name)
    ax.set_xlabel("tokens per instruction")
    ax.set_ylabel("accuracy, partial credit (%)")
    ax.set_title("accuracy vs tokens per instruction")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    fig.tight_layout()
    save_png(fig, path)


def _by_difficulty(summaries: list[dict[str, Any]], key: str, value: str) -> pd.DataFrame:
    """`value` (%) of each run's `key` figures by difficulty, a column per run; NaN (no bar) for a difficulty a run
    has no instruction of, rather than a bar of 0."""
    def percent(figures: dict[str, Any] | None) -> float:
        return float("nan") if (figures or {}).get(value) is None else 100 * figures[value]

    return pd.DataFrame({f"{s['system']} ({s['run']})": [percent((s.get(key) or {}).get(d)) for d in DIFFICULTIES]
                         for s in summaries}, index=list(DIFFICULTIES))


def plot_difficulty(summaries: list[dict[str, Any]], path: Path) -> bool:
    """iACC and partial credit by difficulty, grouped bars per run with instruction-mode results (partial credit
    orders runs whose iACC is 0); False, and nothing written, when no run has them."""
    plt = pyplot()
    summaries = [s for s in summaries if s.get("iacc") is not None]  # session-only runs have no instruction figures
    if not summaries:
        return False
    panels = [("iACC", "iacc_by_difficulty", "accuracy"), ("partial credit", "partial_credit_by_difficulty", "partial_credit")]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6), sharey=True)
    for ax, (title, key, value) in zip(axes, panels):
        _by_difficulty(summaries, key, value).plot.bar(ax=ax, rot=0, legend=False)
        ax.set_title(f"{title} by difficulty")
    axes[0].set_ylabel("%")
    handles, labels = axes[-1].get_legend_handles_labels()  # below the panels, where no bar is covered
    fig.legend(handles, labels, fontsize=7, loc="lower center", ncol=3, frameon=False)
    fig.tight_layout(rect=(0, 0.04 * ((len(labels) + 2) // 3) + 0.02, 1, 1))
    save_png(fig, path)
    return True


def write_sweep(rows: list[dict[str, Any]], out: Path, plot: str | None = None) -> str:
    """The threshold sweep as Markdown (``OUT/sweep.md``) and, with `plot`, a PNG of iACC, faults caught and false
    rejections against the threshold."""
    frame = pd.DataFrame(rows).convert_dtypes()  # counts stay integers where a column has gaps
    text = frame.to_markdown(index=False, disable_numparse=True) + "\n"
    (out / "sweep.md").write_text(text, encoding="utf-8")
    (out / "sweep.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    if plot:
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(6.5, 4))
        ax.plot(frame["threshold"], 100 * frame["iacc"], marker="o", label="iACC (%)")
        judged = frame["judged_faults"].replace(0, pd.NA)
        ax.plot(frame["threshold"], 100 * frame["caught"] / judged, marker="s", label="faults caught (%)")
        ax.plot(frame["threshold"], frame["false_rejections"], marker="^", label="false rejections (count)")
        ax.set_xlabel("acceptance threshold")
        ax.legend()
        ax.set_title("noisy oracle: sensitivity to the threshold")
        fig.tight_layout()
        save_png(fig, plot)
    return text
