"""The report of a paper run (``autodw bench paper``): the paper's Table 2, Table 3 and Fig. 3 made from the run folders
``OUT/rN/SYSTEM`` (:mod:`autodw.eval.paper`), each figure the mean and spread over the repeats, beside the paper's own
figures (:data:`PUBLISHED`, with the table or figure each comes from), with what the run cost (API calls, LLM calls,
tokens, time, and money at prices given). Written to ``OUT/report.md``, with ``OUT/report.json`` (the same numbers) and
the plots beside it; a pure function of the folder, so ``autodw bench paper --report-only`` writes it again.

The figures of a run folder are its ``summary.json``'s (:mod:`autodw.eval.metrics`); its cost the sum over its records,
each counted as if its unit ran alone (an answer recalled from the repeat's LLM cache with the tokens it first took).
What the endpoint was asked, and paid for, is the caches' entries: units of one repeat share their prompts.
"""

from __future__ import annotations

import json
import re
import statistics
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterable

import pandas as pd

from autodw.core.errors import ConfigError
from autodw.core.package import write_atomically
from autodw.core.plots import pyplot, save_png
from autodw.eval.metrics import RECORD_REMEDY, SUMMARY_FIELDS, SUMMARY_REMEDY, read_json, seconds
from autodw.eval.paper import FIG_3, MODES, TABLE_2, count_text, duration_text

#: the paper's own figures, with where each comes from
PUBLISHED = Path(__file__).with_name("paper_results.json")
#: the settings of the paper run, written by ``bench paper`` into its folder (prices among them)
SETTINGS = "paper.json"
REPORT = "report.md"
DIFFICULTIES = ("easy", "medium", "hard")
#: the names the paper gives the systems
NAMES = {"retrieval-only": "Retrieval-only", "reasoning-only": "Reasoning-only", "hybrid": "Hybrid",
         "autodw": "AutoDW", "no-rollback": "wo. rollback", "arg-rollback": "arg. rollback", "two-round": "two-round"}
#: a run folder's figures as the paper reports them: (name, the summary's value, scale)
FIGURES = (("iacc", "iacc", 100), ("apis_per_instruction", "api_calls_per_instruction", 1),
           ("tokens_per_instruction", "tokens_per_instruction", 1), ("sacc", "sacc", 100),
           ("apis_per_session", "api_calls_per_session", 1), ("tokens_per_session", "tokens_per_session", 1))
#: what a unit's records cost, summed
COSTS = ("api_calls", "llm_calls", "prompt_tokens", "completion_tokens", "seconds")


@dataclass(frozen=True)
class Spread:
    """Values over repeats: their mean, sample standard deviation (None for fewer than two), least, greatest and
    number (values that are None, a repeat without the figure, left out)."""

    mean: float | None
    sd: float | None
    low: float | None
    high: float | None
    n: int

    @classmethod
    def of(cls, values: Iterable[float | None]) -> "Spread":
        v = [float(x) for x in values if x is not None]
        if not v:
            return cls(None, None, None, None, 0)
        return cls(statistics.fmean(v), statistics.stdev(v) if len(v) > 1 else None, min(v), max(v), len(v))

    def text(self, digits: int = 1, thousands: bool = False, scale: float = 1) -> str:
        """``mean ± sd`` (``mean`` for one value, ``-`` for none), divided by `scale`; `thousands`: in k, as the paper
        prints tokens."""
        if self.mean is None:
            return "-"
        scale, suffix = (1000 * scale, "k") if thousands else (scale, "")
        text = f"{self.mean / scale:,.{digits}f}{suffix}"
        return text + (f" ± {self.sd / scale:,.{digits}f}{suffix}" if self.sd is not None else "")


# --- the numbers ----------------------------------------------------------------------------------------------------


def repeats_of(out: Path) -> list[int]:
    """The repeats a paper run folder holds (its ``rN`` folders), in order."""
    found = sorted(int(m.group(1)) for p in out.glob("r*") if p.is_dir() and (m := re.fullmatch(r"r(\d+)", p.name)))
    if not found:
        raise ConfigError(f"{out} holds no repeat of a paper run (no r1/, r2/ ...): run autodw bench paper --out {out}")
    return found


