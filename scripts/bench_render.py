"""Time to draw the pages of a document (LibreOffice headless to PDF, then pdftoppm), cold and warm.

    python scripts/bench_render.py [--repeat 5] [--file examples/report.docx] [--dpi 60]

cold: every render starts LibreOffice with a new, empty user profile (what a first ``autodw render`` does, and
what every render would cost without a kept profile). warm: LibreOffice starts with the profile that
``autodw.render`` keeps in $AUTODW_HOME (created by one render that is not counted). The operating system's file
cache is warm in both (the LibreOffice binaries were read before). Prints the medians in seconds of the whole
render (both pages' picture) and of the LibreOffice step alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autodw import render  # noqa: E402
from autodw.document import WordDocument  # noqa: E402


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--file", default=str(ROOT / "examples" / "report.docx"))
    parser.add_argument("--dpi", type=int, default=render.DEFAULT_DPI)
    args = parser.parse_args()
    docx = WordDocument.open(args.file).to_bytes()
    with tempfile.TemporaryDirectory(prefix="autodw-bench-render-") as home:
        os.environ["AUTODW_HOME"] = home  # a kept profile of our own, not the user's
        render.render_pages(docx, None, args.dpi, warm=True)  # creates the kept profile; not counted
        results: dict[str, list[float]] = {f"{mode} {what}": [] for what in ("render", "LibreOffice only")
                                           for mode in ("cold", "warm")}
        for _ in range(args.repeat):  # interleaved, so a change in the machine's load hits both alike
            for mode, warm in (("cold", False), ("warm", True)):
                results[f"{mode} render"].append(timed(lambda: render.render_pages(docx, None, args.dpi, warm=warm)))
                results[f"{mode} LibreOffice only"].append(timed(lambda: render.to_pdf(docx, warm=warm)))
    print(f"{Path(args.file).name}, all pages at {args.dpi} dpi, {args.repeat} runs each (median, min-max, seconds):")
    for name, times in results.items():
        print(f"  {name:22s} {statistics.median(times):6.2f}  ({min(times):.2f}-{max(times):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
