"""Headers and footers: which part a section shows, giving a section its own part (unlinking), and
writing text with page-number fields into a part.

A section without a ``w:headerReference`` of a kind inherits that kind from the previous section
("linked to previous"). Giving it its own part copies the inherited content, as Word does.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from lxml import etree

from autodw.apis.ooxml.builtin_styles import ensure_style, find_style_id
from autodw.apis.ooxml.copies import renew_ids
from autodw.apis.ooxml.elements import get_or_add_ppr, insert_ordered, make, remove_children, replace_child
from autodw.apis.ooxml.fields import field_runs
from autodw.apis.ooxml.paragraphs import JC, drop_rel
from autodw.apis.ooxml.sections import all_sections, section_at, section_indices, settings_root
from autodw.apis.ooxml.styles_edit import paragraph_style_id, style_by_id
from autodw.apis.ooxml.text import new_run
from autodw.apis.ooxml.watermark import is_watermark_run, renumber_shapes
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError
from autodw.core.xml import NS, qn, wval

WHERE = ("header", "footer")
KINDS = ("default", "first", "even")
PAGE_FIELDS = ("PAGE", "NUMPAGES", "SECTIONPAGES")
_TOKEN = re.compile(r"\{(PAGE|NUMPAGES|SECTIONPAGES)\}")
_R_NS = NS["r"]


def reference(sect: etree._Element, where: str, kind: str) -> etree._Element | None:
    """The section's own ``w:headerReference``/``w:footerReference`` of `kind`, or None (linked)."""
    for ref in sect.iterfind(qn(f"w:{where}Reference")):
        if (ref.get(qn("w:type")) or "default") == kind:
            return ref
    return None


def referenced_part(doc: WordDocument, ref: etree._Element):
    """The header/footer part a reference points to, or None if the relationship is broken."""
    rel = doc.part.rels.get(ref.get(qn("r:id")) or "")
    if rel is None or rel.is_external or rel.reltype not in (RT.HEADER, RT.FOOTER):
        return None
    return rel.target_part


def effective_part(doc: WordDocument, index: int, where: str, kind: str):
    """(part, owning section index) that section `index` shows for `kind`; (None, None) if none."""
    sections = all_sections(doc)
    for i in range(index, -1, -1):
        ref = reference(sections[i], where, kind)
        if ref is not None:
            part = referenced_part(doc, ref)
            if part is not None:
                return part, i
    return None, None


def active_kinds(doc: WordDocument, sect: etree._Element) -> list[str]:
    """The kinds a section actually shows: default, plus first (title page) and even (odd/even setting)."""
    kinds = ["default"]
    if is_on(sect.find(qn("w:titlePg"))):
        kinds.append("first")
    if even_and_odd(doc):
        kinds.append("even")
    return kinds


def even_and_odd(doc: WordDocument) -> bool:
    """True if the document uses different odd and even page headers."""
    root = settings_root(doc, create=False)
    return root is not None and is_on(root.find(qn("w:evenAndOddHeaders")))


def is_on(el: etree._Element | None) -> bool:
    """True if an on/off property element is present and not switched off."""
    return el is not None and el.get(qn("w:val")) not in ("0", "false", "off")


def own_part(doc: WordDocument, index: int, where: str, kind: str):
    """Section `index`'s own part for `kind`, created (copying an inherited one) if needed.

    Returns (part, note); the note says what was created or unlinked, "" if the part existed.
    """
    sect = section_at(doc, index)
    ref = reference(sect, where, kind)
    if ref is not None:
        part = referenced_part(doc, ref)
        if part is not None:
            return part, ""
        sect.remove(ref)  # a reference to nothing: replace it
    inherited, owner = effective_part(doc, index, where, kind)
    part, r_id = doc.part.add_header_part() if where == "header" else doc.part.add_footer_part()
    root = part.element
    if inherited is not None:
        for child in list(root):
            root.remove(child)
        copies = [_copy_with_rels(child, inherited, part) for child in inherited.element]
        renumber_shapes(copies, [doc.part.element, *(p.element for p in doc.header_footer_parts())])
        for child in copies:
            root.append(renew_ids(doc, child))
        note = f"unlinked section {index}'s {kind} {where} from section {owner} (it starts as a copy)"
    else:
        _fix_template_style(doc, root, where)
        note = f"created a {kind} {where} for section {index}"
    new_ref = make(f"w:{where}Reference", w_type=kind)
    new_ref.set(qn("r:id"), r_id)
    insert_ordered(sect, new_ref)
    return part, note


