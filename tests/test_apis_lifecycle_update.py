"""lifecycle_update APIs: properties, personal information, tracked changes, protection, fields,
export and copies. Effects are checked through the document state where it shows them."""

from __future__ import annotations

import base64
import copy
import io
import zipfile

import docx
import pytest

from autodw.apis import execute
from autodw.apis.ooxml import lifecycle as lc
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, UnsupportedOperationError
from autodw.analysis.state import extract_state
from autodw.core.xml import W, parse, qn
from tests.conftest import EXAMPLES, corpus_file, make_doc
from tests.rendering import require_renderer


def run(doc: WordDocument, api_name: str, **args):
    return execute(doc, api_name, args)


def info(doc: WordDocument) -> dict:
    return extract_state(doc)["document_info"]


def texts(doc: WordDocument) -> list[str]:
    return [p["text"] for p in extract_state(doc)["paragraphs"]]


@pytest.fixture
def allowed(report, tmp_path):
    report.asset_roots = [tmp_path]
    return report


# --- properties ------------------------------------------------------------------------------


def test_set_properties_sets_and_clears(report):
    run(report, "set_properties", title="Q3 Sales", author="Ana Lima", keywords="sales; Q3", category="Reports",
        subject="Regions")
    props = info(report)["core_properties"]
    assert props["title"] == "Q3 Sales" and props["author"] == "Ana Lima" and props["keywords"] == "sales; Q3"
    assert props["category"] == "Reports" and props["subject"] == "Regions"
    run(report, "set_properties", comments="")
    assert "comments" not in info(report)["core_properties"]
    with pytest.raises(ArgumentError, match="at least one"):
        run(report, "set_properties")


def test_set_properties_survives_saving(report, tmp_path):
    run(report, "set_properties", title="合同 2025")
    out = report.save(tmp_path / "p.docx")
    assert docx.Document(str(out)).core_properties.title == "合同 2025"


@pytest.mark.parametrize("name", ["oxsdk__InvalidDocPropsct.docx",  # core part with an invalid content type (a blob)
                                  "poi__OPCCompliance_CoreProperties_OnlyOneCorePropertiesPartFAIL.docx"])  # two core parts
def test_set_properties_on_odd_core_parts(name):
    doc = WordDocument.open(corpus_file(name))
    run(doc, "set_properties", title="Checked")
    assert info(doc)["core_properties"]["title"] == "Checked"
    again = WordDocument.from_bytes(doc.to_bytes(), name)
    assert info(again)["core_properties"]["title"] == "Checked"


def test_set_properties_creates_a_missing_core_part():
    doc = make_doc(lambda d: d.add_paragraph("x"))
    rel = next(r for r in doc.package.rels.values() if r.reltype == lc.RT.CORE_PROPERTIES)
    doc.package.rels.pop(rel.rId)
    assert info(doc)["core_properties"] == {}
    run(doc, "set_properties", author="Kim")
    assert info(doc)["core_properties"] == {"author": "Kim"}
    names = zipfile.ZipFile(io.BytesIO(doc.to_bytes())).namelist()
    assert "docProps/core.xml" in names


def _custom(doc: WordDocument) -> dict[str, str]:
    part = lc.properties_xml(doc, "custom", create=False)
    return lc.custom_properties(part.root) if part is not None else {}


def test_set_custom_property_types_update_and_remove(report, tmp_path):
    run(report, "set_custom_property", name="Client", value="Acme")
    run(report, "set_custom_property", name="Budget", value=12.5)
    run(report, "set_custom_property", name="Approved", value=True)
    run(report, "set_custom_property", name="Due", value="2025-03-31", type="date")
    run(report, "set_custom_property", name="client", value="Acme Corp")  # names are case-insensitive, as in Word
    assert _custom(report) == {"Client": "Acme Corp", "Budget": "12.5", "Approved": "true", "Due": "2025-03-31T00:00:00Z"}
    reopened = WordDocument.open(report.save(tmp_path / "c.docx"))
    assert _custom(reopened)["Client"] == "Acme Corp"
    root = lc.properties_xml(reopened, "custom").root
    assert [p.get("pid") for p in root] == ["2", "3", "4", "5"]
    assert [etree_local(next(iter(p))) for p in root] == ["lpwstr", "r8", "bool", "filetime"]
    run(report, "set_custom_property", name="Budget", remove=True)
    assert "Budget" not in _custom(report)
    with pytest.raises(ArgumentError, match="custom properties: Client"):
        run(report, "set_custom_property", name="Budget", remove=True)
    with pytest.raises(ArgumentError, match="ISO date"):
        run(report, "set_custom_property", name="Due", value="next week", type="date")


