"""Time to draw the pages of a document (LibreOffice headless to PDF, then pdftoppm), cold and warm.

cold: every render starts LibreOffice with a new, empty user profile (what a first ``autodw render`` does, and
what every render would cost without a kept profile). warm: LibreOffice starts with the profile that
``autodw.interfaces.render`` keeps in $AUTODW_HOME (created by one render that is not counted). The operating system's file
cache is warm in both (the LibreOffice binaries were read before). Prints the medians in seconds of the whole
render (both pages' picture) and of the LibreOffice step alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from autodw.interfaces import render
from autodw.core.document import WordDocument
from autodw.core.paths import repo_root


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def run(args: argparse.Namespace) -> int:
    """Render `--repeat` times each way, interleaved, and print the medians."""
    path = args.file or str(repo_root() / "examples" / "report.docx")
    dpi = args.dpi or render.DEFAULT_DPI
    data = WordDocument.open(path).to_bytes()
    kept_home = os.environ.get("AUTODW_HOME")
    with tempfile.TemporaryDirectory(prefix="autodw-bench-render-") as home:
        os.environ["AUTODW_HOME"] = home  # a kept profile of our own, not the user's
        try:
            render.render_pages(data, None, dpi, warm=True)  # creates the kept profile; not counted
            results: dict[str, list[float]] = {f"{mode} {what}": [] for what in ("render", "LibreOffice only")
                                               for mode in ("cold", "warm")}
            for _ in range(args.repeat):  # interleaved, so a change in the machine's load hits both alike
                for mode, warm in (("cold", False), ("warm", True)):
                    results[f"{mode} render"].append(timed(lambda: render.render_pages(data, None, dpi, warm=warm)))
                    results[f"{mode} LibreOffice only"].append(timed(lambda: render.to_pdf(data, warm=warm)))
        finally:
            if kept_home is None:
                os.environ.pop("AUTODW_HOME", None)
            else:
                os.environ["AUTODW_HOME"] = kept_home
    print(f"{Path(path).name}, all pages at {dpi} dpi, {args.repeat} runs each (median, min-max, seconds):")
    for name, times in results.items():
        print(f"  {name:22s} {statistics.median(times):6.2f}  ({min(times):.2f}-{max(times):.2f})")
    return 0
