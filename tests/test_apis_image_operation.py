"""image_operation APIs: each effect checked through the state (and the XML where the state is silent);
one LibreOffice render test."""

from __future__ import annotations

import io
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import docx
import pytest

from autodw.apis import execute
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, UnsupportedOperationError
from autodw.analysis.state import extract_state
from autodw.core.xml import NS, parse, qn
from tests.conftest import EXAMPLES

LOGO = EXAMPLES / "images" / "logo.png"


@pytest.fixture
def doc() -> WordDocument:
    d = WordDocument.open(EXAMPLES / "report.docx")
    d.asset_roots = [EXAMPLES]
    return d


def _img(doc, iid):
    return next((i for i in extract_state(doc)["images"] if i["id"] == iid), None)


def _para(doc, pid):
    return next(p for p in extract_state(doc)["paragraphs"] if p["id"] == pid)


def _image_rels(part):
    return sorted(r.target_ref for r in part.rels.values() if r.reltype.endswith("/image"))


def _docpr_ids(doc):
    return [int(d.get("id")) for root in doc.id_roots() for d in root.iter(qn("wp:docPr"))]


def _png_header(width: int, height: int) -> bytes:
    """A PNG signature + IHDR + IEND: enough for python-docx to read the size (no pixels)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) + chunk(b"IEND", b"")


def test_insert_image_new_paragraph_width_keeps_aspect_alt_text_and_unique_docpr(doc):
    r = execute(doc, "insert_image", {"path": "images/photo.png", "position": {"after": "p31"}, "width": "6cm",
                                      "alignment": "center", "alt_text": "Team photo"})
    pid, iid = r.created
    img = _img(doc, iid)
    assert img["paragraph"] == pid and img["placement"] == "inline" and img["alt_text"] == "Team photo"
    assert img["width_cm"] == 6.0 and img["height_cm"] == 4.5  # photo.png is 160x120
    p = _para(doc, pid)
    assert p["index"] == _para(doc, "p31")["index"] + 1 and p["alignment"] == "center"
    ids = _docpr_ids(doc)
    assert len(ids) == len(set(ids))
    assert int(doc.find(iid).find(qn("wp:docPr")).get("id")) == max(ids)
    assert _image_rels(doc.part) == ["media/image1.png", "media/image2.png"]
    # the same file again shares the image part
    execute(doc, "insert_image", {"path": "images/photo.png", "position": "end", "height": "1cm"})
    assert _image_rels(doc.part) == ["media/image1.png", "media/image2.png"]
    assert len(set(_docpr_ids(doc))) == len(_docpr_ids(doc))


def test_insert_image_inline_at_offset_in_chinese_text():
    d = WordDocument.open(EXAMPLES / "contract_zh.docx")
    d.asset_roots = [EXAMPLES]
    pid, text = next((p["id"], p["text"]) for p in extract_state(d)["paragraphs"] if p["text"].startswith("甲方"))
    r = execute(d, "insert_image", {"path": "images/logo.png", "paragraph": pid, "offset": 3, "height": "0.5cm"})
    (iid,) = r.created
    p = _para(d, pid)
    assert p["text"] == text and p["images"] == [iid]
    runs = [run.get("text", "") for run in p["runs"]]
    at = next(i for i, run in enumerate(p["runs"]) if run.get("image") == iid)
    assert "".join(runs[:at]) == text[:3] and "".join(runs[at + 1:]) == text[3:]
    assert _img(d, iid)["width_cm"] == 1.0 and _img(d, iid)["height_cm"] == 0.5


def test_insert_image_refusals(doc, tmp_path):
    with pytest.raises(ArgumentError, match="exactly one of position"):
        execute(doc, "insert_image", {"path": "images/logo.png"})
    with pytest.raises(ArgumentError, match="exactly one of position"):
        execute(doc, "insert_image", {"path": "images/logo.png", "position": "end", "paragraph": "p2"})
    with pytest.raises(ArgumentError, match="past the end of p31"):
        execute(doc, "insert_image", {"path": "images/logo.png", "paragraph": "p31", "offset": 999})
    with pytest.raises(ArgumentError, match="outside the allowed folder"):
        execute(doc, "insert_image", {"path": "/etc/hostname", "position": "end"})
    roots, doc.asset_roots = doc.asset_roots, [tmp_path, tmp_path / "."]  # one folder named twice is listed once
    with pytest.raises(ArgumentError, match="outside the allowed folder") as refused:
        execute(doc, "insert_image", {"path": "/etc/hostname", "position": "end"})
    assert str(refused.value).count(str(tmp_path.resolve())) == 1, str(refused.value)
    doc.asset_roots = roots
    with pytest.raises(ArgumentError, match="does not exist"):
        execute(doc, "insert_image", {"path": "images/nothing.png", "position": "end"})
    (tmp_path / "notes.txt").write_text("not a picture")
    doc.asset_roots = [tmp_path]
    with pytest.raises(ArgumentError, match="not a supported picture"):
        execute(doc, "insert_image", {"path": "notes.txt", "position": "end"})
    assert len(extract_state(doc)["images"]) == 2  # img1 and chart1 only


def test_insert_image_natural_size_shrinks_to_the_section_text_width(doc, tmp_path):
    (tmp_path / "wide.png").write_bytes(_png_header(4000, 1000))
    doc.asset_roots = [tmp_path]
    portrait = execute(doc, "insert_image", {"path": "wide.png", "position": {"after": "p31"}}).created[1]
    landscape = execute(doc, "insert_image", {"path": "wide.png", "position": "end"}).created[1]
    assert _img(doc, portrait)["width_cm"] == pytest.approx(21.59 - 2 * 3.18, abs=0.02)
    assert _img(doc, landscape)["width_cm"] == pytest.approx(27.94 - 2 * 3.18, abs=0.02)
    assert _img(doc, portrait)["height_cm"] == pytest.approx(_img(doc, portrait)["width_cm"] / 4, abs=0.02)


def test_insert_image_into_header_relates_it_from_the_header(doc):
    header_pid = extract_state(doc)["page_layout"]["sections"][0]["headers"]["default"]["paragraphs"][0]
    (iid,) = execute(doc, "insert_image", {"path": "images/logo.png", "paragraph": header_pid, "height": "0.8cm"}).created
    header = next(part for part in doc.header_footer_parts() if "header" in str(part.partname))
    assert _image_rels(header) == ["media/image1.png"]
    assert doc.find(iid).getroottree().getroot() is header._element
    reopened = docx.Document(io.BytesIO(doc.to_bytes()))
    assert reopened.sections[0].header.paragraphs[0].text == "Acme Corporation - Quarterly Report"


def test_resize_image_variants(doc):
    execute(doc, "resize_image", {"image": "img1", "width": "8cm"})
    assert (_img(doc, "img1")["width_cm"], _img(doc, "img1")["height_cm"]) == (8.0, 4.0)
    execute(doc, "resize_image", {"image": "img1", "height": "1cm", "keep_aspect": False})
    assert (_img(doc, "img1")["width_cm"], _img(doc, "img1")["height_cm"]) == (8.0, 1.0)
    execute(doc, "resize_image", {"image": "img1", "width": "4cm", "height": "3cm"})
    assert (_img(doc, "img1")["width_cm"], _img(doc, "img1")["height_cm"]) == (4.0, 3.0)
    execute(doc, "resize_image", {"image": "img1", "width": "2cm", "height": "2cm", "keep_aspect": True})
    assert (_img(doc, "img1")["width_cm"], _img(doc, "img1")["height_cm"]) == (2.0, 1.5)
    execute(doc, "resize_image", {"image": "img1", "scale": 50})
    assert (_img(doc, "img1")["width_cm"], _img(doc, "img1")["height_cm"]) == (1.0, 0.75)
    ext = doc.find("img1").find(f".//{qn('pic:spPr')}/{qn('a:xfrm')}/{qn('a:ext')}")
    assert (ext.get("cx"), ext.get("cy")) == ("360000", "270000")  # the shape's own size follows
    with pytest.raises(ArgumentError, match="width, height or scale"):
        execute(doc, "resize_image", {"image": "img1"})
    with pytest.raises(ArgumentError, match="either scale or width"):
        execute(doc, "resize_image", {"image": "img1", "scale": 10, "width": "1cm"})
    with pytest.raises(ArgumentError, match="valid image ids: img1"):
        execute(doc, "resize_image", {"image": "img7", "scale": 10})


def test_replace_image_keeps_or_takes_size_and_drops_the_unused_part(doc):
    execute(doc, "replace_image", {"image": "img1", "path": "images/diagram.png"})
    img = _img(doc, "img1")
    assert img["file"] == "image2.png" and (img["width_cm"], img["height_cm"]) == (4.0, 2.0)
    assert _image_rels(doc.part) == ["media/image2.png"]  # the logo is no longer referenced
    assert doc.find("img1").find(f".//{qn('pic:cNvPr')}").get("name") == "diagram.png"
    execute(doc, "replace_image", {"image": "img1", "path": "images/photo.png", "keep_size": False})
    img = _img(doc, "img1")
    assert img["width_cm"] == pytest.approx(160 / 72 * 2.54, abs=0.01) and img["height_cm"] == pytest.approx(120 / 72 * 2.54, abs=0.01)
    names = zipfile_names(doc)
    assert "word/media/image3.png" in names and "word/media/image2.png" not in names


def zipfile_names(doc):
    import zipfile

    return zipfile.ZipFile(io.BytesIO(doc.to_bytes())).namelist()


def test_replace_image_keeps_a_part_another_picture_still_uses(doc):
    (second,) = execute(doc, "insert_image", {"path": "images/logo.png", "paragraph": "p31", "offset": 0,
                                              "height": "0.5cm"}).created
    execute(doc, "replace_image", {"image": "img1", "path": "images/diagram.png"})
    assert _img(doc, second)["file"] == "image1.png"
    assert _image_rels(doc.part) == ["media/image1.png", "media/image2.png"]


def test_replace_image_resets_crop(doc):
    execute(doc, "crop_image", {"image": "img1", "left": 25})
    execute(doc, "replace_image", {"image": "img1", "path": "images/diagram.png"})
    assert doc.find("img1").find(f".//{qn('a:srcRect')}") is None


def test_delete_image_removes_drawing_rel_and_part(doc):
    execute(doc, "delete_image", {"image": "img1"})
    s = extract_state(doc)
    assert [i["id"] for i in s["images"]] == ["chart1"] and _para(doc, "p30")["text"] == ""
    assert _image_rels(doc.part) == []
    assert not any(n.startswith("word/media/") for n in zipfile_names(doc))
    docx.Document(io.BytesIO(doc.to_bytes()))


def test_delete_image_remove_empty_paragraph_and_shared_part(doc):
    (second,) = execute(doc, "insert_image", {"path": "images/logo.png", "paragraph": "p31", "height": "0.5cm"}).created
    r = execute(doc, "delete_image", {"image": second, "remove_empty_paragraph": True})
    assert r.removed == [second] and _para(doc, "p31")["text"].startswith("The logo above")  # has text: stays
    assert _image_rels(doc.part) == ["media/image1.png"]  # img1 still uses it
    r = execute(doc, "delete_image", {"image": "img1", "remove_empty_paragraph": True})
    assert sorted(r.removed) == ["img1", "p30"]


def _vml_document() -> WordDocument:
    """A document with a legacy VML picture inside mc:AlternateContent (r:id, not r:embed)."""
    d = WordDocument.new()
    rid, _ = d.part.get_or_add_image(str(LOGO))
    p = parse(
        f'<w:p xmlns:w="{NS["w"]}" xmlns:v="{NS["v"]}" xmlns:r="{NS["r"]}" xmlns:mc="{NS["mc"]}">'
        f'<w:r><w:t>Logo: </w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="v">'
        f'<w:pict><v:shape style="width:90pt;height:45pt" alt="old"><v:imagedata r:id="{rid}"/></v:shape></w:pict>'
        f'</mc:Choice><mc:Fallback><w:t>[logo]</w:t></mc:Fallback></mc:AlternateContent></w:r></w:p>')
    d.body.insert(0, p)
    d.refresh_ids()
    return d


def test_vml_picture_alt_text_refusals_and_delete_counts_r_id():
    d = _vml_document()
    (iid,) = d.ids("img")
    assert _img(d, iid)["placement"] == "vml" and _img(d, iid)["alt_text"] == "old"
    execute(d, "set_image_alt_text", {"image": iid, "alt_text": "Company logo"})
    assert _img(d, iid)["alt_text"] == "Company logo"
    for name, args in (("resize_image", {"scale": 50}), ("crop_image", {"left": 5}), ("set_image_wrap", {"wrap": "square"})):
        with pytest.raises(UnsupportedOperationError, match="legacy VML picture"):
            execute(d, name, {"image": iid, **args})
    execute(d, "delete_image", {"image": iid})
    assert extract_state(d)["images"] == [] and _image_rels(d.part) == []
    assert d.body.find(f".//{{{NS['mc']}}}AlternateContent") is None and _para(d, "p1")["text"] == "Logo: "


def test_set_image_alignment_inline_and_floating(doc):
    execute(doc, "set_image_alignment", {"image": "img1", "alignment": "center"})
    assert _para(doc, "p30")["alignment"] == "center"
    execute(doc, "set_image_wrap", {"image": "img1", "wrap": "square"})
    execute(doc, "set_image_alignment", {"image": "img1", "alignment": "right"})
    assert _img(doc, "img1")["position"]["horizontal"] == {"relative_to": "column", "align": "right"}


ANCHOR_ORDER = ["simplePos", "positionH", "positionV", "extent", "effectExtent", "wrap", "docPr",
                "cNvGraphicFramePr", "graphic"]


def _anchor_children(doc, iid):
    names = [el.tag.split("}")[1] for el in doc.find(iid)]
    return ["wrap" if n.startswith("wrap") else n for n in names]


@pytest.mark.parametrize("wrap", ["square", "tight", "top_bottom", "behind", "in_front"])
def test_set_image_wrap_each_style(doc, wrap):
    execute(doc, "set_image_wrap", {"image": "img1", "wrap": wrap, "horizontal": "center"})
    img = _img(doc, "img1")
    assert img["placement"] == "floating" and img["wrap"] == wrap
    assert img["position"]["horizontal"]["align"] == "center" and img["position"]["vertical"]["relative_to"] == "paragraph"
    assert img["width_cm"] == 4.0 and img["paragraph"] == "p30"
    order = _anchor_children(doc, "img1")
    assert order == [n for n in ANCHOR_ORDER if n in order] and "wrap" in order and "effectExtent" not in order
    anchor = doc.find("img1")
    assert anchor.get("behindDoc") == ("1" if wrap == "behind" else "0")
    if wrap == "tight":
        assert anchor.find(f"{qn('wp:wrapTight')}/{qn('wp:wrapPolygon')}") is not None


def test_set_image_wrap_offsets_rewrap_and_back_to_inline(doc):
    execute(doc, "set_image_alt_text", {"image": "img1", "alt_text": "Logo", "title": "Acme"})
    execute(doc, "set_image_wrap", {"image": "img1", "wrap": "behind", "x": "2cm", "y": "0.5cm"})
    pos = _img(doc, "img1")["position"]
    assert pos["horizontal"]["offset_cm"] == 2.0 and pos["vertical"]["offset_cm"] == 0.5
    execute(doc, "set_image_wrap", {"image": "img1", "wrap": "square"})  # position kept
    img = _img(doc, "img1")
    assert img["wrap"] == "square" and img["position"]["horizontal"]["offset_cm"] == 2.0
    assert len([c for c in doc.find("img1") if c.tag.split("}")[1].startswith("wrap")]) == 1
    execute(doc, "set_image_wrap", {"image": "img1", "wrap": "inline"})
    img = _img(doc, "img1")
    assert img["placement"] == "inline" and "wrap" not in img and img["alt_text"] == "Logo" and img["paragraph"] == "p30"
    assert [el.tag.split("}")[1] for el in doc.find("img1")] == ["extent", "docPr", "cNvGraphicFramePr", "graphic"]
    assert execute(doc, "set_image_wrap", {"image": "img1", "wrap": "inline"}).message == "img1 is already inline"
    with pytest.raises(ArgumentError, match="not both"):
        execute(doc, "set_image_wrap", {"image": "img1", "wrap": "square", "horizontal": "left", "x": "1cm"})
    with pytest.raises(ArgumentError, match="only to floating"):
        execute(doc, "set_image_wrap", {"image": "img1", "wrap": "inline", "y": "1cm"})


def test_floating_picture_survives_save_and_python_docx(doc, tmp_path):
    execute(doc, "set_image_wrap", {"image": "img1", "wrap": "tight", "horizontal": "left"})
    out = doc.save(tmp_path / "float.docx")
    again = WordDocument.open(out)
    assert _img(again, "img1")["wrap"] == "tight"
    docx.Document(str(out))


def test_set_image_alt_text_and_title(doc):
    execute(doc, "set_image_alt_text", {"image": "img1", "alt_text": "Acme logo", "title": "Logo"})
    assert _img(doc, "img1")["alt_text"] == "Acme logo"
    assert doc.find("img1").find(qn("wp:docPr")).get("title") == "Logo"
    execute(doc, "set_image_alt_text", {"image": "img1", "alt_text": "", "title": ""})
    assert "alt_text" not in _img(doc, "img1") and doc.find("img1").find(qn("wp:docPr")).get("title") is None


def test_crop_image_sets_src_rect_and_scales_the_box(doc):
    execute(doc, "crop_image", {"image": "img1", "left": 10, "right": 15, "top": 50})
    src = doc.find("img1").find(f".//{qn('a:srcRect')}")
    assert (src.get("l"), src.get("r"), src.get("t"), src.get("b")) == ("10000", "15000", "50000", None)
    assert src.getprevious().tag == qn("a:blip") and src.getnext().tag == qn("a:stretch")
    assert (_img(doc, "img1")["width_cm"], _img(doc, "img1")["height_cm"]) == (3.0, 1.0)
    execute(doc, "crop_image", {"image": "img1", "left": 0})  # crops replace each other: back to the whole picture
    assert doc.find("img1").find(f".//{qn('a:srcRect')}") is None
    assert (_img(doc, "img1")["width_cm"], _img(doc, "img1")["height_cm"]) == (4.0, 2.0)
    with pytest.raises(ArgumentError, match="below 100 percent"):
        execute(doc, "crop_image", {"image": "img1", "left": 60, "right": 40})


def test_same_call_same_bytes():
    outs = []
    for _ in range(2):
        d = WordDocument.open(EXAMPLES / "report.docx")
        d.asset_roots = [EXAMPLES]
        execute(d, "insert_image", {"path": "images/photo.png", "position": "end", "width": "5cm"})
        execute(d, "set_image_wrap", {"image": "img1", "wrap": "square"})
        outs.append(d.members())
    assert outs[0] == outs[1]


@pytest.mark.slow
def test_inserted_picture_renders_in_pdf():
    from tests.rendering import render

    d = WordDocument.new()
    d.asset_roots = [EXAMPLES]
    execute(d, "insert_paragraph", {"text": "Picture below.", "position": "end"})
    execute(d, "insert_image", {"path": "images/photo.png", "position": "end", "width": "5cm"})
    execute(d, "insert_image", {"path": "images/diagram.png", "position": "end", "width": "3cm"})
    execute(d, "set_image_wrap", {"image": "img2", "wrap": "square", "horizontal": "right"})
    pdf = render(d)
    assert "Picture below." in pdf.text
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "out.pdf"
        path.write_bytes(pdf.pdf)
        listing = subprocess.run(["pdfimages", "-list", str(path)], capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in listing.splitlines()[2:] if line.strip()]
    assert sorted((int(r[3]), int(r[4])) for r in rows if r[2] == "image") == [(100, 100), (160, 120)]