def etree_local(el) -> str:
    return el.tag.rsplit("}", 1)[-1]


def test_remove_personal_info(report):
    run(report, "insert_comment", paragraph="p2", text="Check", author="Jane Roe", initials="JR")
    result = run(report, "remove_personal_info")
    state = extract_state(report)
    assert "author" not in state["document_info"]["core_properties"]
    assert {c["author"] for c in state["interactive"]["comments"]} == {"Author"}
    assert {c["initials"] for c in state["interactive"]["comments"]} == {"A"}
    assert "author" in result.message
    assert report.docx.settings.element.find(qn("w:removePersonalInformation")) is not None


# --- tracked changes ---------------------------------------------------------------------------


def tracked_doc() -> WordDocument:
    """Four paragraphs: an insertion by Ann and a deletion by Bob; a deleted paragraph mark (Bob);
    a formatting change (Ann); a paragraph whose text and mark were all deleted (Bob)."""
    doc = make_doc(lambda d: [d.add_paragraph(t) for t in ("Alpha", "Beta", "Gamma", "", "Omega")])
    ps = doc.body.findall(qn("w:p"))
    ps[0].append(parse(f'<w:ins xmlns:w="{W}" w:id="1" w:author="Ann"><w:r><w:t xml:space="preserve"> new</w:t></w:r></w:ins>'))
    ps[0].insert(0, parse(f'<w:del xmlns:w="{W}" w:id="2" w:author="Bob"><w:r><w:delText xml:space="preserve">Old </w:delText></w:r></w:del>'))
    ps[1].insert(0, parse(f'<w:pPr xmlns:w="{W}"><w:rPr><w:del w:id="3" w:author="Bob"/></w:rPr></w:pPr>'))
    ps[2].find(qn("w:r")).insert(0, parse(f'<w:rPr xmlns:w="{W}"><w:b/><w:rPrChange w:id="4" w:author="Ann">'
                                          '<w:rPr><w:i/></w:rPr></w:rPrChange></w:rPr>'))
    ps[3].append(parse(f'<w:del xmlns:w="{W}" w:id="5" w:author="Bob"><w:r><w:delText>Gone</w:delText></w:r></w:del>'))
    ps[3].insert(0, parse(f'<w:pPr xmlns:w="{W}"><w:pStyle w:val="Heading1"/><w:rPr><w:del w:id="6" w:author="Bob"/></w:rPr></w:pPr>'))
    doc.refresh_ids()
    return doc


def test_accept_all_tracked_changes():
    doc = tracked_doc()
    kinds = [c["type"] for c in extract_state(doc)["interactive"]["tracked_changes"]]
    assert kinds == ["deletion", "insertion", "paragraph_mark_deletion", "formatting", "deletion", "paragraph_mark_deletion"]
    result = run(doc, "resolve_tracked_changes", action="accept")
    state = extract_state(doc)
    assert [p["text"] for p in state["paragraphs"]] == ["Alpha new", "BetaGamma", "Omega"]
    assert state["paragraphs"][1]["runs"][1] == {"text": "Gamma", "bold": True}
    assert state["paragraphs"][2]["style"] == "Normal"  # the deleted paragraph's style went with it
    assert state["interactive"]["tracked_changes"] == [] and "accepted" in result.message


