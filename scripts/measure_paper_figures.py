"""Measure the per-instruction figures ``autodw bench paper`` estimates its cost from, out of kept runs.

Usage: python scripts/measure_paper_figures.py RUN_DIR... > autodw/eval/paper_figures.json
Each RUN_DIR is an instruction-level `bench run` folder of one system (its summary.json and run.json are read).
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from autodw.eval.paper import measure_figures

if __name__ == "__main__":
    runs = sys.argv[1:]
    command = shlex.join(["python", "scripts/measure_paper_figures.py", *runs]) + " > autodw/eval/paper_figures.json"
    json.dump(measure_figures([Path(r) for r in runs], command), sys.stdout, indent=1)
    sys.stdout.write("\n")