def _fix_template_style(doc: WordDocument, root: etree._Element, where: str) -> None:
    """python-docx's blank part styles its paragraph "Header"/"Footer": the document's style of that name, added
    with Word's definition if the document lacks it (as Word does when it creates a header or footer)."""
    sid = ensure_style(doc, where, "paragraph")
    for style in root.iter(qn("w:pStyle")):
        style.set(qn("w:val"), sid)


def _copy_with_rels(el: etree._Element, source, target) -> etree._Element:
    """Deep copy of `el` from part `source` for part `target`, with its relationships re-created."""
    clone = copy.deepcopy(el)
    mapping: dict[str, str] = {}
    for node in clone.iter():
        for attr, value in node.attrib.items():
            if not attr.startswith(f"{{{_R_NS}}}"):
                continue
            if value not in mapping:
                rel = source.rels.get(value)
                if rel is None:
                    continue
                mapping[value] = target.relate_to(rel.target_ref if rel.is_external else rel.target_part, rel.reltype,
                                                  is_external=rel.is_external)
            node.set(attr, mapping[value])
    return clone


def unlink(doc: WordDocument, index: int, where: str, kind: str) -> str:
    """Remove section `index`'s own reference of `kind` so it shows the previous section's; drop the
    part if nothing references it any more. Returns a note ("" if it was already linked)."""
    sect = section_at(doc, index)
    ref = reference(sect, where, kind)
    if ref is None:
        return ""
    r_id = ref.get(qn("r:id"))
    sect.remove(ref)
    drop_rel(doc.part, r_id)  # only dropped when no other section references it
    return f"linked section {index}'s {kind} {where} to the previous section"


def story_paragraphs(root: etree._Element) -> list[etree._Element]:
    """Top-level paragraphs of a header/footer part."""
    return [c for c in root if c.tag == qn("w:p")]


def template_runs(template: str, rpr: etree._Element | None = None, page_placeholder: str = "1") -> list[etree._Element]:
    """Runs showing `template`, with {PAGE}, {NUMPAGES} and {SECTIONPAGES} as live fields."""
    out: list[etree._Element] = []
    rpr_xml = etree.tostring(rpr, encoding="unicode") if rpr is not None else ""
    pos = 0
    for m in _TOKEN.finditer(template):
        if m.start() > pos:
            out.append(new_run(template[pos:m.start()], rpr))
        out.extend(field_runs(m.group(1), page_placeholder if m.group(1) == "PAGE" else "1", rpr_xml))
        pos = m.end()
    if pos < len(template):
        out.append(new_run(template[pos:], rpr))
    return out


def in_frame(doc: WordDocument, p: etree._Element) -> bool:
    """True if paragraph `p` is in a frame (``w:framePr``, its own or its style's): a box placed on the page, such as
    a document-ID stamp, not the header's or footer's running text."""
    if p.find(f"{qn('w:pPr')}/{qn('w:framePr')}") is not None:
        return True
    seen: set[str] = set()
    sid = paragraph_style_id(p)
    while sid and sid not in seen:
        seen.add(sid)
        style = style_by_id(doc, sid)
        if style is None:
            return False
        if style.find(f"{qn('w:pPr')}/{qn('w:framePr')}") is not None:
            return True
        sid = wval(style.find(qn("w:basedOn")))
    return False


def style_ppr(doc: WordDocument, root: etree._Element, where: str, alignment: str | None) -> etree._Element:
    """Paragraph properties for new header/footer text: the first paragraph's outside a frame, else the Header/Footer
    style."""
    first = next((p for p in story_paragraphs(root) if p.find(qn("w:pPr")) is not None and not in_frame(doc, p)), None)
    if first is not None:
        ppr = copy.deepcopy(first.find(qn("w:pPr")))
        for tag in ("w:sectPr", "w:pPrChange", "w:numPr"):
            remove_children(ppr, tag)
    else:
        ppr = make("w:pPr")
        sid = find_style_id(doc, where, "paragraph")
        if sid:
            insert_ordered(ppr, make("w:pStyle", w_val=sid))
    if alignment:
        remove_children(ppr, "w:jc")
        insert_ordered(ppr, make("w:jc", w_val=JC[alignment]))
    return ppr


def first_text_rpr(doc: WordDocument, root: etree._Element) -> etree._Element | None:
    """The formatting of the first text run in a part outside frames (new text keeps the look of the old)."""
    framed = {p for p in root.iter(qn("w:p")) if in_frame(doc, p)}
    for r in root.iter(qn("w:r")):
        if r.find(qn("w:t")) is not None and not is_watermark_run(r) and \
                not any(p in framed for p in r.iterancestors(qn("w:p"))):
            rpr = r.find(qn("w:rPr"))
            return copy.deepcopy(rpr) if rpr is not None else None
    return None