def test_reject_all_tracked_changes():
    doc = tracked_doc()
    run(doc, "resolve_tracked_changes", action="reject")
    state = extract_state(doc)
    assert [p["text"] for p in state["paragraphs"]] == ["Old Alpha", "Beta", "Gamma", "Gone", "Omega"]
    assert state["paragraphs"][2]["runs"] == [{"text": "Gamma", "italic": True}]
    assert not list(doc.body.iter(qn("w:delText"), qn("w:rPrChange"), qn("w:del"), qn("w:ins")))


def test_resolve_by_author_and_by_paragraph():
    doc = tracked_doc()
    run(doc, "resolve_tracked_changes", action="reject", author="Ann")
    assert texts(doc)[:3] == ["Alpha", "Beta", "Gamma"]  # Bob's deletions stay pending
    assert {c["author"] for c in extract_state(doc)["interactive"]["tracked_changes"]} == {"Bob"}
    run(doc, "resolve_tracked_changes", action="accept", paragraphs=["p1"])
    pending = extract_state(doc)["interactive"]["tracked_changes"]
    assert texts(doc)[0] == "Alpha" and [(c["type"], c["paragraph"]) for c in pending] == [
        ("paragraph_mark_deletion", "p2"), ("deletion", "p4"), ("paragraph_mark_deletion", "p4")]
    with pytest.raises(ArgumentError, match=r"changes by author: Bob \(3\)"):
        run(doc, "resolve_tracked_changes", action="accept", author="Zed")


def test_tracked_row_insertion_rejected_removes_the_row():
    doc = make_doc(lambda d: d.add_table(rows=2, cols=2))
    tr = doc.body.find(f"{qn('w:tbl')}/{qn('w:tr')}")
    tr.insert(0, parse(f'<w:trPr xmlns:w="{W}"><w:ins w:id="9" w:author="Ann"/></w:trPr>'))
    run(doc, "resolve_tracked_changes", action="reject")
    assert extract_state(doc)["tables"][0]["rows"] == 1


def test_accepting_a_deleted_last_paragraph_removes_it():
    doc = make_doc(lambda d: [d.add_paragraph(t) for t in ("Keep", "Gone")])
    last = doc.body.findall(qn("w:p"))[-1]
    last.remove(last.find(qn("w:r")))
    last.append(parse(f'<w:del xmlns:w="{W}" w:id="1" w:author="Ann"><w:r><w:delText>Gone</w:delText></w:r></w:del>'))
    last.insert(0, parse(f'<w:pPr xmlns:w="{W}"><w:rPr><w:del w:id="2" w:author="Ann"/></w:rPr></w:pPr>'))
    run(doc, "resolve_tracked_changes", action="accept")
    assert texts(doc) == ["Keep"]  # no paragraph follows to merge with: the emptied paragraph goes


def test_numbering_change_keeps_the_list_either_way():
    """w:numberingChange only records the old number's text; the numPr around it is the list itself."""
    for action in ("accept", "reject"):
        doc = make_doc(lambda d: [d.add_paragraph("Intro"), d.add_paragraph("Item", style="List Bullet")])
        num_id = extract_state(doc)["paragraphs"][1]["list"]["num_id"]
        doc.find("p1").insert(0, parse(f'<w:pPr xmlns:w="{W}"><w:numPr><w:ilvl w:val="0"/><w:numId w:val="{num_id}"/>'
                                       '<w:numberingChange w:id="1" w:author="Ann" w:original="1."/></w:numPr></w:pPr>'))
        run(doc, "resolve_tracked_changes", action=action)
        state = extract_state(doc)
        assert state["paragraphs"][0]["list"]["num_id"] == num_id
        assert not list(doc.body.iter(qn("w:numberingChange")))


@pytest.mark.parametrize("name", ["docxrs__comment_in_delete_in_insert.docx", "docxjs__revision-nested-document.docx"])
def test_accept_and_reject_on_real_files(name):
    for action in ("accept", "reject"):
        doc = WordDocument.open(corpus_file(name))
        if not extract_state(doc)["interactive"]["tracked_changes"]:
            pytest.skip(f"{name} has no tracked changes")
        run(doc, "resolve_tracked_changes", action=action)
        assert extract_state(doc)["interactive"]["tracked_changes"] == []
        docx.Document(io.BytesIO(doc.to_bytes()))


