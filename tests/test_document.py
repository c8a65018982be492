"""Stable ids, exact snapshots and atomic saving."""

from __future__ import annotations

import copy
import io
import os
import zipfile

import docx
import pytest
from docx.shared import Cm

from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, ConfigError, OutputPathError
from autodw.core.ids import ID_NS
from autodw.core.xml import qn
from tests.conftest import CORPUS, EXAMPLES, make_doc


def _text(el) -> str:
    return "".join(t.text or "" for t in el.iter(qn("w:t")))


def _texts(doc: WordDocument) -> dict[str, str]:
    return {pid: _text(el) for pid, el in doc.iter_elements() if el.tag == qn("w:p")}


def test_ids_are_assigned_in_document_order_and_are_deterministic():
    build = lambda d: [d.add_paragraph(f"para {i}") for i in range(3)] and d.add_table(rows=1, cols=1)
    a, b = make_doc(build), make_doc(build)
    assert a.ids() == b.ids()
    assert a.ids("p")[:3] == ["p1", "p2", "p3"]
    assert a.ids("t") == ["t1"]


def test_ids_survive_insertions_elsewhere_and_new_elements_get_fresh_ids():
    doc = make_doc(lambda d: [d.add_paragraph(f"para {i}") for i in range(3)])
    before = _texts(doc)
    first = doc.find("p1")
    new_p = copy.deepcopy(first)
    first.addprevious(new_p)  # a copy carries the same id attribute: must be de-duplicated
    doc.refresh_ids()
    after = _texts(doc)
    for pid, text in before.items():
        assert after[pid] == text
    assert len(set(doc.ids("p"))) == len(before) + 1
    fresh = (set(doc.ids("p")) - set(before)).pop()
    assert fresh not in before  # never reuses an id
    doc.find("p2").getparent().remove(doc.find("p2"))
    extra = doc.docx.add_paragraph("new")
    doc.refresh_ids()
    assert "p2" not in doc.ids() and extra._p.get(f"{{{ID_NS}}}id") not in before


def test_ids_cover_content_controls_headers_and_cells():
    def build(d):
        t = d.add_table(rows=1, cols=1)
        t.cell(0, 0).text = "cell"
        d.sections[0].header.paragraphs[0].text = "head"

    doc = make_doc(build)
    assert any(el.tag == qn("w:p") and _text(el) == "cell" for _, el in doc.iter_elements())
    assert any(_text(el) == "head" for _, el in doc.iter_elements())


def test_unknown_id_lists_valid_ids():
    doc = make_doc(lambda d: d.add_paragraph("x"))
    with pytest.raises(ArgumentError, match="valid paragraph ids: p1"):
        doc.find("p99", kind="p")
    with pytest.raises(ArgumentError, match="no table"):
        doc.find("p1", kind="t")


def test_ids_are_stripped_on_save_and_reassigned_identically(tmp_path):
    doc = WordDocument.open(EXAMPLES / "report.docx")
    out = doc.save(tmp_path / "out.docx")
    with zipfile.ZipFile(out) as zf:
        for name in zf.namelist():
            assert ID_NS.encode() not in zf.read(name), name
    again = WordDocument.open(out)
    assert again.ids() == doc.ids()
    assert docx.Document(str(out)).paragraphs[0].text == "Quarterly Sales Report"


def _parts(doc: WordDocument) -> dict[str, bytes]:
    return doc.members(keep_ids=True)


def test_snapshot_restore_is_exact_for_every_part(tmp_path):
    doc = WordDocument.open(EXAMPLES / "report.docx")
    original = _parts(doc)
    snap = doc.snapshot()
    d = doc.docx
    d.paragraphs[1].runs[0].text = "changed body"
    d.sections[0].header.paragraphs[0].text = "changed header"
    d.styles["Normal"].font.size = docx.shared.Pt(20)
    d.add_picture(str(EXAMPLES / "images" / "photo.png"), width=Cm(3))
    doc.refresh_ids()
    assert _parts(doc) != original
    assert len(_parts(doc)) > len(original)  # the new image part
    doc.restore(snap)
    restored = _parts(doc)
    assert restored.keys() == original.keys()
    for name in original:
        assert restored[name] == original[name], name
    assert doc.docx.paragraphs[1].runs[0].text != "changed body"


def test_restore_invalidates_old_elements_but_ids_resolve_again():
    doc = make_doc(lambda d: d.add_paragraph("x"))
    snap = doc.snapshot()
    old = doc.find("p1")
    doc.restore(snap)
    assert doc.find("p1") is not old
    assert _text(doc.find("p1")) == "x"


