"""hypothesis with hypothesis-jsonschema: arguments drawn by a second, independent generator from each API's JSON
Schema (every value the schema allows, not only those the harness's own generator thinks of). A value the schema
allows is never an internal error: the call edits or is refused with a typed error, and the document opens again."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from tests.fuzz.mutate import ROOT
from tests.fuzz.seams import ApiError, WordDocument, execute, extract_state, registry

REPORT = (ROOT / "examples" / "report.docx").read_bytes()
APIS = [s for s in registry() if not s.writes_files and s.name not in ("update_toc", "update_fields")]  # no files, no LibreOffice


@st.composite
def calls(draw):
    spec = draw(st.sampled_from(APIS))
    schema = json.loads(json.dumps(spec.parameters))
    return spec.name, draw(from_schema(schema, allow_x00=False, codec="utf-8"))


@settings(max_examples=20, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(calls())
def test_arguments_the_schema_allows_are_edited_or_refused_never_an_internal_error(call):
    name, args = call
    doc = WordDocument.from_bytes(REPORT, "report.docx")
    try:
        result = execute(doc, name, args)  # an InternalError (our bug) fails the test
    except ApiError:
        return
    if result.snapshot is not None:
        extract_state(WordDocument.from_bytes(doc.to_bytes(), "saved.docx"))