_LINE_GEOMETRIES = ("line", "straightConnector1")
_VML_SHAPES = tuple(f"{{{NS['v']}}}{t}" for t in ("shape", "rect", "roundrect", "oval", "line", "polyline", "arc",
                                                   "curve", "image", "group"))


def is_separator_run(run: etree._Element) -> bool:
    """True if the run shows no text, only drawn lines: DrawingML lines or straight connectors, VML lines or
    horizontal rules (``o:hr``), a header's or footer's separator line."""
    if run.find(qn("w:t")) is not None:
        return False
    drawing = run.find(f".//{qn('w:drawing')}")
    if drawing is not None:
        shapes = [g.get("prst") for g in drawing.iter(f"{{{NS['a']}}}prstGeom")]
        return bool(shapes) and all(g in _LINE_GEOMETRIES for g in shapes) and \
            drawing.find(f".//{{{NS['wps']}}}txbx") is None and drawing.find(f".//{{{NS['pic']}}}pic") is None
    shapes = list(run.iter(*_VML_SHAPES))
    return bool(shapes) and all(v.tag == f"{{{NS['v']}}}line" or (v.tag == f"{{{NS['v']}}}rect" and
                                                                   v.get(f"{{{NS['o']}}}hr") == "t") for v in shapes)


def _drawn(bdr: etree._Element | None) -> etree._Element | None:
    """`bdr` (a ``w:pBdr``) if it draws a line (not only "nil"/"none" sides), else None."""
    return bdr if bdr is not None and any(wval(side) not in (None, "nil", "none") for side in bdr) else None


def _border(p: etree._Element) -> etree._Element | None:
    """The paragraph border of paragraph `p` if it draws a line."""
    return _drawn(p.find(f"{qn('w:pPr')}/{qn('w:pBdr')}"))


def _is_separator_paragraph(p: etree._Element) -> bool:
    """True if top-level paragraph `p` shows nothing but a paragraph border (an empty line drawn as a separator)."""
    return p.tag == qn("w:p") and _border(p) is not None and not any(
        c.tag not in (qn("w:pPr"), qn("w:bookmarkStart"), qn("w:bookmarkEnd"))
        and not (c.tag == qn("w:r") and all(x.tag == qn("w:rPr") for x in c)) for c in p)


_BLOCKS = (qn("w:p"), qn("w:tbl"), qn("w:sdt"), qn("w:customXml"))


def _kept_marks(root: etree._Element, kept: bool) -> list[etree._Element]:
    """The runs a rewrite keeps: watermarks always, drawn separator lines (outside text boxes) unless `kept` is False
    (the text is cleared)."""
    return [r for r in root.iter(qn("w:r")) if is_watermark_run(r) or (
        kept and is_separator_run(r) and not any(a.tag == qn("w:txbxContent") for a in r.iterancestors()))]


def _kept_rules(root: etree._Element, kept: bool) -> tuple[list[etree._Element], list[etree._Element]]:
    """The empty bordered paragraphs a rewrite keeps, as (those before the text, those after it); none when the text
    is cleared or when they are all the part has (the text goes into them)."""
    blocks = [c for c in root if c.tag in _BLOCKS]
    rules = [c for c in blocks if kept and _is_separator_paragraph(c)]
    first = next((n for n, c in enumerate(blocks) if c not in rules), None)
    if first is None:
        return [], []
    before = [r for r in rules if blocks.index(r) < first]
    return before, [r for r in rules if r not in before]


def _text_paragraphs(text: str, ppr: etree._Element, rpr: etree._Element | None) -> list[etree._Element]:
    """One paragraph per line of `text`, each with a copy of `ppr`, its runs formatted as `rpr` ({PAGE} as fields)."""
    paragraphs = []
    for line in text.split("\n"):
        p = make("w:p")
        p.append(copy.deepcopy(ppr))
        for run in template_runs(line, rpr):
            p.append(run)
        paragraphs.append(p)
    return paragraphs


