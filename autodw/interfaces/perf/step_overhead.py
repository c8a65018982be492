"""Per-step overhead of the document core: open, snapshot, restore, extract_state, analyze_change, save.

Measured on a generated ~30-page document (headings, 180 paragraphs, 10 tables, 5 images; page count checked with
LibreOffice when available) and on the corpus's 872-page handbook. Prints medians in milliseconds. Targets:
snapshot + state + diff of one step under 50 ms on the 30-page document; full state of the handbook under 2 s.
"""

from __future__ import annotations

import argparse
import io
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import docx
from docx.shared import Cm

from autodw.analysis.changes import analyze_change
from autodw.core.document import WordDocument
from autodw.dwbench.records import corpus_dir
from autodw.core.paths import repo_root
from autodw.analysis.state import extract_state

HANDBOOK = "unstructured__handbook-872p.docx"
WORDS = ("quarterly revenue regional growth forecast margin customer product pricing review "
         "distribution partner target report summary analysis budget cost operations").split()


def thirty_page_document() -> bytes:
    """A deterministic document of about 30 Letter pages."""
    d = docx.Document()
    img = repo_root() / "examples" / "images" / "photo.png"
    for section in range(15):
        d.add_heading(f"Section {section + 1}: {WORDS[section].title()} overview", level=1)
        for k in range(12):
            words = [WORDS[(section * 7 + k * 3 + i) % len(WORDS)] for i in range(45)]
            p = d.add_paragraph(" ".join(words).capitalize() + ".")
            if k % 5 == 0:
                p.runs[0].bold = True
        if section % 3 == 0:
            d.add_picture(str(img), width=Cm(6))
        if section % 3 != 2:
            t = d.add_table(rows=6, cols=5)
            t.style = "Table Grid"
            for r in range(6):
                for c in range(5):
                    t.cell(r, c).text = f"R{r}C{c}" if r else f"Head {c}"
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def page_count(data: bytes) -> int | None:
    """Pages as LibreOffice lays them out, or None without LibreOffice/poppler."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "doc.docx"
        src.write_bytes(data)
        try:
            subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir", tmp, str(src)],
                           capture_output=True, timeout=180, check=True)
            info = subprocess.run(["pdfinfo", str(Path(tmp) / "doc.pdf")], capture_output=True, text=True, check=True)
        except (OSError, subprocess.SubprocessError):
            return None
    for line in info.stdout.splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    return None


def timed(fn, repeat: int) -> tuple[float, object]:
    """Median milliseconds of `repeat` calls, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), result


def measure(name: str, data: bytes, repeat: int) -> dict[str, float]:
    """Median milliseconds of each core operation on one document, and of one agent step (snapshot, state, diff)."""
    out: dict[str, float] = {}
    out["open"], doc = timed(lambda: WordDocument.from_bytes(data, name), repeat)
    out["snapshot"], snap = timed(doc.snapshot, repeat)
    out["extract_state"], before = timed(lambda: extract_state(doc), repeat)
    p = doc.docx.paragraphs[len(doc.docx.paragraphs) // 2]
    p.add_run(" An added sentence.").bold = True
    doc.refresh_ids()
    after = extract_state(doc)
    out["analyze_change"], change = timed(lambda: analyze_change(before, after), repeat)
    if not change["content"]:
        raise RuntimeError("the added sentence is not seen by analyze_change")
    out["restore"], _ = timed(lambda: doc.restore(snap), repeat)
    with tempfile.TemporaryDirectory() as tmp:
        out["save"], _ = timed(lambda: doc.save(Path(tmp) / "out.docx"), repeat)
    out["step (snapshot+state+diff)"] = out["snapshot"] + out["extract_state"] + out["analyze_change"]
    return out


def run(args: argparse.Namespace) -> int:
    """Print the 30-page document's make-up and the table of medians."""
    handbook = Path(args.handbook) if args.handbook else corpus_dir() / HANDBOOK
    data = thirty_page_document()
    s = extract_state(WordDocument.from_bytes(data))
    pages = None if args.no_page_count else page_count(data)
    print(f"30-page document: {len(data) / 1024:.0f} KiB, {s['document_info']['paragraph_count']} paragraphs, "
          f"{s['document_info']['table_count']} tables, {s['document_info']['image_count']} images, "
          f"LibreOffice pages: {pages if pages is not None else 'n/a (no soffice)'}")
    docs = [("30-page", data)]
    if handbook.exists():
        docs.append(("handbook-872p", handbook.read_bytes()))
    rows = {name: measure(name, blob, args.repeat if name == "30-page" else max(3, args.repeat // 2)) for name, blob in docs}
    keys = list(next(iter(rows.values())))
    print(f"{'median ms':28}" + "".join(f"{n:>16}" for n in rows))
    for k in keys:
        print(f"{k:28}" + "".join(f"{rows[n][k]:16.1f}" for n in rows))
    return 0
