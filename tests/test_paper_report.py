"""The report of a paper run, on synthetic run folders: the paper's Table 2, Table 3 and Fig. 3 as mean and spread over
the repeats beside the paper's own figures, the cost (as if each unit ran alone, and as asked of the endpoint), the
notice that DWBench here is ours, the unfinished units, the plots; and ``bench paper --report-only``."""

from __future__ import annotations

import json
import statistics

import pytest

from autodw.eval.paper import FIG_3, TABLE_2
from autodw.eval.paper_report import Spread, published, write_report
from tests.conftest import run_cli

SYSTEMS = (*TABLE_2, *FIG_3)
#: iACC (a share) of each system in repeat r: distinct per system and repeat, so a mix-up shows
BASE = {s: 0.1 + 0.1 * n for n, s in enumerate(SYSTEMS)}


def cells(line: str) -> list[str]:
    """The cells of a Markdown table row (none for another line)."""
    return [c.strip() for c in line.split("|")[1:-1]] if line.startswith("| ") else []


def section(text: str, heading: str) -> list[str]:
    """The lines of the report's section under `heading`, up to the next."""
    part = text.split(heading, 1)[1]
    return part.split("\n## ", 1)[0].splitlines()


def iacc(system: str, r: int) -> float:
    return round(BASE[system] + 0.02 * r, 4)


def record(path, **cost):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"key": path.stem, "session_id": "s", "turn": 1, "success": True, "partial_credit": 1.0,
                                "judge_version": 1, **cost}))


def make_unit(out, system: str, r: int, modes=("instruction", "session")) -> None:
    """A run folder like one `bench run` unit pair writes: summary.json, 4 instruction records, 2 sessions of 2
    turns."""
    folder = out / f"r{r}" / system
    folder.mkdir(parents=True)
    n = SYSTEMS.index(system) + 1
    for k in range(4):
        record(folder / "instructions" / f"s{k}--1.json", api_calls=n, llm_calls=2 * n, prompt_tokens=1000 * n,
               completion_tokens=100 * n, seconds=1.0 + r, recalled_seconds=0.5)
    if "session" in modes:
        for s in range(2):
            for t in (1, 2):
                record(folder / "sessions" / f"s{s}" / f"turn-{t}.json", api_calls=n, llm_calls=n,
                       prompt_tokens=500 * n, completion_tokens=50 * n, seconds=2.0)
    summary = {"system": system, "llm": "openai:model-x", "split": "test", "track": "templated", "judge_version": 1,
               "data_version": "2.0", "modes": list(modes), "iacc": iacc(system, r),
               "sacc": iacc(system, r) / 2 if "session" in modes else None,
               "instructions": 4, "instructions_in_split": 4, "sessions": 2 if "session" in modes else 0,
               "sessions_in_split": 2, "api_calls_per_instruction": float(n),
               "tokens_per_instruction": 1100.0 * n + r, "api_calls_per_session": 2.0 * n if "session" in modes else None,
               "tokens_per_session": 1100.0 * n if "session" in modes else None, "wall_seconds": 60.0 * r,
               "iacc_by_difficulty": {"easy": {"accuracy": 1.0, "n": 1}, "medium": {"accuracy": 0.5, "n": 2},
                                      "hard": {"accuracy": 0.25 * r, "n": 1}}}
    (folder / "summary.json").write_text(json.dumps(summary))