def test_save_refuses_to_overwrite_the_input(tmp_path):
    src = tmp_path / "in.docx"
    src.write_bytes((EXAMPLES / "report.docx").read_bytes())
    doc = WordDocument.open(src)
    with pytest.raises(ConfigError, match="overwrite the input"):
        doc.save(src)
    assert src.read_bytes() == (EXAMPLES / "report.docx").read_bytes()


def test_save_is_atomic(tmp_path, monkeypatch):
    doc = make_doc(lambda d: d.add_paragraph("x"))
    target = tmp_path / "out.docx"
    target.write_bytes(b"previous")

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OutputPathError, match="cannot write .*out.docx: disk full"):
        doc.save(target)
    assert target.read_bytes() == b"previous"
    assert [p.name for p in tmp_path.iterdir()] == ["out.docx"]  # no temp file left behind


def test_saved_file_gets_normal_permissions(tmp_path):
    import stat

    out = WordDocument.open(EXAMPLES / "report.docx").save(tmp_path / "new.docx")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask
    out.chmod(0o640)
    WordDocument.open(EXAMPLES / "report.docx").save(out)  # replacing keeps the file's mode
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_new_document_and_round_trip():
    doc = WordDocument.new()
    doc.docx.add_paragraph("fresh")
    doc.refresh_ids()
    again = WordDocument.from_bytes(doc.to_bytes())
    assert [p.text for p in again.docx.paragraphs] == ["fresh"]
    assert zipfile.is_zipfile(io.BytesIO(doc.to_bytes()))


def test_saved_bytes_do_not_depend_on_the_clock(monkeypatch):
    """Same document, same bytes: zip entries carry a fixed timestamp, not the time of the save."""
    import time

    doc = WordDocument.open(EXAMPLES / "report.docx")
    first = doc.to_bytes()
    real = time.localtime
    monkeypatch.setattr(time, "localtime", lambda secs=None: real((secs or time.time()) + 3 * 3600 + 7))
    assert doc.to_bytes() == first
    assert {i.date_time for i in zipfile.ZipFile(io.BytesIO(first)).infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_a_document_is_saved_only_with_the_extension_word_needs_for_its_kind(tmp_path):
    path = CORPUS / "other" / "poi__SimpleMacro.docm"
    if not path.exists():
        pytest.skip("corpus file poi__SimpleMacro.docm not available")
    macro = WordDocument.open(path)
    assert macro.extension == ".docm"
    with pytest.raises(ConfigError, match=r"Word opens it only as \.docm"):
        macro.save(tmp_path / "macro.docx")
    plain = WordDocument.open(EXAMPLES / "report.docx")
    with pytest.raises(ConfigError, match=r"only as \.docx"):
        plain.save(tmp_path / "report.dotm")
    assert macro.save(tmp_path / "macro.docm").is_file() and plain.save(tmp_path / "report.docx").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["macro.docm", "report.docx"]


def test_a_relationship_id_set_in_a_document_written_with_ns0_prefixes_stays_a_relationship_id():
    """ElementTree writes WordprocessingML as ns0:document; lxml named the relationships namespace, declared nowhere,
    ns0 too, so a header reference came out as <ns0:headerReference xmlns:ns0="...relationships" ns0:id=...>: an
    element of the wrong namespace (found by the API fuzz campaign through openxml-audit, pandoc__ns0-reference.docx)."""
    from autodw.apis import execute

    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    body = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<ns0:document xmlns:ns0="{w}"><ns0:body>'
            '<ns0:p><ns0:r><ns0:t>ref</ns0:t></ns0:r></ns0:p><ns0:sectPr><ns0:pgSz ns0:w="12240" ns0:h="15840"/>'
            '</ns0:sectPr></ns0:body></ns0:document>').encode()
    buf = io.BytesIO()
    docx.Document().save(buf)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as zin, zipfile.ZipFile(out := io.BytesIO(), "w") as zout:
        for item in zin.infolist():
            zout.writestr(item, body if item.filename == "word/document.xml" else zin.read(item))
    doc = WordDocument.from_bytes(out.getvalue(), "ns0.docx")
    execute(doc, "set_header_footer", {"section": 0, "where": "header", "text": "Draft"})
    saved = docx.Document(io.BytesIO(doc.to_bytes()))
    ref = saved.element.body.sectPr.find(qn("w:headerReference"))
    assert ref is not None and ref.get(qn("r:id")) in saved.part.rels
    assert saved.sections[0].header.paragraphs[0].text == "Draft"
