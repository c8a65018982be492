"""DWBench 2.0 tools on small fake splits: leakage between splits, the new stats keys, the Parquet export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autodw.interfaces.cli import main
from autodw.dwbench import records
from autodw.dwbench.export import export, features, row
from autodw.dwbench.leakage import clauses_of, leakage
from autodw.dwbench.records import Session, instruction_from_record, instruction_record
from autodw.dwbench.stats import compute_stats


def rec(sid: str, turn: int, text: str, *, language: str = "en", doc: str = "docs/report-en-1.docx", kind: str = "generated",
        split: str = "dev", templates: tuple[str, ...] = ("t",), **new: Any) -> dict[str, Any]:
    """A record as the generator writes it (1.1 fields), plus any 2.0 fields given."""
    r = instruction_record(session_id=sid, turn=turn, instruction=text, language=language, doc_language=language,
                           doc_kind="report", source={"kind": kind, "file": doc, "sha256": "0" * 64},
                           calls=[("insert_paragraph", {"position": "end", "text": "x"})], intents=["content_creation"],
                           free_text=False, split=split, templates=list(templates))
    return {**r, **new}


def write_data(root: Path, monkeypatch: pytest.MonkeyPatch, data: dict[tuple[str, str], list[dict[str, Any]]]) -> None:
    """Point the loader at `root` holding {track}/{split}-00.jsonl for each (track, split) of `data`."""
    monkeypatch.setattr(records, "DATA_DIR", root)
    for (track, split), recs in data.items():
        (root / track).mkdir(parents=True, exist_ok=True)
        (root / track / f"{split}-00.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs),
                                                        encoding="utf-8")


def test_fallback_clauses_keep_quotes_and_drop_connectives():
    assert clauses_of({"instruction": 'A few changes: add "a; b. c"; and then bold it.'}) == ['add "a; b. c"', "bold it"]
    assert clauses_of({"instruction": "ignored", "clauses": ["one", "two"]}) == ["one", "two"]


def test_leakage_counts_documents_templates_phrasings_clauses_patterns_and_the_held_out_part():
    a = [rec("a1", 1, 'Add a heading "Plan" after the Contacts section; make the title red.', doc="docs/a.docx",
             templates=("add_heading", "colour"), phrasings=["add_heading/en/0"]),
         rec("a2", 1, "把“预算”标题的字号改为18磅。", language="zh", templates=("hand",))]
    b = [rec("b1", 1, 'Make the title red. Then put a footnote "x" on paragraph 3.', doc="docs/a.docx",
             templates=("colour", "footnote"), phrasings=["add_heading/en/0", "footnote/en/1"]),
         rec("b2", 1, 'Add a heading "Budget" after the Risks section; make the title blue.', doc="docs/b.docx",
             templates=("hand",), held_out=True),
         rec("b3", 1, "把“风险”标题的字号改为16磅，谢谢。", language="zh", doc="docs/c.docx")]
    report = leakage(a, b)
    assert (report["a_instructions"], report["b_instructions"], report["b_clauses"]) == (2, 3, 5)
    got = {kind: (report[kind]["shared"], report[kind]["matched"], report[kind]["of"], report[kind]["instructions"])
           for kind in ("documents", "templates", "phrasings", "verbatim_clauses", "clause_patterns")}
    assert got == {"documents": (1, 1, 3, 1), "templates": (1, 1, 3, 1), "phrasings": (1, 1, 2, 1),
                   "verbatim_clauses": (1, 1, 5, 1), "clause_patterns": (3, 4, 5, 3)}
    assert report["documents"]["examples"] == [{"value": "docs/a.docx", "a": "a1#1", "b": "b1#1"}]
    assert report["verbatim_clauses"]["examples"][0]["value"] == "make the title red"
    assert {x["value"] for x in report["clause_patterns"]["examples"]} >= {"make the title {colour}",
                                                                         "add a heading {q} after the {name} section"}
    assert report["verbatim_clauses"]["share"] == 0.2 and report["documents"]["instruction_share"] == 0.3333
    held = report["held_out"]
    assert held["instructions"] == 1 and held["documents"]["shared"] == 0 and held["verbatim_clauses"]["matched"] == 0
    assert leakage(a, b[:1])["held_out"]["instructions"] == 0


def test_stats_counts_the_2_0_fields():
    tolerance = json.dumps({"tolerances": [{"key": "size_pt", "within": 4}]})
    turns = [rec("h1", 1, "make it bigger", kind="corpus", doc="x.docx", written_by="hand", requests=2,
                 tags=["back-reference"], accept=tolerance, held_out=True),
             rec("h1", 2, 'no, the "Plan" heading you just added', kind="corpus", doc="x.docx", written_by="hand",
                 tags=["correction"], ambiguous="which heading"),
             rec("t1", 1, "Shade the paragraph you just added."),
             rec("t1", 2, 'Add "x" at the end.')]
    ins = [instruction_from_record(r) for r in turns]
    sessions = [Session("h1", "en", ins[0].source, tuple(ins[:2])), Session("t1", "en", ins[2].source, tuple(ins[2:]))]
    stats = compute_stats(sessions)
    assert (stats["sessions"], stats["instructions"], stats["calls"]) == (2, 4, 4)  # old keys stay
    assert stats["written_by"] == {"hand": 2, "template": 2}
    assert stats["requests_per_turn"] == {"mean": 1.25, "histogram": {"1": 3, "2": 1}}
    counted = {k: stats[k]["turns"] for k in ("quoted_value", "back_reference", "correction", "ambiguous", "accept")}
    assert counted == {"quoted_value": 2, "back_reference": 2, "correction": 1, "ambiguous": 1, "accept": 1}
    assert stats["back_reference"]["share"] == 0.5
    assert stats["held_out"] == 1 and stats["share_sessions_from_corpus"] == 0.5


def test_export_loads_back_with_the_declared_features(tmp_path, monkeypatch):
    from datasets import load_dataset

    hand = [rec("dwh-001", 1, "make the title bigger", split="dev", templates=("hand",), track="hand", written_by="hand",
                writer="hand-a", requests=1, tags=["no-quote", "vague-value"], ambiguous=None,
                accept=json.dumps({"tolerances": [{"key": "size_pt", "within": 4}]}), held_out=False)]
    templated = [rec("dwb-001", 1, "把“预算”标题居中。", language="zh", split="test"),
                 rec("dwb-001", 2, 'Bold "Plan".', split="test", clauses=['bold "Plan"'], phrasings=["bold/en/2"], held_out=True)]
    write_data(tmp_path / "data", monkeypatch, {("hand", "dev"): hand, ("templated", "test"): templated})
    out = tmp_path / "out"
    paths = export(out)
    assert paths == [out / "hand" / "dev.parquet", out / "templated" / "test.parquet", out / "README.md"]
    for path, recs in zip(paths, (hand, templated)):
        ds = load_dataset("parquet", data_files={"x": str(path)}, cache_dir=str(tmp_path / "cache"))["x"]
        assert ds.features == features()
        assert ds.to_list() == [row(r) for r in recs]
    rows = [row(r) for r in templated]
    assert rows[0]["track"] == "templated" and rows[0]["tags"] == [] and rows[0]["accept"] is None
    assert rows[1]["clauses"] == ['bold "Plan"'] and rows[1]["held_out"] is True
    readme = paths[-1].read_text(encoding="utf-8")
    assert all(f"| `{name}` |" in readme for name in features())


def test_cli_leakage_skips_missing_splits_with_track_all_and_stats_reads_a_track(tmp_path, monkeypatch, capsys):
    write_data(tmp_path, monkeypatch, {
        ("hand", "dev"): [rec("dwh-001", 1, "make the title red", written_by="hand", track="hand")],
        ("hand", "test"): [rec("dwh-002", 1, "Make the title red.", split="test", written_by="hand", track="hand")],
        ("templated", "test"): [rec("dwb-001", 1, "Make the title blue.", split="test")]})
    assert main(["bench", "leakage", "--track", "all", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(p["a"]["track"], p["b"]["track"]) for p in out["pairs"]] == [("hand", "hand"), ("hand", "templated")]
    assert out["missing"] == ["templated dev"]
    assert [p["verbatim_clauses"]["matched"] for p in out["pairs"]] == [1, 0]
    assert [p["clause_patterns"]["matched"] for p in out["pairs"]] == [1, 1]
    assert main(["bench", "leakage", "--track", "templated"]) == 2  # one track: a missing split is an error
    capsys.readouterr()
    assert main(["bench", "stats", "--track", "hand", "--split", "dev", "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["track"] == "hand" and stats["written_by"] == {"hand": 1}
