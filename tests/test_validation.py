"""Output Word opens without a repair prompt: no API adds an Open XML SDK-class error.

Validated with openxml-audit (autodw.analysis.validation: each document by a new validator, in worker processes in parallel):

- every example of every API that edits, on its sample document (slow);
- API calls adapted (autodw.apis.adapt) to real corpus files chosen by a fixed rule (CORPUS_PLAN):
  files with footnotes (among them older Word's separator ids 0 and 1), comments, charts, VML shapes,
  tracked changes and non-English style ids (slow);
- quick subset (not slow): the cases issue 17 names, on the sample documents, and one corpus call per category.

A call fails when its output has an SDK-class error (source class ``sdk_proxy``) that its input did not
have. openxml-audit's own "Word app-compat" heuristics are reported, never failed. Summary lines:

    python -m pytest tests/test_validation.py -s -q
"""

from __future__ import annotations

import csv
import os
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from lxml import etree

from autodw.apis import execute, registry
from autodw.apis.adapt import Adapter, NotApplicable
from autodw.core.document import WordDocument
from autodw.core.errors import ApiError, DocumentError
from autodw.analysis.state import extract_state
from autodw.analysis.validation import Finding, added, validate_all
from autodw.core.xml import qn
from tests.conftest import CORPUS, ROOT

REG = registry()
WORKERS = max(2, os.cpu_count() or 1)

#: category -> (files taken, in name order, among the corpus files that have it; APIs called on each file).
CORPUS_PLAN: dict[str, tuple[int, tuple[str, ...]]] = {
    "footnote separators 0/1": (3, ("insert_footnote", "delete_footnote", "duplicate_block")),
    "footnotes": (2, ("insert_footnote", "insert_paragraph")),
    "comments": (3, ("insert_comment", "delete_comment", "duplicate_block")),
    "charts": (3, ("insert_chart", "change_chart_type", "update_chart_data")),
    "non-English style ids": (4, ("insert_table", "insert_footnote", "set_list_format", "insert_column",
                                  "insert_comment", "insert_caption", "create_style", "insert_heading",
                                  "format_matches")),
    "vml": (2, ("duplicate_block", "add_watermark")),
    "tracked-changes": (2, ("split_table", "duplicate_block", "insert_row")),
}


@dataclass
class Case:
    """One API call: its label, the input document and the edited output."""

    label: str
    source: Path | bytes
    output: bytes


def _run(label: str, path: Path, data: bytes | None, api: str, args: dict, tmp: Path) -> Case:
    doc = WordDocument.from_bytes(data, path.name) if data is not None else WordDocument.open(path)
    doc.asset_roots = [tmp, ROOT / "examples", ROOT]
    execute(doc, api, args)
    return Case(label, path, doc.to_bytes(keep_ids=False))


def _check(cases: list[Case]) -> tuple[list[str], Counter]:
    """Validate every input once and every output; return the failures and counts of reported heuristics."""
    sources = list(dict.fromkeys(str(c.source) for c in cases))
    findings = validate_all([Path(s) for s in sources] + [c.output for c in cases], workers=WORKERS)
    before = dict(zip(sources, findings))
    failures, heuristics = [], Counter()
    for case, after in zip(cases, findings[len(sources):]):
        new = added(before[str(case.source)], after)
        errors = [f for f in new if f.is_error]
        if errors:
            failures.append(f"{case.label}: " + "; ".join(str(f) for f in errors[:5]))
        heuristics.update(("known false positive: " if f.false_positive else "") + f.description.split(":")[0][:90]
                          for f in new if not f.is_error and f.severity == "error")
    return failures, heuristics


def _report(what: str, cases: list[Case], heuristics: Counter) -> None:
    apis = {c.label.split(" ")[0] for c in cases}
    print(f"\n[validation] {what}: {len(cases)} calls of {len(apis)} APIs validated with openxml-audit; "
          f"added app-compat findings (reported, not failed): {dict(heuristics) or 'none'}", flush=True)


# --- the cases issue 17 names --------------------------------------------------------------


NAMED = [
    ("insert_comment", {"paragraph": "p2", "text": "Source?"}, "examples/review.docx"),
    ("insert_chart", {"position": "end", "chart_type": "bar", "categories": ["A", "B"],
                      "series": [{"name": "S", "values": [1, 2]}]}, "examples/review.docx"),
    ("insert_footnote", {"paragraph": "p4", "text": "A note."}, "examples/report.docx"),
    ("insert_table", {"position": "end", "rows": 2, "cols": 2}, "examples/contract_zh.docx"),
    ("set_list_format", {"paragraphs": ["p3"], "kind": "bullet"}, "examples/contract_zh.docx"),
    ("set_default_font", {"font": "Georgia", "size_pt": 12}, "examples/report.docx"),
    ("duplicate_block", {"block": "t1", "position": "end"}, "examples/report.docx"),
    ("split_table", {"table": "t1", "row": 2}, "examples/report.docx"),
    ("set_paragraph_border", {"paragraphs": "p1", "sides": ["bottom"], "style": "none"}, "examples/report.docx"),
]


