"""The contract every registered API keeps: its examples run and change the state, the saved file
re-opens with the same state, bad arguments raise ArgumentError and leave every part untouched."""

from __future__ import annotations

import io
import json

import docx
import pytest

from autodw.analysis.align import align_ids
from autodw.apis import execute, registry
from autodw.analysis.changes import analyze_change, has_changes
from autodw.core.document import WordDocument
from autodw.core.errors import ApiError, ArgumentError, UnknownApiError
from autodw.intents.labels import INTENTS
from autodw.analysis.state import extract_state
from tests.conftest import ROOT, run_cli
from tests.rendering import require_renderer

REG = registry()
CASES = [(spec.name, i) for spec in REG for i in range(len(spec.examples))]
DOCX_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"


def _open(spec, i: int, out_dir) -> WordDocument:
    """The example's document; outputs (exports, copies) go to `out_dir`, inputs come from the repository."""
    doc = WordDocument.open(ROOT / spec.examples[i].document)
    doc.asset_roots = [out_dir, ROOT / "examples", ROOT]
    return doc


@pytest.mark.parametrize("name, i", CASES)
def test_example_runs_changes_state_and_survives_save(name, i, tmp_path):
    if name in ("update_fields", "export_document"):  # they run LibreOffice
        require_renderer()
    spec = REG.get(name)
    doc = _open(spec, i, tmp_path)
    before = extract_state(doc)
    result = execute(doc, name, spec.examples[i].args)
    after = extract_state(doc)
    if spec.read_only:
        assert result.data is not None and not has_changes(analyze_change(before, after))
        return
    assert has_changes(analyze_change(before, after)), f"{name} example {i} changed nothing visible in the state"
    out = doc.save(tmp_path / "out.docx")
    reopened = WordDocument.open(out)
    again = align_ids(after, extract_state(reopened))
    drift = analyze_change(after, again)
    assert not has_changes(drift), f"the saved file differs from the edited document: {drift}"
    if doc.main_content_type == DOCX_MAIN:
        docx.Document(io.BytesIO(out.read_bytes()))


def _bad_id_args(spec):
    """The first example's arguments with one id argument pointing at an element that does not exist."""
    args = dict(spec.examples[0].args)
    for key, schema in spec.parameters["properties"].items():
        pattern = schema.get("pattern", "")
        if key in args and pattern.startswith("^(") and pattern.endswith(")[0-9]+$"):
            prefix = pattern[2:].split(")")[0].split("|")[0]
            args[key] = f"{prefix}9999"
            return args
    return None


@pytest.mark.parametrize("name", REG.names())
def test_bad_arguments_are_refused_and_change_nothing(name, tmp_path):
    spec = REG.get(name)
    doc = _open(spec, 0, tmp_path)
    parts = doc.members(keep_ids=True)
    with pytest.raises(ArgumentError, match="unknown argument"):
        execute(doc, name, {**spec.examples[0].args, "no_such_argument": 1})
    if spec.parameters["required"]:
        with pytest.raises(ArgumentError, match="missing required argument"):
            execute(doc, name, {})
    bad = _bad_id_args(spec)
    if bad is not None:
        with pytest.raises(ApiError, match="9999"):
            execute(doc, name, bad)
    texts = [k for k, v in spec.examples[0].args.items() if isinstance(v, str)]
    for key in texts:  # a character XML cannot hold: the caller's mistake (it was an internal error)
        with pytest.raises(ArgumentError):
            execute(doc, name, {**spec.examples[0].args, key: spec.examples[0].args[key] + "\x0b"})
    assert doc.members(keep_ids=True) == parts


