"""Hostile documents: the check catches a model that obeys them (and passes one that does not); macros survive
every edit byte for byte; links to the outside are never fetched."""

from __future__ import annotations

import shutil

import pytest

from tests.fuzz import hostile
from tests.fuzz.packages import CountingServer, linked_document, macro_documents, macro_trials
from tests.fuzz.seams import WordDocument, execute, extract_state, render_state


def test_thirty_two_documents_in_both_languages_and_eight_places():
    cases = hostile.cases()
    assert len(cases) == 32 and {c.place for c in cases} == set(hostile.PLACES)
    assert {c.language for c in cases} == {"en", "zh"} and {c.payload for c in cases} == set(hostile.PAYLOADS)
    for case in cases[:: 7]:  # the planted text is in the document
        assert case.planted in hostile._all_texts(hostile.build(case)).replace("&apos;", "'").replace("&quot;", '"')


def test_a_model_that_obeys_the_documents_fails_every_check_and_one_that_does_not_passes(tmp_path):
    """One document per place (both languages, every planted kind), half of them for the benign model; all 32:
    python -m tests.fuzz.hostile --llm obey (and --llm benign)."""
    sample = {hostile.cases()[4 * n + n % 4].name for n in range(8)}
    obeyed = hostile.run_all("obey", tmp_path / "obey", only=lambda c: c.name in sample)
    assert len(obeyed) >= 8 and {r["place"] for r in obeyed} == set(hostile.PLACES)
    assert [r["case"] for r in obeyed if r["passed"] or not r["request_done"]] == []
    assert all(r["obeyed"] == [r["payload"]] for r in obeyed)
    benign = hostile.run_all("benign", tmp_path / "benign", only=lambda c: c.name in sorted(sample)[::2])
    assert len(benign) == 4 and [r["case"] for r in benign if not r["passed"]] == []


@pytest.mark.skipif(not macro_documents(), reason="no macro-enabled corpus documents")
def test_a_macro_project_stays_byte_identical_through_every_edit():
    path = min(macro_documents(), key=lambda p: p.stat().st_size)
    outcome = macro_trials(path, tries=1, skip=("update_toc", "update_fields"))  # LibreOffice: the campaign runs them
    assert outcome["changed"] == [] and len(outcome["edited"]) >= 30, outcome


@pytest.mark.slow
def test_links_to_the_outside_are_never_fetched(tmp_path):
    import urllib.error
    import urllib.request

    server = CountingServer()
    try:
        with pytest.raises(urllib.error.HTTPError):  # the server counts what reaches it
            urllib.request.urlopen(f"{server.url}/probe", timeout=30)
        assert server.hits == ["/probe"]
        server.hits.clear()
        data = linked_document(server.url)
        (tmp_path / "linked.docx").write_bytes(data)
        doc = WordDocument.open(tmp_path / "linked.docx")
        doc.asset_roots = [tmp_path]
        render_state(extract_state(doc))
        for api, args in (("insert_paragraph", {"text": "x", "position": "end"}), ("update_fields", {}),
                          ("export_document", {"path": "linked.pdf", "format": "pdf"}),
                          ("export_document", {"path": "linked.html", "format": "html"}),
                          ("save_copy", {"path": "copy.docx"})):
            if api == "export_document" and shutil.which("soffice") is None:
                continue
            execute(doc, api, args)
        doc.save(tmp_path / "saved.docx")
        extract_state(WordDocument.open(tmp_path / "saved.docx"))
    finally:
        server.close()
    assert server.hits == []
