"""How fast a run's instruction table is in a browser: ``python -m autodw.explore.perf SITE``.

Headless Chromium (Playwright; Debian's ``chromium`` through ``--chromium``, since Playwright's own download is not
needed) opens ``SITE/a/index.html`` from disk and reports the time until its load event (the rows read, the first of
them drawn) and the time each filter takes to narrow the table and lay it out again. The figures are
medians of a few repetitions; the command fails (exit 1) when the load or a filter takes a second or more.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

from autodw.errors import ConfigError, ExternalToolError

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


def measure(site: Path, chromium: str | None = None, table: str = "a/index.html", repeat: int = 3) -> dict[str, Any]:
    """The table's row count, load time and each filter's time (ms, medians of `repeat` runs) with the rows left."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise ExternalToolError("measuring in a browser needs Playwright: pip install \"autodw[test]\"") from None
    page_path = (Path(site) / table).resolve()
    if not page_path.is_file():
        raise ConfigError(f"{page_path} does not exist: give a site made by autodw bench explore")
    loads, filters = [], {f"{n}={v}": [] for n, v in FILTERS}
    shown: dict[str, int] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(chromium))
        try:
            for _ in range(repeat):
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.goto(page_path.as_uri(), wait_until="load")
                loads.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd"))
                rows = page.evaluate("window.AUTODW_ROWS.length")
                for name, value in FILTERS:
                    result = page.evaluate(_FILTER, [name, value])
                    if result is not None:
                        filters[f"{name}={value}"].append(result[0])
                        shown[f"{name}={value}"] = result[1]
                page.close()
        finally:
            browser.close()
    return {"table": str(page_path), "rows": rows, "load_ms": round(statistics.median(loads), 1),
            "filters": {k: {"ms": round(statistics.median(v), 1), "rows": shown[k]} for k, v in filters.items() if v}}


def report(figures: dict[str, Any]) -> str:
    lines = [f"{figures['table']}: {figures['rows']} rows; loaded in {figures['load_ms']:.0f} ms"]
    lines += [f"  filter {name}: {f['ms']:.1f} ms ({f['rows']} rows left)" for name, f in figures["filters"].items()]
    return "\n".join(lines)


def fast_enough(figures: dict[str, Any], limit_ms: float = LIMIT_MS) -> bool:
    """Whether the table loads, and each filter narrows it, within `limit_ms`."""
    return figures["load_ms"] < limit_ms and all(f["ms"] < limit_ms for f in figures["filters"].values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autodw.explore.perf", description=__doc__.splitlines()[0])
    parser.add_argument("site", help="a site made by autodw bench explore")
    parser.add_argument("--chromium", default=None, metavar="PATH", help="the Chromium executable (default: on PATH)")
    parser.add_argument("--table", default="a/index.html", help="the table page in the site (default a/index.html)")
    parser.add_argument("--repeat", type=int, default=3, help="runs to take the median of (default 3)")
    args = parser.parse_args(argv)
    try:
        figures = measure(Path(args.site), args.chromium, args.table, args.repeat)
    except (ConfigError, ExternalToolError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(report(figures))
    ok = fast_enough(figures)
    print(f"{'within' if ok else 'NOT within'} {LIMIT_MS / 1000:.0f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