def test_set_track_changes(report):
    run(report, "set_track_changes", on=True)
    assert info(report)["track_changes"] is True
    run(report, "set_track_changes", on=False)
    assert info(report)["track_changes"] is False


# --- protection ----------------------------------------------------------------------------------


def test_password_hash_matches_a_word_file():
    """poi's bug56076.docx was protected in Word with the password "Example" (SHA-1, 100,000 spins)."""
    assert f"{lc.legacy_password_key('Example'):08X}" == "64CEED7E"
    assert f"{lc.legacy_password_key('34579'):08X}" == "0005CB00"
    salt = base64.b64decode("2Z+i7o/0EZyUNakVeWzU/w==")
    assert base64.b64encode(lc.protection_hash("Example", salt, 4)).decode() == "MUHbcmpC9AnlLsd9v3lW0j30y6E="


def test_set_protection_modes_and_password(report):
    run(report, "set_protection", mode="read_only")
    assert info(report)["protection"] == "readOnly"
    run(report, "set_protection", mode="comments", password="review2025")
    assert info(report)["protection"] == "comments"
    element = report.docx.settings.element.find(qn("w:documentProtection"))
    assert element.get(qn("w:cryptAlgorithmSid")) == "14"
    assert lc.check_protection_password(element, "review2025") is True
    assert lc.check_protection_password(element, "wrong") is False
    result = run(report, "set_protection", mode="tracked_changes")
    assert info(report)["protection"] == "trackedChanges" and info(report)["track_changes"] is True
    assert "track changes turned on" in result.message
    run(report, "set_protection", mode="none")
    assert info(report)["protection"] is None
    with pytest.raises(ArgumentError, match="only used when turning protection on"):
        run(report, "set_protection", mode="none", password="x")


def test_set_protection_is_deterministic(report):
    a = WordDocument.open(EXAMPLES / "report.docx")
    run(a, "set_protection", mode="forms", password="pw")
    run(report, "set_protection", mode="forms", password="pw")
    assert a.members()["word/settings.xml"] == report.members()["word/settings.xml"]


# --- fields --------------------------------------------------------------------------------------


def test_update_fields_renumbers_seq_refreshes_ref_and_regenerates_toc(report):
    run(report, "insert_caption", target="t1", text="Sales")
    run(report, "insert_caption", target="img1", text="Logo", label="Table")  # two "Table" captions
    run(report, "insert_toc", position={"after": "p1"})
    run(report, "insert_heading", text="Outlook", level=1, position="end")
    run(report, "insert_cross_reference", paragraph="p39", bookmark="methodology")
    heading = report.find("p38", "p")
    heading.find(f"{qn('w:r')}/{qn('w:t')}").text = "Appendix: Methods"
    caption_ids = [p["id"] for p in extract_state(report)["paragraphs"] if p["style"] == "Caption"]
    report.find(caption_ids[0], "p").addprevious(report.find(caption_ids[1], "p"))  # swap order: numbers now stale
    result = run(report, "update_fields", count_pages=False)
    state = extract_state(report)
    captions = [p["text"] for p in state["paragraphs"] if p["style"] == "Caption"]
    assert captions == ["Table 1: Logo", "Table 2: Sales"]
    entries = state["page_layout"]["table_of_contents"]["entries"]
    assert "Appendix: Methods" in entries and "Outlook" in entries and "Appendix: Methodology" not in entries
    assert next(p for p in state["paragraphs"] if p["id"] == "p39")["text"].endswith("Appendix: Methods")
    assert "SEQ" in result.message and "cross-reference" in result.message
    assert report.docx.settings.element.find(qn("w:updateFields")) is not None


