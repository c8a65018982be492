"""Compare redline (Word tracked changes) engines on our own documents edited with our own APIs.

    python scripts/compare_redline_engines.py [--files 36] [--engines autodw,docxodus,...] [--json out.json]
    python scripts/compare_redline_engines.py --parts timing        # or matrix / documents; --matrix-engines

Candidates (each is measured only when it imports; the others are reported as not installed):

    pip install "python-redlines[docxodus]==2.0.0"   # docxodus: Docxodus, a self-contained .NET binary in a wheel
    pip install jubarte-redlines==0.14.0               # jubarte: Rust extension (AGPL-3.0-only)
    pip install docx-trackdiff==1.0.0                  # trackdiff: pure Python + lxml
    pip install openxml-audit==0.8.0                   # the Open XML SDK rules, for the validation column
    # docx-redline 1.0.3 declares Requires-Python >=3.12, so pip refuses it on 3.10/3.11; to measure it anyway:
    pip download --no-deps --python-version 3.12 --only-binary=:all: docx-redline==1.0.3 -d /tmp/drl-whl
    pip install --no-deps --ignore-requires-python /tmp/drl-whl/docx_redline-1.0.3-py3-none-any.whl

Documents: the examples/ documents and `--files` readable corpus documents (MANIFEST.tsv, spread evenly over
the sorted names; documents that already hold tracked changes, or have fewer than 8 body paragraphs of 20+
characters, are skipped). Each is edited with one session of our APIs (`autodw.apis.execute`): a word
replaced, a span made bold and red, a paragraph centred, restyled, rewritten, two made a numbered list, a
paragraph inserted and one deleted, a table cell set, a row deleted and one inserted, the footer text set.
Separately, every API example written for examples/report.docx is applied alone ("per-API" matrix).

Measured per engine and document: whether it runs (errors), the time of the comparison alone, whether
accepting every change gives the edited document's state and rejecting every change the original's
(autodw's own resolver, autodw.redline.check_redline: paragraphs, text, run and paragraph formatting, lists,
tables, headers/footers, pictures by their bytes, page layout, styles, properties), and the Open XML SDK
errors (openxml-audit, source class sdk_proxy; each file validated in its own process) the redline has
and the original did not.

Engine "autodw" is the product (autodw.redline.redline_bytes: Docxodus plus the row-property repair),
"docxodus" the same engine called directly.

Timing: median of --repeat builds of the redline for examples/report.docx and for a 100-page document built
here by code (`build_long_document`), wall-clock and CPU seconds (this process and its children), for the
comparison and for the accept/reject check.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autodw.apis import execute, registry  # noqa: E402
from autodw.document import WordDocument  # noqa: E402
from autodw.errors import ApiError, AutodwError, DocumentError  # noqa: E402
from autodw.redline import check_redline, redline_bytes  # noqa: E402
from autodw.state import extract_state  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
AUTHOR = "autodw"
Engine = Callable[[bytes, bytes], bytes]


# --- engines -------------------------------------------------------------------------------------------


def _docxodus(original: bytes, edited: bytes) -> bytes:
    from python_redlines import DocxodusEngine

    return DocxodusEngine().run_redline(AUTHOR, original, edited, detect_moves=True)[0]


def _autodw(original: bytes, edited: bytes) -> bytes:
    return redline_bytes(original, edited, author=AUTHOR)  # the product: Docxodus + autodw.redline's repairs


def _jubarte(original: bytes, edited: bytes) -> bytes:
    import jubarte_redlines

    return jubarte_redlines.compare_documents(original, edited, author=AUTHOR)


def _trackdiff(original: bytes, edited: bytes) -> bytes:
    from docx_trackdiff.compare import main  # only a command line: run its main() in this process

    with tempfile.TemporaryDirectory() as tmp:
        a, b, out = Path(tmp, "a.docx"), Path(tmp, "b.docx"), Path(tmp, "out.docx")
        a.write_bytes(original)
        b.write_bytes(edited)
        argv, sys.argv = sys.argv, ["docx-trackdiff", str(a), str(b), str(out), "--author", AUTHOR]
        try:
            main()
        except SystemExit as exc:
            if exc.code not in (0, None):
                raise RuntimeError(f"docx-trackdiff exited with {exc.code}") from None
        finally:
            sys.argv = argv
        return out.read_bytes()


def _docx_redline(original: bytes, edited: bytes) -> bytes:
    import contextlib
    import io

    from docx_redline import compare_documents

    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()):  # it prints statistics
        a, b, out = Path(tmp, "a.docx"), Path(tmp, "b.docx"), Path(tmp, "out.docx")
        a.write_bytes(original)
        b.write_bytes(edited)
        redliner, _stats = compare_documents(a, b, author=AUTHOR, track_changes=False)
        redliner.save(out)
        return out.read_bytes()


ENGINES: dict[str, tuple[str, Engine]] = {
    "autodw": ("python_redlines_docxodus", _autodw),
    "docxodus": ("python_redlines_docxodus", _docxodus),
    "jubarte": ("jubarte_redlines", _jubarte),
    "trackdiff": ("docx_trackdiff", _trackdiff),
    "docx-redline": ("docx_redline", _docx_redline),
}


def available_engines(names: list[str]) -> dict[str, Engine]:
    import importlib.util

    out = {}
    for name in names:
        module, fn = ENGINES[name]
        if importlib.util.find_spec(module) is None:
            print(f"{name}: not installed ({module} does not import); see this script's docstring", flush=True)
        else:
            out[name] = fn
    return out


# --- documents and edits -------------------------------------------------------------------------------


def corpus_documents(count: int) -> list[Path]:
    """`count` readable corpus documents spread evenly over the sorted names, with enough text to edit."""
    rows = [ln.split("\t") for ln in (CORPUS / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    names = sorted(r[0] for r in rows if len(r) > 7 and r[7] == "yes" and r[0].endswith(".docx"))
    usable = []
    for name in names:
        try:
            state = extract_state(WordDocument.open(CORPUS / name))
        except DocumentError:
            continue
        if state["interactive"]["tracked_changes"] or len(_long_paragraphs(state)) < 8:
            continue
        usable.append(CORPUS / name)
    step = max(1, len(usable) // count)
    return usable[::step][:count]


def _long_paragraphs(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in state["paragraphs"] if len(p["text"].strip()) >= 20 and not p.get("content_control")
            and not p.get("images") and not p.get("list") and re.search(r"[^\W\d_]{4,}", p["text"])]


def edit_session(state: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The API calls of one editing session on a document, chosen from its state (distinct paragraphs)."""
    long = _long_paragraphs(state)
    pick = [long[i * (len(long) - 1) // 7] for i in range(8)]
    word = lambda p: re.search(r"[^\W\d_]{4,}", p["text"]).group(0)  # noqa: E731
    calls = [
        ("replace_text", {"find": word(pick[0]), "replace": "REVISED", "paragraphs": [pick[0]["id"]], "count": 1}),
        ("set_text_format", {"paragraphs": pick[1]["id"], "span": {"match": word(pick[1])}, "bold": True, "color": "C00000"}),
        ("set_paragraph_format", {"paragraphs": pick[2]["id"], "alignment": "center"}),
        ("apply_style", {"paragraphs": [pick[3]["id"]], "style": "Heading 2"}),
        ("set_paragraph_text", {"paragraph": pick[4]["id"], "text": "This paragraph was rewritten by autodw."}),
        ("set_list_format", {"paragraphs": [pick[5]["id"], pick[6]["id"]], "kind": "numbered"}),
        ("insert_paragraph", {"text": "A paragraph inserted by autodw.", "position": {"after": pick[2]["id"]}}),
    ]
    tables = [t for t in state["tables"] if "nested_in" not in t and t["rows"] >= 2 and t["cols"] >= 2]
    if tables:
        t = tables[0]
        calls.append(("set_cell_text", {"table": t["id"], "row": 1, "col": 0, "text": "autodw"}))
        if t["rows"] >= 3:
            calls.append(("delete_row", {"table": t["id"], "index": t["rows"] - 1}))
        calls.append(("insert_row", {"table": t["id"], "index": 1, "data": [f"new {c}" for c in range(t["cols"])]}))
    calls.append(("set_header_footer", {"section": 0, "where": "footer", "text": "Reviewed by autodw"}))
    calls.append(("delete_block", {"block": pick[7]["id"]}))
    return calls


def apply_session(data: bytes, name: str) -> tuple[bytes, list[str]]:
    """The edited document and the APIs that ran (a call our API refuses on this document is left out)."""
    doc = WordDocument.from_bytes(data, name)
    done = []
    for api, args in edit_session(extract_state(doc)):
        try:
            execute(doc, api, args)
            done.append(api)
        except ApiError:
            continue
    return doc.to_bytes(), done


# --- validation ----------------------------------------------------------------------------------------

_VALIDATE = """
import json, sys
from openxml_audit import OpenXmlValidator
result = OpenXmlValidator(max_errors=100000).validate(sys.argv[1])
print(json.dumps([[e.part_uri or "", str(e.error_type), e.description] for e in result.errors
                  if str(getattr(e.source_class, "value", e.source_class)) == "sdk_proxy"]))
"""


def sdk_errors(data: bytes) -> Counter | None:
    """The Open XML SDK-class errors of a package (openxml-audit in its own process); None if it is not installed."""
    with tempfile.NamedTemporaryFile(suffix=".docx") as fh:
        fh.write(data)
        fh.flush()
        proc = subprocess.run([sys.executable, "-c", _VALIDATE, fh.name], capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        if "No module named 'openxml_audit'" in proc.stderr:
            return None
        return Counter({("(validator crashed)/", "", proc.stderr.strip().splitlines()[-1][:200]): 1})
    return Counter((part.rsplit("/", 1)[0] + "/", kind, desc) for part, kind, desc in json.loads(proc.stdout))


def new_errors(original: Counter | None, redline: Counter | None) -> list[str]:
    """Error kinds (part folder, type, description) the redline has and the original does not. Keyed by folder:
    an engine may rename parts (Docxodus copies word/charts/chart1.xml to word/charts/P<hash>.xml), and a copy
    of a part repeats the original's errors without adding a new one."""
    if original is None or redline is None:
        return []
    return sorted(f"{part}: {desc}" for part, _kind, desc in set(redline) - set(original))


# --- measuring -----------------------------------------------------------------------------------------


def measure(engine: Engine, original: bytes, edited: bytes, validate: Counter | None = None,
            edited_errors: Counter | None = None) -> dict[str, Any]:
    """One engine on one (original, edited) pair: time, accept/reject checks, new SDK errors."""
    start = time.perf_counter()
    try:
        redline = engine(original, edited)
    except Exception as exc:  # noqa: BLE001 - a candidate's failure is a measurement, not our bug
        return {"ran": False, "error": f"{type(exc).__name__}: {str(exc).strip()[:160]}"}
    seconds = time.perf_counter() - start
    out: dict[str, Any] = {"ran": True, "seconds": round(seconds, 3)}
    try:
        check = check_redline(original, edited, redline)
        out.update(accept_ok=not check.not_shown, reject_ok=not check.not_restored,
                   not_shown=check.not_shown[:6], not_restored=check.not_restored[:6])
    except AutodwError as exc:  # the redline does not even open as a Word document
        out.update(accept_ok=False, reject_ok=False, not_shown=[f"unreadable: {exc}"], not_restored=[])
    if validate is not None:
        out["new_sdk_errors"] = new_errors(validate, sdk_errors(redline))[:20]
        out["of_which_in_edited"] = sum(1 for e in out["new_sdk_errors"] if e in new_errors(validate, edited_errors))
    return out


def corpus_comparison(engines: dict[str, Engine], files: int, validate: bool) -> dict[str, Any]:
    docs = sorted((ROOT / "examples").glob("*.docx")) + corpus_documents(files)
    results: dict[str, Any] = {}
    for path in docs:
        original = path.read_bytes()
        if extract_state(WordDocument.from_bytes(original, path.name))["interactive"]["tracked_changes"]:
            print(f"{path.name}: skipped (it already holds tracked changes, which accept-all would also accept)")
            continue
        try:
            edited, done = apply_session(original, path.name)
        except DocumentError as exc:
            print(f"{path.name}: skipped ({exc})")
            continue
        baseline = sdk_errors(original) if validate else None
        in_edited = sdk_errors(edited) if validate else None
        row = {"apis": done, "edited_new_sdk_errors": new_errors(baseline, in_edited)}
        for name, engine in engines.items():
            row[name] = measure(engine, original, edited, baseline, in_edited)
        results[path.name] = row
        print(f"{path.name[:48]:48} {len(done):2} calls  " + "  ".join(
            f"{n}: {_cell(row[n])}" for n in engines), flush=True)
    return results


def _cell(r: dict[str, Any]) -> str:
    if not r["ran"]:
        return "ERROR"
    flags = ("A" if r["accept_ok"] else "a") + ("R" if r["reject_ok"] else "r")
    sdk = r.get("new_sdk_errors")
    return f"{flags}{'' if sdk is None else f' +{len(sdk)}'} {r['seconds']:.2f}s"


def per_api_matrix(engines: dict[str, Engine]) -> dict[str, Any]:
    """Every API example written for examples/report.docx, applied alone: does each engine carry it?"""
    original = (ROOT / "examples" / "report.docx").read_bytes()
    matrix: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for spec in registry():
            example = next((e for e in spec.examples if e.document == "examples/report.docx"), None)
            if example is None:
                continue
            doc = WordDocument.from_bytes(original, "report.docx")
            doc.asset_roots = [ROOT / "examples", ROOT, Path(tmp)]
            before = doc.to_bytes()
            try:
                result = execute(doc, spec.name, example.args)
            except ApiError:
                continue
            edited = doc.to_bytes()
            if result.snapshot is None or edited == before:
                continue
            row = {}
            for name, engine in engines.items():
                r = measure(engine, original, edited)
                row[name] = "error" if not r["ran"] else ("both" if r["accept_ok"] and r["reject_ok"] else
                                                          "accept only" if r["accept_ok"] else
                                                          "reject only" if r["reject_ok"] else "neither")
                if r["ran"] and not (r["accept_ok"] and r["reject_ok"]):
                    row[name + "_missing"] = (r["not_shown"] or r["not_restored"])[:2]
            matrix[spec.name] = row
            print(f"{spec.name:28} " + "  ".join(f"{n}: {row[n]}" for n in engines), flush=True)
    return matrix


#: reject-all lines that only say a header/footer the session created (where the section had none) is still
#: there, empty: a section's header/footer reference cannot be tracked, only the text in it
_NEW_STORY = re.compile(r"^(sections\[\d+\]\.(headers|footers)\.\w+: None -> \{.*'text': ''|has_(header|footer): "
                        r"False -> True|styles now in use: (Header|Footer)$)")


def _restored(r: dict[str, Any]) -> bool:
    return r["reject_ok"] or all(_NEW_STORY.match(line) for line in r["not_restored"])


def summarize(results: dict[str, Any], engines: list[str]) -> dict[str, Any]:
    out = {}
    for name in engines:
        rows = [r[name] for r in results.values()]
        ran = [r for r in rows if r["ran"]]
        new = [r for r in ran if r.get("new_sdk_errors")]
        out[name] = {
            "documents": len(rows), "ran": len(ran),
            "accept_equals_edited": sum(r["accept_ok"] for r in ran),
            "reject_equals_original": sum(r["reject_ok"] for r in ran),
            "both": sum(r["accept_ok"] and r["reject_ok"] for r in ran),
            "reject_equals_original_but_an_empty_new_header_footer": sum(_restored(r) for r in ran),
            "both_but_an_empty_new_header_footer": sum(r["accept_ok"] and _restored(r) for r in ran),
            "documents_with_new_sdk_errors": len(new),
            "new_sdk_error_kinds": sum(len(r["new_sdk_errors"]) for r in new),
            "of_which_in_edited": sum(r["of_which_in_edited"] for r in new),
            "median_seconds": round(statistics.median(r["seconds"] for r in ran), 3) if ran else None,
        }
    return out


# --- timing --------------------------------------------------------------------------------------------


def build_long_document(units: int = 102) -> bytes:
    """A report of ~100 pages (python-docx's default template: Letter, 11 pt): `units` times three paragraphs
    of ~110 words, a heading every fifth unit and a 12-row table every tenth (LibreOffice lays the default out
    on 100 pages; `timing` reports its count)."""
    import docx

    words = ("revenue margin quarter region partner forecast pipeline customer contract renewal budget audit "
             "supplier growth target market segment pricing discount volume").split()
    document = docx.Document()
    document.add_heading("Annual operations review", 0)
    n = 0
    for page in range(units):
        if page % 5 == 0:
            document.add_heading(f"Chapter {page // 5 + 1}", 1)
        for _ in range(3):
            n += 1
            text = " ".join(words[(n * 7 + k * 3) % len(words)] for k in range(110))
            document.add_paragraph(f"{n}. " + text.capitalize() + ".")
        if page % 10 == 9:
            table = document.add_table(rows=12, cols=4)
            table.style = "Table Grid"
            for r, row in enumerate(table.rows):
                for c, cell in enumerate(row.cells):
                    cell.text = "Region" if r == 0 and c == 0 else f"{r * 10 + c}"
    import io

    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


def _median_time(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Median wall-clock seconds and median CPU seconds (this process and its children, e.g. the .NET engine):
    on a shared machine the CPU time is the steadier figure."""
    import resource

    walls, cpus = [], []
    for _ in range(repeat):
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu, start = time.process_time(), time.perf_counter()
        fn()
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(time.process_time() - cpu + (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime))
    return round(statistics.median(walls), 2), round(statistics.median(cpus), 2)


def timing(repeat: int) -> dict[str, Any]:
    """Median seconds to build (and to build and check) the product's redline of two documents."""
    out = {}
    long_original = build_long_document()
    for label, original in (("examples/report.docx", (ROOT / "examples" / "report.docx").read_bytes()),
                            ("100-page document", long_original)):
        edited, done = apply_session(original, label)
        redline = redline_bytes(original, edited)
        row: dict[str, Any] = {"apis": len(done), "bytes": len(original)}
        row["build_wall_s"], row["build_cpu_s"] = _median_time(lambda: redline_bytes(original, edited), repeat)
        row["check_wall_s"], row["check_cpu_s"] = _median_time(lambda: check_redline(original, edited, redline), repeat)
        row["check_complete"] = check_redline(original, edited, redline).complete
        out[label] = row
        print(f"{label}: {row}", flush=True)
    pages = _page_count(long_original)
    out["100-page document"]["pages_by_libreoffice"] = pages
    return out


def _page_count(data: bytes) -> int | None:
    """Pages of a document as LibreOffice lays it out (None without soffice/pdfinfo)."""
    import shutil

    if not (shutil.which("soffice") and shutil.which("pdfinfo")):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "long.docx")
        src.write_bytes(data)
        subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp}/profile", "--headless", "--convert-to", "pdf",
                        "--outdir", tmp, str(src)], capture_output=True, timeout=300)
        pdf = Path(tmp, "long.pdf")
        if not pdf.exists():
            return None
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
        m = re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE)
        return int(m.group(1)) if m else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=36, help="corpus documents (besides examples/)")
    ap.add_argument("--engines", default=",".join(ENGINES), help="comma-separated: " + ", ".join(ENGINES))
    ap.add_argument("--no-validate", action="store_true", help="skip the openxml-audit column")
    ap.add_argument("--repeat", type=int, default=5, help="runs per timing (median)")
    ap.add_argument("--parts", default="matrix,documents,timing", help="which parts to run (comma-separated)")
    ap.add_argument("--matrix-engines", default="autodw", help="engines of the per-API matrix (default: the product)")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--summarize", type=Path, default=None, metavar="JSON",
                    help="only print the summary of the documents part of an earlier --json file")
    args = ap.parse_args()
    if args.summarize:
        documents = json.loads(args.summarize.read_text(encoding="utf-8"))["documents"]
        names = [n for n in ENGINES if n in next(iter(documents.values()))]
        print(json.dumps(summarize(documents, names), indent=1))
        return
    parts = args.parts.split(",")
    report: dict[str, Any] = {}
    if "matrix" in parts:
        engines = available_engines(args.matrix_engines.split(","))
        print("== per-API matrix (examples/report.docx, one API example at a time)")
        report["per_api"] = per_api_matrix(engines)
        counts = {n: Counter(row[n] for row in report["per_api"].values()) for n in engines}
        print("per-API: " + "; ".join(f"{n}: {dict(c)}" for n, c in counts.items()))
    if "documents" in parts:
        engines = available_engines(args.engines.split(","))
        print("== documents edited with one API session (A/a accept-all == edited, R/r reject-all == original, "
              "+N new sdk_proxy error kinds)")
        report["documents"] = corpus_comparison(engines, args.files, validate=not args.no_validate)
        report["summary"] = summarize(report["documents"], list(engines))
        print(json.dumps(report["summary"], indent=1))
    if "timing" in parts:
        print("== timing (the product, median of %d)" % args.repeat)
        report["timing"] = timing(args.repeat)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