def test_the_cases_issue_17_names_and_one_corpus_call_per_category_add_no_error(tmp_path):
    """The quick subset: the named cases on the sample documents, and the first applicable planned call of
    each corpus category."""
    cases = [_run(f"{api} on {document}", ROOT / document, None, api, args, tmp_path) for api, args, document in NAMED]
    on_corpus, _ = corpus_cases(tmp_path, per_category=1)
    assert len(on_corpus) == len(CORPUS_PLAN)
    failures, heuristics = _check(cases + on_corpus)
    _report("issue 17 cases and one corpus call per category", cases + on_corpus, heuristics)
    assert not failures, "\n".join(failures)


# --- every example -------------------------------------------------------------------------


@pytest.mark.slow
def test_every_api_example_adds_no_error(tmp_path):
    cases = []
    for spec in REG:
        if spec.read_only:
            continue
        for i, example in enumerate(spec.examples):
            path = ROOT / example.document
            cases.append(_run(f"{spec.name} example {i} on {example.document}", path, None, spec.name, example.args,
                              tmp_path))
    failures, heuristics = _check(cases)
    _report("API examples", cases, heuristics)
    assert len({c.label.split(" ")[0] for c in cases}) == sum(1 for s in REG if not s.read_only)
    assert not failures, f"{len(failures)} of {len(cases)} example calls add SDK errors:\n" + "\n".join(failures)


# --- calls adapted to corpus files ---------------------------------------------------------


def _features(path: Path) -> set[str]:
    """What a corpus file has: the manifest's features plus the two issue 17 is about (read from the file)."""
    found: set[str] = set()
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        if "word/footnotes.xml" in names:
            xml = z.read("word/footnotes.xml")
            if b'w:type="continuationSeparator" w:id="1"' in xml or b'w:id="1" w:type="continuationSeparator"' in xml:
                found.add("footnote separators 0/1")
        if "word/styles.xml" in names:
            styles = etree.fromstring(z.read("word/styles.xml"), etree.XMLParser(resolve_entities=False))
            default = next((s.get(qn("w:styleId")) for s in styles.iterchildren(qn("w:style"))
                            if s.get(qn("w:type")) == "paragraph" and s.get(qn("w:default")) in ("1", "true")), None)
            if default not in (None, "Normal"):
                found.add("non-English style ids")
    return found


def _corpus_files() -> dict[str, list[Path]]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.exists():
        pytest.skip(f"the corpus is not available at {CORPUS}")
    chosen: dict[str, list[Path]] = {c: [] for c in CORPUS_PLAN}
    with manifest.open(encoding="utf-8") as f:
        rows = sorted(csv.DictReader(f, delimiter="\t"), key=lambda r: r["file"])
    for row in rows:
        path = CORPUS / row["file"]
        if row["opens_with_python_docx"] != "yes" or not path.exists():
            continue
        listed = {x.strip() for x in row["notes"].split("|")[0].split(",")}
        features = listed | _features(path)
        for category, (count, _) in CORPUS_PLAN.items():
            if category in features and len(chosen[category]) < count:
                chosen[category].append(path)
    return chosen


def corpus_cases(tmp: Path, per_category: int | None = None) -> tuple[list[Case], Counter]:
    """The planned calls that apply to their file (an API refusing a file is counted, not validated); with
    `per_category`, only that many calls per category."""
    cases, skipped = [], Counter()
    for category, paths in _corpus_files().items():
        made = len(cases)
        for path in paths:
            if per_category is not None and len(cases) - made >= per_category:
                break
            try:
                doc = WordDocument.open(path)
            except DocumentError:
                skipped["does not open"] += 1
                continue
            data, adapter = doc.to_bytes(keep_ids=False), Adapter(extract_state(doc))
            for api in CORPUS_PLAN[category][1]:
                if per_category is not None and len(cases) - made >= per_category:
                    break
                spec = REG.get(api)
                try:
                    args = adapter.adapt(spec, spec.examples[0].args)
                    cases.append(_run(f"{api} on {path.name} ({category})", path, data, api, args, tmp))
                except NotApplicable:
                    skipped["not applicable"] += 1
                except ApiError as exc:
                    skipped[type(exc).__name__] += 1
    return cases, skipped