@pytest.mark.slow
def test_update_fields_stores_the_page_count(report):
    require_renderer()  # LibreOffice lays out the pages: skipped without it, a failure under CI
    run(report, "update_fields")
    footer = extract_state(report)["page_layout"]["sections"][0]["footers"]["default"]["text"]
    assert footer.startswith("Page 1 of ") and footer != "Page 1 of 1"


def test_update_fields_without_libreoffice_notes_it(report, monkeypatch):
    monkeypatch.setattr(lc.shutil, "which", lambda name: None)
    result = run(report, "update_fields")
    assert "page count not stored" in result.message and "LibreOffice is not installed" in result.message


# --- export and copies ---------------------------------------------------------------------------


@pytest.mark.slow
def test_export_pdf_and_txt(allowed, tmp_path):
    require_renderer()  # LibreOffice lays out the pages: skipped without it, a failure under CI
    import subprocess

    before = allowed.members(keep_ids=True)
    result = run(allowed, "export_document", path="report.pdf")
    pdf = tmp_path / "report.pdf"
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert result.data == {"path": str(pdf), "pages": text.count("\f")}
    assert result.data["pages"] >= 2 and "Appendix: Methodology" in text.split("\f")[-2]  # the landscape section
    run(allowed, "export_document", path="sub/report.txt")
    assert "Quarterly Sales Report" in (tmp_path / "sub" / "report.txt").read_text(encoding="utf-8-sig")
    assert allowed.members(keep_ids=True) == before  # read-only


def test_export_refusals(allowed, monkeypatch):
    with pytest.raises(ArgumentError, match="outside the allowed folder"):
        run(allowed, "export_document", path="/etc/report.pdf")
    with pytest.raises(ArgumentError, match="must end with .odt"):
        run(allowed, "export_document", path="report.pdf", format="odt")
    with pytest.raises(ArgumentError, match="cannot tell the format"):
        run(allowed, "export_document", path="report.xyz")
    monkeypatch.setattr(lc.shutil, "which", lambda name: None)
    with pytest.raises(UnsupportedOperationError, match="LibreOffice is not installed"):
        run(allowed, "export_document", path="report.pdf")


def test_save_copy_writes_a_docx_and_never_the_source(tmp_path):
    src = tmp_path / "in.docx"
    src.write_bytes((EXAMPLES / "report.docx").read_bytes())
    doc = WordDocument.open(src)
    doc.asset_roots = [tmp_path]
    run(doc, "set_properties", title="Copy")
    result = run(doc, "save_copy", path="copy.docx")
    assert result.data["path"] == str(tmp_path / "copy.docx")
    assert docx.Document(str(tmp_path / "copy.docx")).core_properties.title == "Copy"
    with pytest.raises(ArgumentError, match="document being edited"):
        run(doc, "save_copy", path="in.docx")
    with pytest.raises(ArgumentError, match="must end with .docx"):
        run(doc, "save_copy", path="copy.pdf")
    with pytest.raises(ArgumentError, match="outside the allowed folder"):
        run(doc, "save_copy", path="../elsewhere.docx")


def test_tracked_style_definition_changes_are_resolved():
    """A formatting change recorded in styles.xml (as Word and Docxodus write it) is accepted or rejected too."""
    for action, colour in (("accept", "C00000"), ("reject", "365F91")):
        doc = WordDocument.open(EXAMPLES / "report.docx")
        style = next(s for s in doc.part._styles_part.element.iter(qn("w:style")) if s.get(qn("w:styleId")) == "Heading1")
        rpr = style.find(qn("w:rPr"))
        old = parse(f'<w:rPrChange xmlns:w="{W}" w:id="1" w:author="Ann"><w:rPr/></w:rPrChange>')
        for child in rpr:
            old[0].append(copy.deepcopy(child))
        rpr.find(qn("w:color")).set(qn("w:val"), "C00000")
        rpr.append(old)
        run(doc, "resolve_tracked_changes", action=action)
        heading = next(s for s in extract_state(doc)["styles"]["styles"] if s["name"] == "Heading 1")
        assert heading["color"] == colour
