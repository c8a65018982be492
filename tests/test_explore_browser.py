"""The explorer's site in a real browser from file://: headless Chromium (Debian's, through Playwright's
``executable_path``: Playwright's own browser download is not used). Skipped with a message where Chromium or
Playwright is missing, failed instead when ``CI`` is set (.ci/run installs both). Screenshots are kept in
``tmp/artefacts/explore/`` (not committed)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser import browser, chromium  # noqa: F401 - a fixture, imported by name
from tests.conftest import ROOT, _session_tmp, run_cli
from tests.explore_runs import damaged_copy, make_runs
from tests.rendering import require_renderer

ARTEFACTS = ROOT / "tmp" / "artefacts" / "explore"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def sites(browser, tmp_path_factory) -> Path:
    """Two runs compared (pages drawn for the failed instruction) and a damaged run, built once for every worker."""
    from filelock import FileLock

    require_renderer()
    shared = _session_tmp(tmp_path_factory) / "explore-browser"
    with FileLock(str(shared) + ".lock"):
        if not (shared / "built").is_file():
            shutil.rmtree(shared, ignore_errors=True)
            noisy, oracle = make_runs(shared / "runs")
            for args in ((str(noisy), str(oracle), "-o", str(shared / "two")),
                         (str(damaged_copy(noisy, shared / "runs" / "damaged")), "-o", str(shared / "damaged"),
                          "--renders", "none")):
                done = run_cli("bench", "explore", *args)
                assert done.returncode == 0, done.stderr
            (shared / "built").touch()
    return shared


@pytest.fixture
def page(browser):
    """A new page; the test fails if its script raised or the security policy refused something."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(str(error)))
    opened.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    yield opened
    context.close()
    assert not problems, problems


def _open(page, path: Path, hash: str = ""):
    page.goto(path.as_uri() + hash)
    return page


def _shot(page, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / name), full_page=True)


def test_the_overview_loads_with_its_figures_and_plots(page, sites):
    _open(page, sites / "two" / "index.html")
    assert page.locator("h1").inner_text() == "noisy vs oracle"
    assert page.locator("article.run").count() == 2
    assert "50.0%" in page.locator("article.run[data-run=a]").inner_text()  # the noisy oracle's iACC: 1 of 2
    plots = page.locator("section.plots img")
    assert plots.count() == 2 and all(plots.nth(i).evaluate("i => i.naturalWidth") > 100 for i in range(2))
    intents = page.locator("table.breakdown[data-facet=intent]")
    assert "lifecycle_update" in intents.inner_text()
    intents.locator("a").first.click()  # a breakdown's figure opens the table filtered by it
    page.wait_for_selector("body[data-ready]")
    assert page.locator("#units tbody tr").count() == 1
    _open(page, sites / "two" / "index.html")
    _shot(page, "overview.png")


def _keys(page) -> list[str]:
    return page.locator("#units tbody tr").evaluate_all("rows => rows.map(r => r.dataset.key)")


def test_the_filters_narrow_the_table(page, sites):
    _open(page, sites / "two" / "a" / "index.html")
    assert sorted(_keys(page)) == ["dwh-001#2", "dwh-002#1"] and page.locator("#shown").inner_text() == "2 of 2"
    page.select_option("select[data-filter=outcome]", "failed")
    assert _keys(page) == ["dwh-002#1"] and page.locator("#shown").inner_text() == "1 of 2"
    assert page.evaluate("location.hash") == "#outcome=failed"
    page.select_option("select[data-filter=outcome]", "")
    page.select_option("select[data-filter=api]", "set_header_row")  # dwh-001#2's gold API
    assert _keys(page) == ["dwh-001#2"]
    page.select_option("select[data-filter=api]", "")
    page.fill("input[data-filter=q]", "HALF-FINISHED edit")  # search is case-blind
    assert _keys(page) == ["dwh-002#1"]
    page.fill("input[data-filter=q]", "no instruction says this")
    assert _keys(page) == [] and page.locator("#shown").inner_text() == "0 of 2"
    _open(page, sites / "two" / "a" / "index.html", "#outcome=passed&intent=table_operation")
    page.reload()
    assert _keys(page) == ["dwh-001#2"]
    assert page.locator("select[data-filter=intent]").input_value() == "table_operation"
    page.locator("#units tbody a").first.click()
    assert page.url.endswith("/a/dwh-001--2.html")