def set_story_text(doc: WordDocument, part, where: str, text: str, alignment: str | None) -> None:
    """Replace the content of a header/footer part with `text` (one paragraph per line, {PAGE} tokens
    as fields). Watermark shapes and separator lines are kept: drawn lines (in the first new paragraph, as
    watermarks), empty paragraphs showing only a border (before or after the new text, where they were) and a
    border the old text paragraphs had (on the new ones). Empty text (clearing it) keeps only the watermarks."""
    root = part.element
    kept = bool(text.strip())  # separator lines go with the text when it is cleared
    marks = _kept_marks(root, kept)
    before, after = _kept_rules(root, kept)
    for rule in (*before, *after):
        root.remove(rule)
    ppr = style_ppr(doc, root, where, alignment)
    border = next((b for b in map(_border, story_paragraphs(root)) if b is not None), None) if kept else None
    if border is not None and _drawn(ppr.find(qn("w:pBdr"))) is None:
        remove_children(ppr, "w:pBdr")
        insert_ordered(ppr, copy.deepcopy(border))
    rpr = first_text_rpr(doc, root)
    for child in list(root):
        if child.tag in _BLOCKS:
            root.remove(child)
    paragraphs = _text_paragraphs(text, ppr, rpr)
    for p in (*before, *paragraphs, *after):
        root.append(p)
    for mark in reversed(marks):
        paragraphs[0].insert(1, mark)


def has_page_field(p: etree._Element) -> bool:
    """True if paragraph `p` holds a PAGE, NUMPAGES or SECTIONPAGES field."""
    instr = " ".join((t.text or "") for t in p.iter(qn("w:instrText")))
    instr += " " + " ".join((f.get(qn("w:instr")) or "") for f in p.iter(qn("w:fldSimple")))
    return any(re.search(rf"(^|\s){name}(\s|$)", instr) for name in PAGE_FIELDS)


def is_blank(p: etree._Element) -> bool:
    """True if paragraph `p` holds nothing but its properties (e.g. the blank line of a new part)."""
    return len(p) == (1 if p.find(qn("w:pPr")) is not None else 0)


def is_page_number_control(el: etree._Element) -> bool:
    """True if `el` is a block content control (``w:sdt``) showing page numbers: one of Word's "Page Numbers"
    building blocks (also when emptied), or one holding a page field and besides it only blank paragraphs."""
    if el.tag != qn("w:sdt"):
        return False
    gallery = el.find(f"{qn('w:sdtPr')}/{qn('w:docPartObj')}/{qn('w:docPartGallery')}")
    if gallery is not None and (gallery.get(qn("w:val")) or "").lower().startswith("page numbers"):
        return True
    content = el.find(qn("w:sdtContent"))
    return content is not None and has_page_field(el) and all(
        c.tag == qn("w:p") and (has_page_field(c) or is_blank(c)) for c in content)


def require_where_kind(where: str, kind: str) -> None:
    """Checks the where/kind pair (the schema already restricts both)."""
    if where not in WHERE or kind not in KINDS:
        raise ArgumentError(f"where must be one of {WHERE} and kind one of {KINDS}")


def ensure_paragraph(root: etree._Element) -> etree._Element:
    """The first top-level paragraph of a part, added if the part has none."""
    paras = story_paragraphs(root)
    if paras:
        return paras[0]
    p = make("w:p")
    get_or_add_ppr(p)
    root.insert(0, p)
    return p


def target_parts(doc: WordDocument, section: Any, where: str, kind: str) -> tuple[list, list[str]]:
    """The parts to edit for `section` ("all": each section's own part, creating section 0's if needed;
    one index: that section's own part, unlinking it from the previous section if it was linked)."""
    parts, notes, seen = [], [], set()
    for i in section_indices(doc, section):
        sect = section_at(doc, i)
        if section == "all" and i > 0 and reference(sect, where, kind) is None:
            continue  # linked: it shows what an earlier section shows
        part, note = own_part(doc, i, where, kind)
        if note:
            notes.append(note)
        if str(part.partname) not in seen:
            seen.add(str(part.partname))
            parts.append(part)
    return parts, notes


def sections_showing(doc: WordDocument, part, where: str, kind: str) -> list[int]:
    """The indices of the sections whose `kind` header/footer is `part`."""
    return [i for i in range(len(all_sections(doc))) if effective_part(doc, i, where, kind)[0] is part]


def switch_on_kind(doc: WordDocument, section: Any, kind: str, notes: list[str]) -> None:
    """A first-page or even-page header only shows when its setting is on: turn it on."""
    if kind == "first":
        for i in section_indices(doc, section):
            sect = section_at(doc, i)
            if sect.find(qn("w:titlePg")) is None or not is_on(sect.find(qn("w:titlePg"))):
                replace_child(sect, "w:titlePg")
                notes.append(f"turned on 'different first page' for section {i}")
    elif kind == "even" and not even_and_odd(doc):
        replace_child(settings_root(doc), "w:evenAndOddHeaders")
        notes.append("turned on 'different odd and even pages' for the whole document")
