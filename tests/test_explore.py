"""The run explorer without a browser: reading traces and run folders (damaged ones too), locating differences on a
page's words, escaping, the two commands. The browser tests are in test_explore_browser.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from autodw.interfaces.explore.pages import PageCache, Word, locate, pictures, quoted_texts
from autodw.interfaces.explore.runs import Gap, compare_runs, documents, read_run
from autodw.interfaces.explore.trace import read_trace
from tests.conftest import docx_bytes, run_cli
from tests.explore_runs import KEYS, damaged_copy, make_runs
from tests.rendering import require_renderer


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    return make_runs(tmp_path_factory.mktemp("explore-runs"))


def _events(*events: dict) -> str:
    return "".join(json.dumps({"t": 100.0 + n, **e}) + "\n" for n, e in enumerate(events))


PLANNER = {"event": "llm_call", "role": "planner", "messages": [{"role": "user", "content": "plan it"}],
           "response": "{}", "usage": {"prompt_tokens": 100, "completion_tokens": 10}, "seconds": 1.5}
GENERATOR = {**PLANNER, "role": "api_generator", "usage": {"prompt_tokens": 50, "completion_tokens": 5}}


def test_a_trace_is_a_timeline_of_steps(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(_events(
        {"event": "run_start", "llm": "fake", "profile": "hosted", "instructions": ["Make it bold"], "config": {}},
        {"event": "instruction_start", "number": 1, "total": 1, "instruction": "Make it bold"},
        PLANNER,
        {"event": "plan", "step": 1, "done": False, "sub_instruction": "Bold p1", "remaining": []},
        {"event": "intents", "step": 1, "intents": [["format_style_editing", 0.9]], "candidates": ["set_text_format"]},
        GENERATOR,
        {"event": "attempt", "step": 1, "level": "first", "call": "set_text_format({})", "ok": True, "changes": "c"},
        {"event": "verdict", "step": 1, "rule": ["unnamed_colour"], "decision": "fail", "confidence": 1.0,
         "explanation": "wrong colour", "accepted": False},
        {"event": "rollback", "step": 1, "next": "arg"},
        GENERATOR,
        {"event": "attempt", "step": 1, "level": "arg", "call": "set_text_format({\"bold\": true})", "ok": True},
        {"event": "verdict", "step": 1, "rule": [], "decision": "pass", "confidence": 0.9, "explanation": "ok",
         "accepted": True},
        PLANNER,
        {"event": "plan", "step": 2, "done": True, "sub_instruction": None, "reason": "all done"},
        {"event": "instruction_end", "status": "done", "steps": 1, "error": None, "steps_not_kept": [], "api_calls": 2,
         "seconds": 12.0}) + "{not json\n")
    trace = read_trace(path)
    (ins,) = trace.instructions
    (step,) = ins.steps
    assert step.sub_instruction == "Bold p1" and step.intents == [("format_style_editing", 0.9)]
    assert [a.level for a in step.attempts] == ["first", "arg"]
    assert step.attempts[0].verdict["rule"] == ["unnamed_colour"] and step.attempts[0].rollback == "arg"
    assert step.attempts[1].verdict["accepted"] is True
    assert [c.role for c in step.llm_calls] == ["planner", "api_generator", "api_generator"]
    assert step.tokens == 110 + 55 + 55 and step.seconds == 10.0  # from the event before its first call to its last
    assert ins.done_reason == "all done" and [c.role for c in ins.closing_calls] == ["planner"]
    assert ins.end["status"] == "done"
    reasons = [g.reason for g in trace.gaps]
    assert any("line 16 is not JSON" in r for r in reasons) and any("ends before run_end" in r for r in reasons)


def test_a_step_rejected_at_its_last_level_is_shown_failed(tmp_path):
    from autodw.interfaces.explore.site import build_trace_site

    path = tmp_path / "t.jsonl"
    reason = "rejected: rule check: font='Arial': the request names no font"
    path.write_text(_events(
        {"event": "instruction_start", "number": 1, "total": 1, "instruction": "Make the title blue"},
        {"event": "plan", "step": 1, "done": False, "sub_instruction": "Colour p1 blue"},
        {"event": "attempt", "step": 1, "level": "api", "call": "set_default_font({\"font\": \"Arial\"})", "ok": True},
        {"event": "verdict", "step": 1, "rule": ["unasked_property"], "decision": "fail", "confidence": 1.0,
         "explanation": reason[10:], "accepted": False},
        {"event": "step_failed", "step": 1, "level": "api", "rejected": True, "reason": reason},
        {"event": "run_end"}))
    trace = read_trace(path)
    (ins,) = trace.instructions
    assert ins.steps[0].failed == {"level": "api", "rejected": True, "reason": reason} and not ins.other_events
    page = (build_trace_site(path, tmp_path / "site").site / "index.html").read_text(encoding="utf-8")
    assert "nothing of this step kept (its last call undone); the step failed (rejected: rule check: font=" in page


def test_a_trace_cut_at_its_head_or_unreadable_is_shown_with_its_gaps(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(_events({"event": "attempt", "step": 1, "level": "first", "call": "x()", "ok": False,
                             "error": "bad"}, {"event": "verdict", "step": 2}, {"event": "new_kind", "x": 1}) + "[1]\n")
    trace = read_trace(path)
    assert trace.instructions[0].steps[0].attempts[0].error == "bad"
    assert trace.instructions[0].other_events[0]["event"] == "new_kind"
    reasons = " ".join(g.reason for g in trace.gaps)
    assert "before the first instruction_start" in reasons and "a verdict of step 2 before any call" in reasons
    assert "line 4 is not an event" in reasons
    assert "cannot be read" in read_trace(tmp_path / "absent.jsonl").gaps[0].reason


def _page(*texts: str, top: float = 0.1) -> list[Word]:
    words, x = [], 0.1
    for text in texts:
        words.append(Word(text, (x, top, x + 0.01 * len(text), top + 0.02)))
        x += 0.01 * len(text) + 0.01
    return words


def test_a_difference_is_located_by_the_text_it_quotes():
    assert quoted_texts('table 1 "Item | Q1" row 2 cell 3 "1,244"') == ["Item | Q1", "1,244"]
    # a chart's axis labels above the table say Q1 too: the cell is looked for in the table, after its first row
    page = _page("Q1", "Q2", top=0.05) + _page("Item", "Q1", "Q2") + _page("Staff", "1,244", top=0.2)
    (box,) = locate('table 1 "Item | Q1 | Q2" row 2 cell 2 "1,244"', page)  # the cell, not the table
    assert box[1] == pytest.approx(0.2)
    (box,) = locate('table 1 "Item | Q1 | Q2" row 1 cell 2 "Q1"', page)
    assert box[1] == pytest.approx(0.1) and box[0] > 0.14
    (box,) = locate('text "," in paragraph "Staff, 1,244" (p2)', _page("Staff,", "1,244", top=0.3))  # inner first
    assert box[2] - box[0] == pytest.approx(0.06)  # the word holding the comma
    (box,) = locate('table 1 "Item | Q1 | Q2"', page)
    assert box[0] == pytest.approx(0.1) and box[1] == pytest.approx(0.1)
    (box,) = locate('table 1 "Item | Q1 | Q2" row 3 cell 1 "Absent"', page)  # the cell not found: the table
    # a quote cut with "..." and a paragraph over two lines: one box per line
    two_lines = _page("On", "behalf", "of") + _page("Greenfield", "School", top=0.15)
    assert len(locate('paragraph "On behalf of Greenfield Sch..." (p3)', two_lines)) == 2
    assert locate('paragraph "客服部已搬到二楼" (p10)', _page("客服部已", "搬到二楼，并有")) != []  # no spaces
    assert locate('header of section 1', page) == [] and locate('paragraph "absent words" (p1)', page) == []


@pytest.mark.slow
def test_the_pages_of_a_failed_instruction_with_its_difference_outlined(runs):
    require_renderer()
    unit = read_run(runs[0]).by_key()["dwh-002#1"]
    shown = pictures(documents(unit), unit.record["differences"], PageCache())  # the cache the browser tests' build uses
    (row,) = shown.rows  # a one-page letter: its one page, changed
    assert row.number == 1 and row.changed and set(row.cells) == {"initial", "expected", "actual"}
    assert all(c.picture.is_file() and c.picture.stat().st_size > 1000 for c in row.cells.values())
    # the paragraph the judge names is written in the initial and expected documents (the output rewrote it)
    assert shown.located == {0: [("initial", 1), ("expected", 1)]}
    (outline,) = row.cells["expected"].outlines
    left, top, right, bottom = outline.box
    assert 0 < left < right < 1 and 0 < top < bottom < 0.5 and outline.difference == 0
    assert row.cells["actual"].outlines == []
    again = pictures(documents(unit), unit.record["differences"], PageCache())
    assert again.rows[0].cells["expected"].picture == row.cells["expected"].picture


@pytest.mark.slow
def test_documents_are_laid_out_together_and_kept_by_hash(tmp_path, monkeypatch):
    require_renderer()
    from autodw.interfaces.explore import pages

    def not_again(docx: bytes) -> bytes:
        raise pages.ExternalToolError("laid out again")

    one, two = (docx_bytes(lambda d, t=text: d.add_paragraph(t)) for text in ("First tiny document", "Second one"))
    cache = PageCache(tmp_path / "cache")
    cache.prepare([one, two, one])  # one LibreOffice run for both
    monkeypatch.setattr(pages, "to_pdf", not_again)
    layouts = [cache.layout(one), cache.layout(two)]
    assert [w.text for w in layouts[0].pages[0]] == ["First", "tiny", "document"]
    assert [w.text for w in layouts[1].pages[0]] == ["Second", "one"]
    assert cache.picture(layouts[1].digest, 1).is_file()
    monkeypatch.setattr(pages, "to_pdfs", lambda docs: [pages.ExternalToolError("no") for _ in docs])
    cache.prepare([b"not a document", one, b"nor this"])  # what fails is left for layout() to report
    with pytest.raises(pages.ExternalToolError, match="laid out again"):
        cache.layout(b"not a document")


def test_two_runs_are_paired_and_their_flips_listed(runs):
    noisy, oracle = (read_run(r) for r in runs)
    assert not noisy.gaps and not oracle.gaps
    comparison = compare_runs(noisy, oracle)
    assert [(a.key, b.outcome) for a, b in comparison.only_b] == [("dwh-002#1", "passed")]
    assert comparison.only_a == [] and comparison.both_passed == 1
    assert comparison.stats["only_b_succeeded"] == 1 and comparison.reason is None
    unit = noisy.by_key()["dwh-002#1"]
    assert unit.outcome == "failed" and unit.trace is not None and unit.trace.is_file()
    assert set(documents(unit)) == {"initial", "expected", "actual"}


def test_a_damaged_run_folder_shows_its_gaps_and_escapes_what_it_holds(runs, tmp_path):
    damaged = damaged_copy(runs[0], tmp_path / "damaged")
    run = read_run(damaged)
    assert [g.what for g in run.gaps] == ["summary.json"]
    by_key = run.by_key()
    assert by_key["dwh-001#2"].outcome == "missing" and "is damaged" in by_key["dwh-001#2"].gaps[0].reason
    assert [g.what for g in by_key["dwh-002#1"].gaps] == ["output"]
    site = tmp_path / "site"
    done = run_cli("bench", "explore", str(damaged), "-o", str(site), "--renders", "none")
    assert done.returncode == 0, done.stderr
    page = (site / "a" / "dwh-002--1.html").read_text(encoding="utf-8")
    assert "dwh-002--1.docx is missing" in page and "line 1 is not JSON" in page and "ends before run_end" in page
    assert "&lt;script&gt;window.__planted = 1&lt;/script&gt;" in page and "<script>window" not in page
    assert "<img src=x" not in page and "&lt;img src=x onerror=&#34;window.__planted = 3&#34;&gt;" in page
    overview = (site / "index.html").read_text(encoding="utf-8")
    assert "summary.json" in overview and "dwh-001--2.json is damaged" in overview
    # the settings unreadable: the records found are shown
    (damaged / "run.json").write_text("[1]", encoding="utf-8")
    found = read_run(damaged)
    assert "is damaged" in found.gaps[0].reason and {u.key for u in found.units} == set(KEYS)
    assert run_cli("bench", "explore", str(damaged), "-o", str(tmp_path / "site2"), "--renders", "failed").returncode == 0
    assert "dwh-002--1.docx is missing" in (tmp_path / "site2" / "a" / "dwh-002--1.html").read_text(encoding="utf-8")


def test_a_unit_generated_not_graded_and_units_without_status_are_shown_as_such(runs, tmp_path):
    folder = tmp_path / "run"
    shutil.copytree(runs[0], folder)
    ins = folder / "instructions"
    (ins / "dwh-002--1.json").unlink()  # generated, not graded (a run stopped between the two)
    (ins / "dwh-001--2.status").unlink()  # a record without its status (bench run and rescore refuse the folder)
    by_key = read_run(folder).by_key()
    ungraded, unstated = by_key["dwh-002#1"], by_key["dwh-001#2"]
    assert ungraded.outcome == "ungraded" and ungraded.record is None
    assert [(g.what, g.reason) for g in ungraded.gaps] == [
        ("record", f"generated, not graded: run `autodw bench rescore {folder}`")]
    assert ungraded.output.is_file() and ungraded.trace.is_file() and ungraded.field("status") == "done"
    assert unstated.outcome == "passed" and [g.what for g in unstated.gaps] == ["status"]
    assert "dwh-001--2.status is missing beside dwh-001--2.json" in unstated.gaps[0].reason
    site = tmp_path / "site"
    assert run_cli("bench", "explore", str(folder), "-o", str(site), "--renders", "none").returncode == 0
    page = (site / "a" / "dwh-002--1.html").read_text(encoding="utf-8")
    assert "Generated, not graded" in page and "autodw bench rescore" in page and "step 1" in page
    assert "1 ungraded" in (site / "index.html").read_text(encoding="utf-8")
    (ins / "dwh-001--2.json").unlink()
    assert read_run(folder).by_key()["dwh-001#2"].gaps == [Gap("record", "not run yet: no dwh-001--2.status")]
    (folder / "run.json").write_text("[1]", encoding="utf-8")  # the settings unreadable: the statuses found too
    assert [(u.key, u.outcome) for u in read_run(folder).units] == [("dwh-002#1", "ungraded")]
    (folder / "run.json").write_bytes((runs[0] / "run.json").read_bytes())
    assert run_cli("bench", "rescore", str(folder)).returncode == 0  # what the gap says to do
    assert read_run(folder).by_key()["dwh-002#1"].outcome == "failed"


def test_the_commands(runs, tmp_path):
    assert run_cli("bench", "explore", "--help").returncode == 0
    site = tmp_path / "site"
    done = run_cli("bench", "explore", *map(str, runs), "-o", str(site), "--renders", "none")
    assert done.returncode == 0 and "wrote" in done.stdout, done.stderr
    assert {p.name for p in site.iterdir()} >= {"index.html", "compare.html", "a", "b", "static", "report"}
    assert (site / "report" / "report-accuracy-tokens.png").is_file()
    script = (site / "a" / "rows.js").read_text(encoding="utf-8")
    assert script.startswith("window.AUTODW_ROWS = ") and script.endswith(";\n")
    rows = {r["key"]: r for r in json.loads(script.removeprefix("window.AUTODW_ROWS = ").removesuffix(";\n"))}
    assert rows["dwh-002#1"]["outcome"] == "failed" and rows["dwh-002#1"]["href"] == "dwh-002--1.html"
    assert rows["dwh-002#1"]["intent"] == ["lifecycle_update"] and rows["dwh-001#2"]["outcome"] == "passed"
    again = run_cli("bench", "explore", str(runs[1]), "-o", str(site), "--renders", "none")  # over a site made before
    assert again.returncode == 0 and not (site / "b").exists() and not (site / "compare.html").exists()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "x.txt").write_text("mine")
    refused = run_cli("bench", "explore", str(runs[0]), "-o", str(tmp_path / "other"))
    assert refused.returncode == 2 and "holds other files" in refused.stderr
    assert run_cli("bench", "explore", str(tmp_path / "nothing"), "-o", str(site)).returncode == 2
    trace = next((runs[0] / "instructions").glob("*.trace.jsonl"))
    done = run_cli("explore", str(trace), "-o", str(tmp_path / "trace-site"))
    assert done.returncode == 0, done.stderr
    assert "step 1" in (tmp_path / "trace-site" / "index.html").read_text(encoding="utf-8")


def test_a_trace_without_the_pages_main_thread_is_traced_again_then_refused():
    """The speed command never reports 0 ms of CPU for a trace that missed the page's main thread: it traces the
    action again, and raises after a third miss."""
    from autodw.core.errors import ExternalToolError
    from autodw.interfaces.explore import perf

    named = {"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "CrRendererMain"}}
    task = {"ph": "X", "name": perf._TASK, "pid": 1, "tid": 2, "tdur": 1500}

    class Browser:
        def __init__(self, traces):
            self.traces = list(traces)

        def start_tracing(self, **_):
            pass

        def stop_tracing(self):
            return json.dumps({"traceEvents": self.traces.pop(0)}).encode()

    calls = []
    browser = Browser([[task], [named, task]])  # the first trace lacks the thread's name
    assert perf._traced(browser, None, lambda: calls.append(1) or "done") == ("done", 1.5)
    assert len(calls) == 2
    with pytest.raises(ExternalToolError, match="no task of a page's main thread"):
        perf._traced(Browser([[task]] * 3), None, lambda: None)