def folder_figures(folder: Path) -> dict[str, Any] | None:
    """One run folder's figures (``summary.json``) and cost (its records), or None if it has no summary yet."""
    path = folder / "summary.json"
    if not path.is_file():
        return None
    s = read_json(path, SUMMARY_REMEDY, SUMMARY_FIELDS)
    figures = {name: None if s.get(key) is None else s[key] * scale for name, key, scale in FIGURES}
    for d in DIFFICULTIES:
        accuracy = (s.get("iacc_by_difficulty", {}).get(d) or {}).get("accuracy")
        figures[f"iacc_{d}"] = None if accuracy is None else 100 * accuracy
    modes = s.get("modes", [])
    done = {"instruction": "instruction" in modes and s["instructions"] == s["instructions_in_split"],
            "session": "session" in modes and s["sessions"] == s["sessions_in_split"]}
    records = {"instruction": sorted((folder / "instructions").glob("*.json")),
               "session": sorted((folder / "sessions").glob("*/turn-*.json"))}
    cost = {mode: unit_cost(paths) for mode, paths in records.items()}
    return {**figures, "complete": done, "cost": cost, "wall_seconds": s.get("wall_seconds"), "llm": s["llm"],
            "track": s.get("track"), "split": s["split"], "data_version": s.get("data_version"),
            "instructions_in_split": s.get("instructions_in_split"), "sessions_in_split": s.get("sessions_in_split")}


def unit_cost(records: list[Path]) -> dict[str, float]:
    """The summed API calls, LLM calls, tokens and seconds of a unit's records (each as if it ran alone)."""
    total = dict.fromkeys(COSTS, 0.0) | {"records": len(records)}
    for path in records:
        r = read_json(path, RECORD_REMEDY)
        for key in COSTS[:-1]:
            total[key] += r.get(key) or 0
        total["seconds"] += seconds(r)
    return total