def test_a_character_a_document_cannot_hold_is_refused_naming_the_argument():
    doc = WordDocument.open(ROOT / "examples" / "report.docx")
    with pytest.raises(ArgumentError, match=r"argument 'text' .* \(U\+000B at position 1\)"):
        execute(doc, "insert_paragraph", {"position": "end", "text": "a\x0bb"})
    with pytest.raises(ArgumentError, match=r"argument 'data.1.0' .*U\+DCFF"):  # an undecodable byte, from argv
        execute(doc, "insert_table", {"position": "end", "rows": 2, "cols": 1, "data": [["a"], ["b\udcff"]]})
    execute(doc, "insert_paragraph", {"position": "end", "text": "tab\there, line\nbreak"})  # these it can


def test_a_refusal_never_echoes_a_huge_argument_name():
    """Found by the arguments fuzz harness (issue 49): an unknown argument named with 100,000 characters came back
    whole in the refusal, which goes to the model."""
    doc = WordDocument.open(ROOT / "examples" / "report.docx")
    for args in ({"a" * 100_000: 1}, {"a" * 100_000: "bell\x07"}, {"text": "x", "position": "end", **{f"k{i}": 1 for i in range(50)}}):
        with pytest.raises(ArgumentError) as caught:
            execute(doc, "insert_paragraph", args)
        assert len(str(caught.value)) < 1000, str(caught.value)[:300]
    for api, args in (("delete_bookmark", {"bookmark": "🙂" * 10_000}), ("apply_style", {"paragraphs": "p1", "style": "s" * 10_000}),
                      ("insert_cross_reference", {"paragraph": "p1", "bookmark": "b" * 10_000}),
                      ("insert_hyperlink", {"paragraph": "p1", "text": "x", "bookmark": "b" * 10_000}),
                      ("set_custom_property", {"name": "n" * 1_000_000, "value": 1})):  # too long for the schema
        with pytest.raises(ArgumentError) as caught:  # a name looked up and not found, or too long: later findings
            execute(doc, api, args)
        assert len(str(caught.value)) < 3000, (api, str(caught.value)[:300])


def test_numbers_a_model_writes_whole_as_floats_are_ints_and_no_number_is_nan_or_nested_too_deep():
    doc = WordDocument.open(ROOT / "examples" / "report.docx")
    result = execute(doc, "delete_row", {"table": "t1", "index": 2.0})  # small models write 2.0
    assert result.args["index"] == 2 and isinstance(result.args["index"], int)
    result = execute(doc, "insert_table", {"position": "end", "rows": 2.0, "cols": 1, "data": [["a"], ["b"]]})
    assert result.args["rows"] == 2 and isinstance(result.args["rows"], int)
    parts = doc.members(keep_ids=True)
    for args, message in (({"table": "t1", "index": 2.5}, "must be of type integer"),
                          ({"table": "t1", "index": 1e308}, r"must be of type integer \(got 1e\+308\)"),
                          ({"table": "t1", "index": float("nan")}, "is nan, not a number")):
        with pytest.raises(ArgumentError, match=message):
            execute(doc, "delete_row", args)
    with pytest.raises(ArgumentError, match="is inf, not a number"):
        execute(doc, "set_text_format", {"target": "p1", "size_pt": float("inf")})
    nested: list = []
    for _ in range(500):
        nested = [nested]
    with pytest.raises(ArgumentError, match="nested more than"):  # not a RecursionError in the schema check
        execute(doc, "insert_paragraph", {"position": "end", "text": "x", "style": nested})
    with pytest.raises(ArgumentError, match="not a usable path: File name too long"):
        execute(doc, "insert_image", {"path": "x" * 300 + ".png", "position": "end"})
    assert doc.members(keep_ids=True) == parts


def test_unknown_api_suggests_names():
    doc = WordDocument.open(ROOT / "examples" / "report.docx")
    with pytest.raises(UnknownApiError, match="insert_paragraph"):
        execute(doc, "insert_paragrap", {})


def test_catalogue_size_and_intents():
    counts = {intent: len(REG.by_intent(intent)) for intent in INTENTS}
    assert sum(counts.values()) == len(REG) >= 80, counts
    assert all(n >= 5 for n in counts.values()), counts