@pytest.mark.slow
def test_text_to_table_on_corpus_files_adds_no_error(tmp_path):
    """Pasted lines turned into a table in real files (non-English style ids: the table style must resolve)."""
    cases = []
    for path in _corpus_files()["non-English style ids"]:
        doc = WordDocument.open(path)
        first = next(p["id"] for p in extract_state(doc)["paragraphs"] if p["text"].strip())
        ids = [execute(doc, "insert_paragraph", {"position": {"after": first}, "text": "Name\tQty\tNote"}).created[0]]
        for line in ("Pens\t12\tblue", "Ink\t3\t"):
            ids += execute(doc, "insert_paragraph", {"position": {"after": ids[-1]}, "text": line}).created
        data = doc.to_bytes(keep_ids=True)
        cases.append(_run(f"text_to_table on {path.name}", path, data, "text_to_table",
                          {"paragraphs": ids, "header_row": True}, tmp_path))
    assert len(cases) >= 3
    failures, heuristics = _check(cases)
    _report("text_to_table on corpus files", cases, heuristics)
    assert not failures, "\n".join(failures)


@pytest.mark.slow
def test_api_calls_on_corpus_files_add_no_error(tmp_path):
    cases, skipped = corpus_cases(tmp_path)
    failures, heuristics = _check(cases)
    _report(f"corpus calls on {len({c.source for c in cases})} files (calls not made: {dict(skipped)})", cases, heuristics)
    assert len(cases) >= 40
    for category in CORPUS_PLAN:
        assert any(f"({category})" in c.label for c in cases), f"no call on a file with {category}"
    assert not failures, f"{len(failures)} of {len(cases)} corpus calls add SDK errors:\n" + "\n".join(failures)


# --- the comparison itself -----------------------------------------------------------------


def test_added_compares_findings_without_positions():
    def f(part, description, source="sdk_proxy"):
        return Finding(source, "error", "schema", part, "/document[1]/body[1]/p[3]", description)

    before = [f("/word/document.xml", "Value -5 is less than minimum 0")]
    moved = [f("/word/document.xml", "Value -7 is less than minimum 0")]
    assert added(before, moved) == []
    assert added(before, moved * 2) == []  # the input's problem repeated (e.g. in a copy) is not a new one
    other_part = [f("/word/charts/chart2.xml", "Value -5 is less than minimum 0")]
    assert added(before, moved + other_part) == other_part
    assert [x.is_error for x in (f("/a", "x"), f("/a", "x", "word_app_compat"))] == [True, False]
    assert not Finding("sdk_proxy", "error", "semantic", "/word/document.xml", "",
                       "Numbering definition '0' referenced but not found", "Sem_ReferencedElementMissing").is_error


# --- autodw validate -----------------------------------------------------------------------


def _broken_copy(source: Path, target: Path) -> Path:
    """`source` with a paragraph alignment the schema does not allow (an SDK schema error)."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "word/document.xml":
                data = data.replace(b"<w:p>", b'<w:p><w:pPr><w:jc w:val="sideways"/></w:pPr>', 1)
            zout.writestr(item, data)
    return target


def test_cli_validate_exit_codes_and_json(tmp_path, capsys):
    import json

    from autodw.interfaces.cli import main

    original = ROOT / "examples" / "review.docx"
    assert main(["validate", str(original)]) == 0
    assert "0 Open XML SDK error(s)" in capsys.readouterr().out
    broken = _broken_copy(original, tmp_path / "broken.docx")
    assert main(["validate", str(broken), "--against", str(original), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] and {e["kind"] for e in report["errors"]} == {"schema"}
    assert any("sideways" in e["description"] for e in report["errors"])
    assert main(["validate", str(broken), "--against", str(broken)]) == 0  # nothing added
    capsys.readouterr()
    text = tmp_path / "notes.docx"
    text.write_text("not a document")
    assert main(["validate", str(text)]) == 2
    assert capsys.readouterr().err.startswith("error: ")


# --- the validator's processes -------------------------------------------------------------


class _CountingValidator:
    """Stands in for openxml-audit's validator: each finding says how many files this validator has validated."""

    def __init__(self):
        self.calls = 0

    def validate(self, path):
        from types import SimpleNamespace as NS

        if path == "fails":
            raise ValueError("not a package")
        self.calls += 1
        return NS(errors=[NS(source_class=NS(value="sdk_proxy"), severity=NS(value="error"), error_type=NS(value="schema"),
                             part_uri="/word/document.xml", path="", description=f"call {self.calls}: {path}", id="")])


def test_the_worker_validates_each_file_with_a_validator_that_has_validated_nothing():
    import io
    import json

    from autodw.analysis.validation_worker import serve

    out = io.StringIO()
    serve(_CountingValidator, ["a.docx\n", "fails\n", "b.docx\n", "c.docx\n"], out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a.get("findings", [{}])[0].get("description") for a in answers] == \
        ["call 1: a.docx", None, "call 1: b.docx", "call 1: c.docx"]  # never "call 2": a new validator each
    assert answers[1] == {"error": "ValueError: not a package"}


