"""Agreement of the LLM judge with the deterministic judge, and its time, on pairs built with the API library.

    python scripts/bench_llm_judge.py [--llm local] [--limit N]

Each task is an instruction on examples/report.docx with its gold API call. The expected document is
the gold result; two actual documents are judged against it: the gold result re-saved (equivalent)
and the document left unedited (not equivalent). Prints, per pair, both judges' verdicts and the LLM
judge's seconds and tokens, then the agreement and the median time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autodw.apis import execute  # noqa: E402
from autodw.document import WordDocument  # noqa: E402
from autodw.eval.judge import judge  # noqa: E402
from autodw.eval.llm_judge import llm_judge  # noqa: E402
from autodw.llm.factory import make_llm  # noqa: E402

REPORT = ROOT / "examples" / "report.docx"
TASKS = [
    ("Make the word \"sales\" in the first paragraph bold", "set_text_format",
     {"paragraphs": "p2", "span": {"match": "sales"}, "bold": True}),
    ("Change the South region's Q1 figure to 99", "set_cell_text", {"table": "t1", "row": 2, "col": 1, "text": "99"}),
    ("Make 'Next Steps' a level-2 heading", "change_heading_level", {"paragraphs": ["p32"], "level": 2}),
    ("Centre the first paragraph", "set_paragraph_format", {"paragraphs": "p2", "alignment": "center"}),
    ("Make the logo 8 cm wide", "resize_image", {"image": "img1", "width": "8cm"}),
    ("Put the first section in landscape", "set_page_setup", {"section": 0, "orientation": "landscape"}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--llm", default="local")
    parser.add_argument("--limit", type=int, default=len(TASKS))
    args = parser.parse_args()
    llm = make_llm(args.llm)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, (instruction, api, call) in enumerate(TASKS[: args.limit]):
            gold = WordDocument.open(REPORT)
            execute(gold, api, call)
            expected = gold.save(Path(tmp) / f"gold{n}.docx")
            resaved = WordDocument.open(expected).save(Path(tmp) / f"again{n}.docx")
            for label, actual in (("gold re-saved", resaved), ("unedited", REPORT)):
                det = judge(expected, actual, instruction=instruction)
                start = time.perf_counter()
                verdict = llm_judge(expected, actual, llm=llm, instruction=instruction)
                seconds = time.perf_counter() - start
                rows.append((det.equivalent == verdict.equivalent, seconds))
                print(f"{instruction} / {label}: deterministic {det.equivalent}, llm {verdict.equivalent} "
                      f"({seconds:.1f} s, {verdict.usage['prompt_tokens']} prompt tokens)"
                      + (f" -- {verdict.differences[0].where}: {verdict.differences[0].what}" if verdict.differences else ""),
                      flush=True)
    agree = sum(1 for a, _ in rows if a)
    print(f"agreement: {agree}/{len(rows)}; LLM judge median {statistics.median(s for _, s in rows):.1f} s per pair ({llm.name})")


if __name__ == "__main__":
    main()