@pytest.fixture
def paper_run(tmp_path):
    out = tmp_path / "paper"
    for r in (1, 2, 3):
        for system in SYSTEMS:
            make_unit(out, system, r)
        # the endpoint was asked 5 answers in this repeat (units shared the rest through the cache); a cut last line
        entries = [{"key": f"k{k}", "role": "planner", "response": {"text": "x", "seconds": 1.0, "usage": {
            "prompt_tokens": 2000, "completion_tokens": 300}}} for k in range(5)]
        (out / f"llm-cache-r{r}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries) + '{"key": "cu')
    (out / "paper.json").write_text(json.dumps({"llm": "openai:model-x", "price_in": 0.5, "price_out": 2.0,
                                                "command": "autodw bench paper --llm openai:model-x --yes --out X"}))
    return out


def test_the_report_gives_mean_and_spread_over_repeats_beside_the_papers_figures(paper_run):
    path = write_report(paper_run)
    numbers = json.loads((paper_run / "report.json").read_text())
    assert numbers["repeats"] == [1, 2, 3] and numbers["unfinished"] == []
    for system in SYSTEMS:  # each figure the mean and sample sd of the three repeats, in %
        values = [100 * iacc(system, r) for r in (1, 2, 3)]
        got = numbers["here"][system]["iacc"]
        assert got["mean"] == pytest.approx(statistics.fmean(values)) and got["n"] == 3
        assert got["sd"] == pytest.approx(statistics.stdev(values)) and got["low"] == pytest.approx(min(values))
    assert numbers["here"]["autodw"]["iacc_hard"]["mean"] == pytest.approx(50.0)  # 25, 50, 75
    assert numbers["here"]["hybrid"]["tokens_per_instruction"]["mean"] == pytest.approx(1100 * 3 + 2)
    # cost: each unit summed over its records (4 instructions; 2 sessions of 2 turns), the same in every repeat
    n = SYSTEMS.index("hybrid") + 1
    instr, session = numbers["cost"]["hybrid instruction"], numbers["cost"]["hybrid session"]
    assert instr["llm_calls"]["mean"] == 8 * n and instr["prompt_tokens"]["mean"] == 4000 * n
    assert instr["seconds"]["mean"] == pytest.approx(4 * (1.5 + 2))  # wall plus recalled seconds, repeats 1..3
    assert session["records"]["mean"] == 4 and session["api_calls"]["mean"] == 4 * n
    assert instr["money"]["mean"] == pytest.approx((4000 * n * 0.5 + 400 * n * 2.0) / 1e6)  # paper.json's prices
    r1 = numbers["per_repeat"][0]
    assert r1["wall_seconds"] == 60.0 * len(SYSTEMS)
    assert r1["llm_calls"] == sum(8 * k + 4 * k for k in range(1, len(SYSTEMS) + 1))
    assert r1["asked"] == {"llm_calls": 5, "prompt_tokens": 10000, "completion_tokens": 1500, "seconds": 5.0}
    assert r1["asked_money"] == pytest.approx((10000 * 0.5 + 1500 * 2.0) / 1e6)

    text = path.read_text()
    assert "**DWBench here is this project's construction, not the paper's data.**" in text
    assert "250 sessions, 1,708 human-annotated instructions" in text
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert headings == ["# The paper's tables with openai:model-x", "## Table 2: approaches",
                        "## Table 3: iACC by difficulty", "## Fig. 3: rollback ablations", "## Cost"]
    paper = published()
    rows = {" ".join(c[:2]): c for c in map(cells, section(text, "## Table 2")) if c}
    autodw = [100 * iacc("autodw", r) for r in (1, 2, 3)]
    assert rows["AutoDW here"][2] == f"{statistics.fmean(autodw):.1f} ± {statistics.stdev(autodw):.1f}"
    assert rows["AutoDW paper"][2:] == ["90.33", "5.21", "42.8k", "62.00", "34.45", "284.9k"]
    assert rows["AutoDW vs. Hybrid paper"][5] == paper["table_2"]["autodw_vs_hybrid"]["sacc"] == "+76.1%"
    hybrid = statistics.fmean(100 * iacc("hybrid", r) for r in (1, 2, 3))
    assert rows["AutoDW vs. Hybrid here"][2] == f"{100 * (statistics.fmean(autodw) - hybrid) / hybrid:+.1f}%"
    table_3 = {c[0]: c for c in map(cells, section(text, "## Table 3")) if c}
    assert table_3["paper: GPT-4.1"][-3:] == ["95.77", "92.48", "87.85"]
    assert table_3["here: openai:model-x"][-1] == "50.0 ± 25.0"
    fig3 = {c[0]: c for c in map(cells, section(text, "## Fig. 3")) if c}
    assert fig3["AutoDW (full)"][1:5] == [f"{statistics.fmean(autodw):.1f} ± {statistics.stdev(autodw):.1f}", "90.3",
                                          fig3["AutoDW (full)"][3], "62.0"]
    assert fig3["wo. rollback"][2] == "71.8" and fig3["two-round"][4] == "64.8" and fig3["AutoDW (full)"][-1] == "+56%"
    here = numbers["here"]
    assert fig3["AutoDW (full)"][-2] == f"{100 * (here['autodw']['tokens_per_instruction']['mean'] / here['no-rollback']['tokens_per_instruction']['mean'] - 1):+.1f}%"
    assert "Made by: `autodw bench paper --llm openai:model-x --yes --out X`" in text
    assert "Money at 0.5 per million prompt tokens and 2 per million completion tokens" in text
    for name in ("table-2.png", "table-3.png", "fig-3.png"):
        assert (paper_run / name).read_bytes()[:4] == b"\x89PNG" and f"]({name})" in text


def test_an_unfinished_run_is_reported_over_what_finished_and_says_so(tmp_path):
    out = tmp_path / "paper"
    make_unit(out, "autodw", 1)
    make_unit(out, "hybrid", 1, modes=("instruction",))
    write_report(out)
    numbers = json.loads((out / "report.json").read_text())
    assert "r1/hybrid (session level)" in numbers["unfinished"] and "r1/autodw (session level)" not in numbers["unfinished"]
    assert numbers["here"]["reasoning-only"]["iacc"]["n"] == 0
    assert numbers["cost"]["hybrid session"]["llm_calls"]["n"] == 0  # not run: no cost of 0 averaged in
    assert numbers["cost"]["hybrid instruction"]["llm_calls"]["mean"] == 4 * 2 * (SYSTEMS.index("hybrid") + 1)
    text = (out / "report.md").read_text()
    assert "**Unfinished**" in text and "of one repeat (no spread)" in text
    assert "no money (no prices given" in text
    row = next(cells(line) for line in text.splitlines() if cells(line)[:2] == ["Reasoning-only", "here"])
    assert set(row[2:]) == {"-"}  # no figure rather than a 0


def test_spread_text():
    assert Spread.of([1.0, None, 3.0]).text(1) == "2.0 ± 1.4"
    assert Spread.of([42800.0]).text(1, thousands=True) == "42.8k"
    assert Spread.of([]).text() == "-"


def test_report_only_writes_the_report_again_and_an_empty_folder_is_refused(paper_run, tmp_path):
    result = run_cli("bench", "paper", "--report-only", "--out", str(paper_run), "--price-in", "1", "--price-out", "1")
    assert result.returncode == 0, result.stderr
    assert "Money at 1 per million prompt tokens and 1 per million" in (paper_run / "report.md").read_text()
    empty = run_cli("bench", "paper", "--report-only", "--out", str(tmp_path / "none"))
    assert empty.returncode == 2 and "holds no repeat of a paper run" in empty.stderr
    no_llm = run_cli("bench", "paper", "--out", str(tmp_path / "x"), "--dry-run")
    assert no_llm.returncode == 2 and "needs --llm" in no_llm.stderr