def test_validate_all_keeps_the_order_across_lanes_and_names_a_file_that_takes_too_long(tmp_path):
    from autodw.analysis.validation import ValidatorUnavailableError

    review = ROOT / "examples" / "review.docx"
    broken = _broken_copy(review, tmp_path / "broken.docx")
    findings = validate_all([broken, review, review, broken, review], workers=2)
    sideways = [any("sideways" in f.description for f in found) for found in findings]
    assert sideways == [True, False, False, True, False]
    assert findings[0] == findings[3] and findings[1] == findings[2] == findings[4]
    assert validate_all([]) == []
    with pytest.raises(ValidatorUnavailableError, match=r"validating review\.docx took longer than 0 s"):
        validate_all([review], timeout=0.01)


def test_a_validation_worker_keeps_one_process_for_many_documents_and_starts_a_new_one_after_a_failure(tmp_path):
    from autodw.analysis.validation import ValidationWorker, ValidatorUnavailableError

    review = ROOT / "examples" / "review.docx"
    broken = _broken_copy(review, tmp_path / "broken.docx")
    with ValidationWorker() as worker:
        clean = worker.validate(review)
        process = worker._process
        assert any("sideways" in f.description for f in worker.validate(broken.read_bytes()))  # bytes as well as paths
        assert worker.validate(review) == clean  # the broken file left nothing behind
        assert worker._process is process and process.poll() is None
        (tmp_path / "folder.docx").mkdir()  # the validator fails on this file alone: the worker is kept
        with pytest.raises(ValidatorUnavailableError, match=r"failed on folder\.docx: IsADirectoryError"):
            worker.validate(tmp_path / "folder.docx")
        assert worker._process is process and worker.validate(review) == clean
        worker.timeout = 0.01
        with pytest.raises(ValidatorUnavailableError, match="took longer than 0 s"):
            worker.validate(review)
        assert worker._process is None and process.poll() is not None  # the timed-out process is gone
        worker.timeout = 600
        assert worker.validate(review) == clean
        worker._process.kill()  # the worker dies between two documents: that document fails, saying so
        with pytest.raises(ValidatorUnavailableError, match=r"the validator failed on review\.docx"):
            worker.validate(review)
        assert worker.validate(review) == clean  # the next one gets a new worker
        process = worker._process
    assert process.poll() is not None  # the with block ended it


def test_the_runners_word_check_reuses_its_workers_and_close_ends_them(tmp_path):
    from autodw.eval.word_check import WordCheck

    review = (ROOT / "examples" / "review.docx").read_bytes()
    broken = _broken_copy(ROOT / "examples" / "review.docx", tmp_path / "broken.docx")
    check = WordCheck()
    try:
        assert check.added(review, review) == []
        assert check.validations == 1  # the same bytes as input and output are validated once
        added_now = check.added(review, broken.read_bytes())
        assert any("sideways" in f["description"] for f in added_now)
        assert check.validations == 2
        # the next session turn starts from the output just checked: nothing is validated again
        assert check.added(broken.read_bytes(), review) == []
        assert check.validations == 2
        worker = check._idle.get_nowait()
        assert check._idle.empty()  # one lane in use: one worker, used for both validations
        process = worker._process
        check._idle.put(worker)
    finally:
        check.close()
    assert process.poll() is not None


def test_a_part_whose_root_element_is_not_its_content_types_is_an_error(tmp_path, capsys):
    """openxml-audit passes a chart part replaced by ``<x/>`` (the SDK refuses it); autodw's own check names it, and
    no corpus file (Strict ones included: their namespaces are the same elements) has such a part."""
    from autodw.analysis.validation import part_root_findings, validate

    damaged = tmp_path / "chart.docx"
    with zipfile.ZipFile(ROOT / "examples" / "report.docx") as source, zipfile.ZipFile(damaged, "w") as out:
        for item in source.infolist():
            out.writestr(item, b"<x/>" if item.filename == "word/charts/chart1.xml" else source.read(item.filename))
    errors = [f for f in validate(damaged) if f.is_error]
    assert [(f.source, f.part, f.rule) for f in errors] == [("part_root", "/word/charts/chart1.xml", "PartRootElement")]
    assert errors[0].description.startswith("the part's root element is x (no namespace), not chartSpace")
    assert not [p for p in sorted(CORPUS.rglob("*.do[ct]*")) if part_root_findings(p)]
    from autodw.interfaces.cli import main

    assert main(["validate", str(damaged)]) == 1
    said = capsys.readouterr().out.splitlines()[-1]
    assert said == "0 Open XML SDK error(s) and 1 part(s) whose root element is not the one its content type names in the file"