def asked(cache: Path) -> dict[str, float]:
    """What the endpoint was asked in one repeat: its LLM cache's entries (each answer asked once) and their tokens."""
    total = {"llm_calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "seconds": 0.0}
    if not cache.is_file():
        return total
    for line in cache.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:  # a line cut by a kill: the next run drops it and asks again
            continue
        if "key" in entry:
            usage = entry["response"].get("usage", {})
            total["llm_calls"] += 1
            total["prompt_tokens"] += usage.get("prompt_tokens", 0)
            total["completion_tokens"] += usage.get("completion_tokens", 0)
            total["seconds"] += entry["response"].get("seconds") or 0.0
    return total


def money(tokens: dict[str, float], prices: tuple[float, float] | None) -> float | None:
    """The price of `tokens` at (per million prompt, per million completion tokens); None without prices."""
    if prices is None:
        return None
    return (tokens["prompt_tokens"] * prices[0] + tokens["completion_tokens"] * prices[1]) / 1e6


def collect(out: Path, prices: tuple[float, float] | None = None) -> dict[str, Any]:
    """The numbers of the report: per system each figure's :class:`Spread` over the repeats, each unit's cost, and
    per repeat its totals and what the endpoint was asked."""
    repeats = repeats_of(out)
    found = {(system, r): folder_figures(out / f"r{r}" / system) for system in (*TABLE_2, *FIG_3) for r in repeats}
    any_run = next((f for f in found.values() if f is not None), None)
    if any_run is None:
        raise ConfigError(f"{out} holds no finished unit yet (no r*/SYSTEM/summary.json)")
    names = [n for n, _, _ in FIGURES] + [f"iacc_{d}" for d in DIFFICULTIES]
    here, cost, missing = {}, {}, []
    for system in (*TABLE_2, *FIG_3):
        runs = [found[(system, r)] for r in repeats]
        here[system] = {n: asdict(Spread.of(f[n] for f in runs if f is not None)) for n in names}
        for mode in MODES:
            missing += [f"r{r}/{system} ({mode} level)" for r, f in zip(repeats, runs) if not (f and f["complete"][mode])]
            totals = [f["cost"][mode] for f in runs if f is not None and f["cost"][mode]["records"]]  # not run: none
            cost[f"{system} {mode}"] = {k: asdict(Spread.of(t[k] for t in totals)) for k in (*COSTS, "records")}
            cost[f"{system} {mode}"]["money"] = asdict(Spread.of(money(t, prices) for t in totals))
    per_repeat = []
    for r in repeats:
        runs = [f for (_, rr), f in found.items() if rr == r and f is not None]
        total = {k: sum(f["cost"][m][k] for f in runs for m in MODES) for k in COSTS}
        endpoint = asked(out / f"llm-cache-r{r}.jsonl")
        per_repeat.append({"repeat": r, **total, "money": money(total, prices),
                           "wall_seconds": sum(f["wall_seconds"] or 0 for f in runs), "asked": endpoint,
                           "asked_money": money(endpoint, prices)})
    return {"llm": any_run["llm"], "track": any_run["track"], "split": any_run["split"],
            "data_version": any_run["data_version"], "instructions": any_run["instructions_in_split"],
            "sessions": any_run["sessions_in_split"], "repeats": repeats, "prices": prices, "here": here,
            "cost": cost, "per_repeat": per_repeat, "unfinished": missing}


def published(path: Path = PUBLISHED) -> dict[str, Any]:
    """The paper's own figures (:data:`PUBLISHED`)."""
    return json.loads(path.read_text(encoding="utf-8"))


# --- the report -----------------------------------------------------------------------------------------------------


def _here(numbers: dict[str, Any], system: str, name: str, digits: int = 1, thousands: bool = False) -> str:
    return Spread(**numbers["here"][system][name]).text(digits, thousands)


def _paper(value: float | None, digits: int = 2, thousands: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value / 1000:.1f}k" if thousands else f"{value:.{digits}f}"


def _relative(new: float | None, old: float | None) -> str:
    return "-" if new is None or not old else f"{100 * (new - old) / old:+.1f}%"


#: the columns of Table 2 and 3: (heading, figure, digits, in thousands)
COLUMNS = (("iACC (%)", "iacc", 1, False), ("#APIs / instr.", "apis_per_instruction", 2, False),
           ("#Tokens / instr.", "tokens_per_instruction", 1, True), ("sACC (%)", "sacc", 1, False),
           ("#APIs / session", "apis_per_session", 2, False), ("#Tokens / session", "tokens_per_session", 1, True))


def table_2(numbers: dict[str, Any], paper: dict[str, Any]) -> pd.DataFrame:
    """The paper's Table 2: each approach here (mean ± sd over the repeats) and in the paper, and AutoDW against
    Hybrid (here: of the means)."""
    rows = []
    for system in TABLE_2:
        rows.append({"Approach": NAMES[system], "": "here",
                     **{h: _here(numbers, system, k, d, t) for h, k, d, t in COLUMNS}})
        rows.append({"Approach": NAMES[system], "": "paper",
                     **{h: _paper(paper["table_2"]["rows"][system][k], thousands=t) for h, k, _, t in COLUMNS}})
    mean = {s: {k: numbers["here"][s][k]["mean"] for _, k, _, _ in COLUMNS} for s in ("autodw", "hybrid")}
    rows.append({"Approach": "AutoDW vs. Hybrid", "": "here",
                 **{h: _relative(mean["autodw"][k], mean["hybrid"][k]) for h, k, _, _ in COLUMNS}})
    rows.append({"Approach": "AutoDW vs. Hybrid", "": "paper",
                 **{h: paper["table_2"]["autodw_vs_hybrid"][k] for h, k, _, _ in COLUMNS}})
    return pd.DataFrame(rows)


def table_3(numbers: dict[str, Any], paper: dict[str, Any]) -> pd.DataFrame:
    """The paper's Table 3: AutoDW with this run's LLM here, and with the paper's four LLMs; iACC by difficulty."""
    columns = (*COLUMNS, *((f"iACC {d} (%)", f"iacc_{d}", 1, False) for d in DIFFICULTIES))
    rows = [{"LLM": f"here: {numbers['llm']}", **{h: _here(numbers, "autodw", k, d, t) for h, k, d, t in columns}}]
    for llm, figures in paper["table_3"]["rows"].items():
        rows.append({"LLM": f"paper: {llm}", **{h: _paper(figures[k], thousands=t) for h, k, _, t in columns}})
    return pd.DataFrame(rows)


def fig_3(numbers: dict[str, Any], paper: dict[str, Any]) -> pd.DataFrame:
    """The paper's Fig. 3: the rollback ablations' accuracy and tokens here and in the paper (whose tokens are drawn,
    not printed: only the full rollback's +56% over no rollback is in its text)."""
    rows = []
    base = numbers["here"]["no-rollback"]["tokens_per_instruction"]["mean"]
    for system in ("no-rollback", "arg-rollback", "autodw", "two-round"):
        theirs = paper["fig_3"]["rows"][system]
        vs = theirs.get("tokens_vs_no_rollback")
        rows.append({"Rollback": NAMES[system] + (" (full)" if system == "autodw" else ""),
                     "iACC (%) here": _here(numbers, system, "iacc"), "iACC (%) paper": _paper(theirs["iacc"], 1),
                     "sACC (%) here": _here(numbers, system, "sacc"), "sACC (%) paper": _paper(theirs["sacc"], 1),
                     "#Tokens / instr. here": _here(numbers, system, "tokens_per_instruction", 1, True),
                     "#Tokens / session here": _here(numbers, system, "tokens_per_session", 1, True),
                     "tokens vs wo. rollback here": _relative(
                         numbers["here"][system]["tokens_per_instruction"]["mean"], base),
                     "tokens vs wo. rollback paper": "-" if vs is None else f"{100 * (vs - 1):+.0f}%"})
    return pd.DataFrame(rows)


def _money_digits(x: float | None) -> int:
    """Cents, or four decimals for sums under one (a trial run on a few sessions)."""
    return 2 if x is None or abs(x) >= 1 else 4


def _money(x: float | None) -> str:
    return "-" if x is None else f"{x:,.{_money_digits(x)}f}"


def cost_table(numbers: dict[str, Any]) -> pd.DataFrame:
    """Each unit's cost per repeat (mean ± sd): what it ran, API calls, LLM calls, tokens, system time, money."""
    rows = []
    for system in (*TABLE_2, *FIG_3):
        for mode in MODES:
            c = {k: Spread(**v) for k, v in numbers["cost"][f"{system} {mode}"].items()}
            rows.append({"system": system, "level": mode, "records": c["records"].text(0),
                         "API calls": c["api_calls"].text(0), "LLM calls": c["llm_calls"].text(0),
                         "prompt tokens": c["prompt_tokens"].text(1, True),
                         "completion tokens": c["completion_tokens"].text(1, True),
                         "system time (min)": c["seconds"].text(1, scale=60),
                         "money": c["money"].text(_money_digits(c["money"].mean))})
    return pd.DataFrame(rows)


def repeat_table(numbers: dict[str, Any]) -> pd.DataFrame:
    """Each repeat's totals: wall time, the calls and tokens of its units (each as if alone) and what the endpoint
    was asked (the repeat's LLM cache), and their money."""
    rows = []
    for r in numbers["per_repeat"]:
        a = r["asked"]
        rows.append({"repeat": r["repeat"], "wall time": duration_text(r["wall_seconds"] / 60),
                     "LLM calls (units alone)": count_text(r["llm_calls"]),
                     "tokens in + out (units alone)": f"{count_text(r['prompt_tokens'])} + {count_text(r['completion_tokens'])}",
                     "money (units alone)": _money(r["money"]),
                     "LLM calls asked": count_text(a["llm_calls"]),
                     "tokens in + out asked": f"{count_text(a['prompt_tokens'])} + {count_text(a['completion_tokens'])}",
                     "money asked": _money(r["asked_money"])})
    return pd.DataFrame(rows)


def _markdown(frame: pd.DataFrame) -> str:
    return frame.to_markdown(index=False, disable_numparse=True)


def report_text(numbers: dict[str, Any], paper: dict[str, Any], command: str | None = None) -> str:
    """``report.md``: the notice that the data are ours, Table 2, Table 3, Fig. 3, the cost, and what is unfinished."""
    n = len(numbers["repeats"])
    prices = numbers["prices"]
    lines = [
        f"# The paper's tables with {numbers['llm']}",
        "",
        f"**DWBench here is this project's construction, not the paper's data.** These runs are on DWBench "
        f"{numbers['data_version']}, {numbers['track']} track, split {numbers['split']} ({numbers['sessions']} sessions, "
        f"{numbers['instructions']} instructions), with this project's APIs and judge; the paper's figures are on "
        f"{paper['benchmark']}, with {paper['default_llm']} unless a row names another LLM. They stand beside ours for reference: the two are not measured on the same instructions, APIs or "
        "judge, so a difference between them is not a difference between models.",
        "",
        f"Here: {n} repeat(s) ({', '.join(f'r{r}' for r in numbers['repeats'])}); each figure is the mean "
        + ("± the sample standard deviation over the repeats." if n > 1 else "of one repeat (no spread).")
        + f" The paper's: {paper['repeats']}. Its figures: autodw/eval/{PUBLISHED.name}, each with the table or "
          "figure it comes from.",
    ]
    if command:
        lines += ["", f"Made by: `{command}`"]
    if numbers["unfinished"]:
        lines += ["", f"**Unfinished** ({len(numbers['unfinished'])} unit(s); their figures are over the records so "
                      f"far, or missing): {', '.join(numbers['unfinished'])}. The same `autodw bench paper` command "
                      "continues the run; `--report-only` writes this report again."]
    lines += ["", f"## Table 2: approaches\n\n{paper['table_2']['where']}; here, per instruction over the "
                  "instruction-level runs (each from its gold start) and per session over the session-level runs. "
                  "AutoDW vs. Hybrid here: of the means.", "", _markdown(table_2(numbers, paper)), "",
              "![Table 2](table-2.png)", "",
              f"## Table 3: iACC by difficulty\n\n{paper['table_3']['where']}. Difficulty: "
              f"{paper['table_3']['difficulty']}.", "", _markdown(table_3(numbers, paper)), "",
              "![Table 3](table-3.png)", "",
              f"## Fig. 3: rollback ablations\n\n{paper['fig_3']['where']}; {paper['fig_3']['units']}.", "",
              _markdown(fig_3(numbers, paper)), "", "![Fig. 3](fig-3.png)", "",
              "## Cost", "",
              "Per unit and repeat (mean ± sd over the repeats): the records it ran (instructions or session turns), "
              "the document API calls executed, the LLM calls and tokens as if it ran alone (an answer recalled from "
              "the repeat's LLM cache counted with the tokens it first took), its system time (the recalled answers' "
              "model time included) and "
              + ("the money at the prices given." if prices else "no money (no prices given: --price-in X "
                                                                  "--price-out Y, per million tokens)."), "",
              _markdown(cost_table(numbers)), "",
              "Per repeat: the wall time of its units, one after another; what its units took as if each ran alone; "
              "and what the endpoint was asked: the units of a repeat share its LLM cache, so a prompt two units "
              "ask (the agent and its ablations until their first rollback) is asked and paid once.", "",
              _markdown(repeat_table(numbers))]
    if prices:
        lines += ["", f"Money at {prices[0]:g} per million prompt tokens and {prices[1]:g} per million completion "
                      "tokens (the prices given; discounts for cached prompts not counted)."]
    return "\n".join(lines) + "\n"


# --- the plots ------------------------------------------------------------------------------------------------------


def _bars(ax: Any, groups: list[str], series: list[tuple[str, list[float | None], list[float | None]]]) -> None:
    """Grouped bars: a group per label of `groups`, a bar per series (name, values, error bars); None: no bar."""
    width = 0.8 / len(series)
    for i, (name, values, errors) in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        spread = None if all(e is None for e in errors) else [0 if e is None else e for e in errors]
        ax.bar(xs, [float("nan") if v is None else v for v in values], width, label=name, yerr=spread, capsize=3)
    ax.set_xticks(range(len(groups)), groups, fontsize=8)


def _series(numbers: dict[str, Any], systems: Iterable[str], name: str) -> tuple[list, list]:
    spreads = [numbers["here"][s][name] for s in systems]
    return [s["mean"] for s in spreads], [s["sd"] for s in spreads]


def plot_all(numbers: dict[str, Any], paper: dict[str, Any], out: Path) -> None:
    """table-2.png, table-3.png and fig-3.png in `out`: here (with the spread as error bars) beside the paper."""
    plt = pyplot()
    llm = numbers["llm"]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, (name, title) in zip(axes, (("iacc", "iACC (%)"), ("sacc", "sACC (%)"))):
        _bars(ax, [NAMES[s] for s in TABLE_2], [
            (f"here ({llm})", *_series(numbers, TABLE_2, name)),
            (f"paper ({paper['default_llm']})", [paper["table_2"]["rows"][s][name] for s in TABLE_2], [None] * 4)])
        ax.set_title(title)
    axes[0].legend(fontsize=7)
    fig.suptitle("Table 2 (DWBench here is ours, not the paper's)", fontsize=9)
    fig.tight_layout()
    save_png(fig, out / "table-2.png")

    fig, ax = plt.subplots(figsize=(8, 4))
    autodw = numbers["here"]["autodw"]
    _bars(ax, list(DIFFICULTIES), [
        (f"here ({llm})", [autodw[f"iacc_{d}"]["mean"] for d in DIFFICULTIES], [autodw[f"iacc_{d}"]["sd"] for d in DIFFICULTIES]),
        *((f"paper ({name})", [row[f"iacc_{d}"] for d in DIFFICULTIES], [None] * 3)
          for name, row in paper["table_3"]["rows"].items())])
    ax.set_ylabel("iACC (%)")
    ax.set_title("Table 3: AutoDW's iACC by difficulty (DWBench here is ours)", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    save_png(fig, out / "table-3.png")

    ablations = ("no-rollback", "arg-rollback", "autodw", "two-round")
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    for ax, (name, title) in zip(axes, (("iacc", "iACC (%)"), ("sacc", "sACC (%)"))):
        _bars(ax, [NAMES[s] for s in ablations], [
            (f"here ({llm})", *_series(numbers, ablations, name)),
            ("paper", [paper["fig_3"]["rows"][s][name] for s in ablations], [None] * 4)])
        ax.set_title(title)
    _bars(axes[2], [NAMES[s] for s in ablations],
          [(f"here ({llm})", *_series(numbers, ablations, "tokens_per_instruction"))])
    axes[2].set_title("tokens per instruction (the paper prints none)", fontsize=9)
    axes[0].legend(fontsize=7)
    fig.suptitle("Fig. 3: rollback ablations (DWBench here is ours, not the paper's)", fontsize=9)
    fig.tight_layout()
    save_png(fig, out / "fig-3.png")


def write_report(out: Path, prices: tuple[float, float] | None = None) -> Path:
    """``OUT/report.md``, ``OUT/report.json`` and the plots of paper run folder `out`; prices (per million prompt and
    completion tokens): those given, else the run's (``OUT/paper.json``), else none. The report's path."""
    out = Path(out)
    command = None
    settings = out / SETTINGS
    if settings.is_file():
        recorded = read_json(settings, "delete it (the next autodw bench paper run writes it again)")
        command = recorded.get("command")
        if prices is None and recorded.get("price_in") is not None:
            prices = (recorded["price_in"], recorded["price_out"])
    numbers = collect(out, prices)
    paper = published()
    text = report_text(numbers, paper, command)
    plot_all(numbers, paper, out)
    write_atomically(out / "report.json", (json.dumps(numbers, indent=1) + "\n").encode("utf-8"))
    write_atomically(out / REPORT, text.encode("utf-8"))
    return out / REPORT
