"""How fast a run's instruction table is in a browser: ``python -m autodw.interfaces.explore.perf SITE``.

Headless Chromium (Playwright; Debian's ``chromium`` through ``--chromium``, since Playwright's own download is not
needed) opens ``SITE/a/index.html`` from disk and times its load (to the load event: the rows read, the first of them
drawn) and each filter (the table narrowed and laid out again), as medians of a few runs. Each is measured twice:
the wall time a person waits, and the CPU time of the page's main thread from Chrome's trace (the work itself,
which the other processes of a busy machine do not stretch). The command fails (exit 1) when a load or a filter
takes a second or more of either.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

from autodw.core.errors import ConfigError, ExternalToolError

LIMIT_MS = 1000.0
#: the filters timed: a select box (its value) or the search box (its text)
FILTERS = (("outcome", "failed"), ("outcome", "passed"), ("mode", "instruction"), ("q", "table"))
_FILTER = """([name, value]) => {
  const control = document.querySelector(`[data-filter="${name}"]`);
  if (!control) { return null; }
  const start = performance.now();
  if (control.tagName === "SELECT" && ![...control.options].some(o => o.value === value)) {
    const option = document.createElement("option"); option.value = value; control.appendChild(option);
  }
  control.value = value;
  control.dispatchEvent(new Event(control.tagName === "SELECT" ? "change" : "input"));
  document.body.offsetHeight;  // lay the narrowed table out before the clock stops
  const ms = performance.now() - start;
  const shown = Number(document.body.dataset.matching);
  control.value = ""; control.dispatchEvent(new Event(control.tagName === "SELECT" ? "change" : "input"));
  return [ms, shown];
}"""


def find_chromium(given: str | None = None) -> str:
    """The Chromium to drive: `given`, else ``chromium`` (Debian) or ``chromium-browser`` on PATH."""
    path = given or shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        raise ExternalToolError("no Chromium found (Debian/Ubuntu: apt-get install chromium); or give --chromium PATH")
    return path


def _main_thread_ms(trace: bytes) -> float:
    """The CPU time (ms) of the tasks the pages' main threads ran in a Chrome trace."""
    events = json.loads(trace)["traceEvents"]
    mains = {(e["pid"], e["tid"]) for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    micros = sum(e.get("tdur", 0) for e in events if e.get("ph") == "X" and e.get("name") == _TASK
                 and (e["pid"], e.get("tid")) in mains)
    if not micros:
        raise _NoMainThread(f"Chrome's trace holds no task of a page's main thread ({len(events)} events)")
    return micros / 1000


class _NoMainThread(ExternalToolError):
    """A trace that missed the page's main thread (Chrome now and then leaves out its thread names)."""


def _traced(browser: Any, page: Any, action: Any) -> tuple[Any, float]:
    """`action()`'s result and the main-thread CPU time (ms) it took, traced again up to twice when Chrome's trace
    missed the page's main thread (a third miss raises)."""
    for attempt in range(3):
        browser.start_tracing(page=page, categories=_CATEGORIES)
        result = action()
        try:
            return result, _main_thread_ms(browser.stop_tracing())
        except _NoMainThread:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


_TASK = "ThreadControllerImpl::RunTask"  # a task of a Chrome thread (its tdur: thread CPU time, in µs)
_CATEGORIES = ["toplevel", "devtools.timeline"]


def measure(site: Path, chromium: str | None = None, table: str = "a/index.html", repeat: int = 3) -> dict[str, Any]:
    """The table's row count, and its load and each filter's wall and main-thread CPU times (ms, medians of `repeat`
    runs), with the rows each filter leaves."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise ExternalToolError("measuring in a browser needs Playwright: pip install \"autodw[test]\"") from None
    page_path = (Path(site) / table).resolve()
    if not page_path.is_file():
        raise ConfigError(f"{page_path} does not exist: give a site made by autodw bench explore")
    timed: dict[str, list[tuple[float, float]]] = {"load": [], **{f"{n}={v}": [] for n, v in FILTERS}}
    shown: dict[str, int] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(chromium))
        try:
            for _ in range(repeat):
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                def load() -> float:
                    page.goto(page_path.as_uri(), wait_until="load")
                    return page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")

                timed["load"].append(_traced(browser, page, load))
                rows = page.evaluate("window.AUTODW_ROWS.length")
                for name, value in FILTERS:
                    result, cpu = _traced(browser, page, lambda: page.evaluate(_FILTER, [name, value]))
                    if result is not None:
                        timed[f"{name}={value}"].append((result[0], cpu))
                        shown[f"{name}={value}"] = result[1]
                page.close()
        finally:
            browser.close()

    def medians(runs: list[tuple[float, float]]) -> dict[str, float]:
        # CPU time kept to the trace's own resolution (µs): a filter of a few dozen µs must not round to 0
        return {"ms": round(statistics.median(w for w, _ in runs), 1), "cpu_ms": round(statistics.median(c for _, c in runs), 3)}

    return {"table": str(page_path), "rows": rows, "load": medians(timed["load"]),
            "filters": {k: {**medians(v), "rows": shown[k]} for k, v in timed.items() if k != "load" and v}}


def report(figures: dict[str, Any]) -> str:
    load = figures["load"]
    lines = [f"{figures['table']}: {figures['rows']} rows; loaded in {load['ms']:.0f} ms ({load['cpu_ms']:.0f} ms of "
             "main-thread CPU)"]
    lines += [f"  filter {name}: {f['ms']:.1f} ms ({f['cpu_ms']:.1f} ms CPU), {f['rows']} rows left"
              for name, f in figures["filters"].items()]
    return "\n".join(lines)


def fast_enough(figures: dict[str, Any], limit_ms: float = LIMIT_MS, measure: str = "ms") -> bool:
    """Whether the table loads, and each filter narrows it, within `limit_ms` of `measure` (ms: wall, cpu_ms: CPU)."""
    return all(f[measure] < limit_ms for f in [figures["load"], *figures["filters"].values()])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autodw.interfaces.explore.perf", description=__doc__.splitlines()[0])
    parser.add_argument("site", help="a site made by autodw bench explore")
    parser.add_argument("--chromium", default=None, metavar="PATH", help="the Chromium executable (default: on PATH)")
    parser.add_argument("--table", default="a/index.html", help="the table page in the site (default a/index.html)")
    parser.add_argument("--repeat", type=int, default=3, help="runs to take the median of (default 3)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
    try:
        figures = measure(Path(args.site), args.chromium, args.table, args.repeat)
    except (ConfigError, ExternalToolError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    ok = {"wall": fast_enough(figures), "cpu": fast_enough(figures, measure="cpu_ms")}
    if args.format == "json":
        print(json.dumps({**figures, "within_limit": ok}, indent=1))
    else:
        print(report(figures))
        print(f"wall time {'within' if ok['wall'] else 'NOT within'} {LIMIT_MS / 1000:.0f} s; main-thread CPU "
              f"{'within' if ok['cpu'] else 'NOT within'} {LIMIT_MS / 1000:.0f} s")
    return 0 if all(ok.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