def test_apis_json_catalogue():
    out = run_cli("apis", "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert len(data) == len(REG)
    for entry in data:
        assert set(entry) == {"name", "intent", "description", "parameters", "examples"}
        assert entry["parameters"]["type"] == "object" and entry["examples"]
        for ex in entry["examples"]:
            assert set(ex) == {"args", "document"} and (ROOT / ex["document"]).exists()


def test_call_command_writes_nothing_on_bad_arguments(tmp_path):
    out_path = tmp_path / "out.docx"
    bad = run_cli("call", str(ROOT / "examples" / "report.docx"), "insert_paragraph", "--args", '{"text": 5}', "-o", str(out_path))
    assert bad.returncode == 2 and bad.stderr.startswith("error: insert_paragraph:") and not out_path.exists()
    deep = run_cli("call", str(ROOT / "examples" / "report.docx"), "insert_paragraph", "--args",
                   '{"text": ' + "[" * 100_000 + "]" * 100_000 + "}", "-o", str(out_path))
    assert deep.returncode == 2 and "nested too deeply" in deep.stderr and not out_path.exists()
    good = run_cli("call", str(ROOT / "examples" / "report.docx"), "insert_paragraph", "--args",
                   '{"text": "Hello", "position": "end"}', "-o", str(out_path))
    assert good.returncode == 0, good.stderr
    assert "added paragraph" in good.stdout and out_path.exists()
    for name in ("out.pdf", "out.doc", "out.docm", "out"):  # refused before the call: no edit reported, nothing written
        refused = run_cli("call", str(ROOT / "examples" / "report.docx"), "insert_paragraph", "--args",
                          '{"text": "Hello", "position": "end"}', "-o", str(tmp_path / name))
        assert refused.returncode == 2 and refused.stdout == "" and ".docx" in refused.stderr, refused.stderr
        assert not (tmp_path / name).exists()


def test_a_bare_number_is_a_length_only_where_the_schema_states_its_unit():
    """Writers wrote space_before 12 and width 8: a length whose description states its unit (points for paragraph
    spacing) takes a bare number in it, written with that unit; any other refuses it, naming the accepted forms."""
    doc = WordDocument.open(ROOT / "examples" / "report.docx")
    result = execute(doc, "set_paragraph_format", {"paragraphs": ["p1"], "space_before": 12, "space_after": 6.5,
                                                   "line_height": 20})
    assert {k: result.args[k] for k in ("space_before", "space_after", "line_height")} == \
        {"space_before": "12pt", "space_after": "6.5pt", "line_height": "20pt"}
    assert extract_state(doc)["paragraphs"][0]["spacing"]["before_pt"] == 12
    stated = {(spec.name, key) for spec in REG for key, schema in spec.parameters["properties"].items()
              if schema.get("x-bare-unit")}
    assert ("set_paragraph_format", "space_before") in stated and all("points" in REG.get(api).parameters["properties"][key]["description"]
                                                                      for api, key in stated)
    parts = doc.members(keep_ids=True)
    for api, args, path in (("resize_image", {"image": "img1", "width": 8}, "width"),
                            ("resize_chart", {"chart": "chart1", "height": 8}, "height"),
                            ("set_paragraph_format", {"paragraphs": ["p1"], "left_indent": 2}, "left_indent"),
                            ("insert_table", {"position": "end", "rows": 1, "cols": 1, "column_widths": [3]}, "column_widths.0")):
        with pytest.raises(ArgumentError, match=rf"argument '{path}' is a bare number .*\"8cm\", \"25mm\", \"3in\", \"200pt\""):
            execute(doc, api, args)
    with pytest.raises(ArgumentError, match=r"argument .space_before. is invalid \(got -2\); expected space above the paragraph: a number of points"):
        execute(doc, "set_paragraph_format", {"paragraphs": ["p1"], "space_before": -2})
    assert doc.members(keep_ids=True) == parts