def test_an_instruction_page_shows_three_pages_an_outlined_difference_and_the_steps(page, sites):
    _open(page, sites / "two" / "a" / "dwh-002--1.html")
    row = page.locator(".page-row").first
    assert row.get_attribute("id") == "page-1" and "changed" in row.get_attribute("class")
    figures = row.locator("figure.page")
    assert [figures.nth(i).get_attribute("data-document") for i in range(3)] == ["initial", "expected", "actual"]
    for i in range(3):
        assert figures.nth(i).locator("img").evaluate("i => i.complete && i.naturalWidth") > 300
    outline = row.locator("figure[data-document=expected] rect.outline")
    assert outline.count() == 1
    box, sheet = outline.bounding_box(), row.locator("figure[data-document=expected] img").bounding_box()
    assert 5 < box["width"] < sheet["width"] and 2 < box["height"] < sheet["height"] / 10  # one line of text
    assert sheet["x"] <= box["x"] and box["y"] + box["height"] <= sheet["y"] + sheet["height"]
    difference = page.locator("#d0")
    assert "On behalf of Greenfield School" in difference.inner_text() and "expected p. 1" in difference.inner_text()
    steps = page.locator("ol.timeline li.step")
    assert steps.count() == 1
    assert "resolve_tracked_changes" in steps.first.inner_text() and "validator: pass" in steps.first.inner_text()
    calls = page.locator("section.calls-side").inner_text()
    assert '"reject"' in calls and '"accept"' in calls  # the gold call beside the faulty one the agent kept
    _shot(page, "instruction.png")


def test_a_step_rolled_back_shows_the_rejection_and_the_retry(page, sites):
    _open(page, sites / "two" / "a" / "dwh-001--2.html")
    timeline = page.locator("ol.timeline").inner_text()
    assert "rollback: document restored" in timeline and "rejected" in timeline and "accepted" in timeline
    assert page.locator(".page-row").count() == 0  # passed: no pages drawn with --renders failed


def test_the_two_run_page_lists_the_flips(page, sites):
    _open(page, sites / "two" / "compare.html")
    only_b = page.locator("section[data-flips=b] tbody tr")
    assert only_b.count() == 1 and "dwh-002#1" in only_b.inner_text()
    assert page.locator("section[data-flips=a] tbody tr").count() == 0
    assert "McNemar p = " in page.locator("section.stats").inner_text()
    only_b.locator("a.badge.passed").click()
    assert page.url.endswith("/b/dwh-002--1.html") and page.locator("h1 .badge").inner_text() == "passed"
    _open(page, sites / "two" / "compare.html")
    _shot(page, "two-runs.png")


def test_planted_markup_is_shown_as_text_and_never_runs(page, sites):
    _open(page, sites / "damaged" / "a" / "dwh-002--1.html")
    assert page.evaluate("window.__planted") is None
    assert page.locator("#instruction").inner_text().startswith("<script>window.__planted = 1</script> Reject")
    assert page.locator("#d0 .what").inner_text() == '<img src=x onerror="window.__planted = 3">'
    assert page.locator("main img").count() == 0
    _open(page, sites / "damaged" / "a" / "index.html")  # the table writes the instruction as text too
    assert "<script>window.__planted = 1</script>" in page.locator("#units").inner_text()
    assert page.evaluate("window.__planted") is None


def test_a_damaged_folder_shows_its_gaps(page, sites):
    _open(page, sites / "damaged" / "index.html")
    gaps = page.locator("article.run section.gaps").inner_text()
    for reason in ("summary.json: missing", "dwh-001--2.json is damaged", "dwh-002--1.docx is missing",
                   "ends before run_end"):
        assert reason in gaps
    assert "no run has a summary.json" in page.locator("section.plots").inner_text()
    _shot(page, "damaged.png")
    _open(page, sites / "damaged" / "a" / "index.html")
    assert page.locator("#units tbody tr.missing .badge").inner_text() == "missing"
    assert page.locator("#units tbody .gapmark").count() == 2
    page.locator("#units tbody tr.missing a").click()
    assert "is damaged" in page.locator("section.gaps").inner_text()


def test_the_speed_command_on_a_test_split_sized_table(sites, tmp_path):
    """A test split's table (1,440 rows: the rows of the small site copied with new keys) loads and filters within
    a second of the page's main-thread CPU time (python -m autodw.interfaces.explore.perf; medians of three runs)."""
    site = tmp_path / "site"
    shutil.copytree(sites / "two", site)
    script = site / "a" / "rows.js"
    rows = json.loads(script.read_text(encoding="utf-8").removeprefix("window.AUTODW_ROWS = ").removesuffix(";\n"))
    many = [{**row, "key": f"{row['key']}-{n}", "outcome": ("passed", "failed", "error")[n % 3]}
            for n in range(1440 // len(rows) + 1) for row in rows][:1440]
    script.write_text("window.AUTODW_ROWS = " + json.dumps(many) + ";\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "autodw.interfaces.explore.perf", str(site), "--chromium", chromium(),
                           "--format", "json", "--repeat", "1"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode in (0, 1), done.stderr  # 1: a second or more
    figures = json.loads(done.stdout)
    assert figures["rows"] == 1440 and figures["filters"]["outcome=failed"]["rows"] == 480
    # the page's own work; its wall time (reported beside it) is stretched by whatever else the machine runs
    assert figures["within_limit"]["cpu"], figures
    assert all(f["cpu_ms"] > 0 for f in [figures["load"], *figures["filters"].values()])
