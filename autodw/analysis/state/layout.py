"""Page layout: sections (size, margins, columns, numbering, page borders, line numbers), headers, footers, watermarks, TOC,
tables of figures."""

from __future__ import annotations

import re
from typing import Any

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from lxml import etree

from autodw.analysis.state.blocks import PPR, SECT_PR, Sink, StoryWalker, border_sides, field_code
from autodw.analysis.state.context import StateContext, twips_to_cm
from autodw.analysis.state.types import Paragraph, Section, Story, TableOfContents, TableOfFigures, Watermark
from autodw.core.xml import NS, on_off, qn, wval

_KINDS = ("default", "first", "even")
#: a header's or footer's contents in full, for the judge (compared as the body's are); the renderings and the change
#: lists leave them out (the story's text, its tables' and images' ids and its fields say what is there)
STORY_DETAILS = ("paragraph_details", "table_details", "image_details", "hyperlinks")
_V = NS["v"]


def section_properties(body: etree._Element) -> list[etree._Element]:
    """Every section's ``w:sectPr`` in order: those in paragraph marks, then the body's own."""
    return [s for s in body.iter(SECT_PR) if s.getparent().tag == PPR or s.getparent() is body]


class LayoutReader:
    """Reads sections and the header/footer stories they reference (each part read once)."""

    def __init__(self, ctx: StateContext):
        self.ctx = ctx
        self._stories: dict[str, Story] = {}

    def sections(self) -> list[Section]:
        """Per-section page setup, with headers, footers, page numbers and watermark."""
        settings = self.ctx.settings_root
        even_odd = settings is not None and on_off(settings.find(qn("w:evenAndOddHeaders"))) is True
        out: list[Section] = []
        inherited: dict[str, Story] = {}
        for i, sect in enumerate(section_properties(self.ctx.doc.body)):
            info = _page_setup(sect)
            info["index"] = i
            title_pg = on_off(sect.find(qn("w:titlePg"))) is True
            info["different_first_page"] = title_pg
            info["different_odd_even"] = even_odd
            for ref_tag, key in (("w:headerReference", "headers"), ("w:footerReference", "footers")):
                own = {}
                for ref in sect.iterfind(qn(ref_tag)):
                    kind = ref.get(qn("w:type")) or "default"
                    story = self._story(ref.get(qn("r:id")))
                    if story is not None:
                        own[kind] = story
                stories = {}
                for kind in _KINDS:
                    if kind in own:
                        stories[kind] = {**own[kind], "linked_to_previous": False}
                        inherited[f"{key}:{kind}"] = own[kind]
                    elif f"{key}:{kind}" in inherited:
                        stories[kind] = {**inherited[f"{key}:{kind}"], "linked_to_previous": True}
                info[key] = {k: v for k, v in stories.items()
                             if k == "default" or (k == "first" and title_pg) or (k == "even" and even_odd)}
            info["page_numbers"] = sorted(
                f"{key[:-1]}:{kind}" for key in ("headers", "footers") for kind, s in info[key].items() if s.get("page_number")
            )
            marks = {s["watermark"]["text"] if s.get("watermark", {}).get("text") else s.get("watermark", {}).get("type")
                     for s in info["headers"].values() if s.get("watermark")}
            info["watermark"] = sorted(marks)[0] if marks else None
            out.append(info)
        return out

    def _story(self, r_id: str | None) -> Story | None:
        rel = self.ctx.doc.part.rels.get(r_id) if r_id else None
        if rel is None or rel.is_external or rel.reltype not in (RT.HEADER, RT.FOOTER):
            return None
        part = rel.target_part
        key = str(part.partname)
        if key not in self._stories:
            sink = Sink()
            walker = StoryWalker(self.ctx, part, sink)
            walker.walk_blocks(part._element)
            story: dict[str, Any] = {
                "part": key.rsplit("/", 1)[-1],
                "text": "\n".join(p["text"] for p in walker.paragraphs),
                "paragraphs": [p["id"] for p in walker.paragraphs],
                # the paragraphs themselves (style, format, runs): the judge compares them as it does body paragraphs
                "paragraph_details": walker.paragraphs,
            }
            aligned = [p.get("alignment") for p in walker.paragraphs]
            if any(aligned):
                story["alignments"] = aligned
            if any(f["type"] in ("PAGE", "NUMPAGES", "SECTIONPAGES") for f in sink.fields):
                story["page_number"] = True
            if sink.fields:
                story["fields"] = [field_code(f["instruction"] or f["type"]) for f in sink.fields]  # in order
            mark = _watermark(part._element)
            if mark:
                story["watermark"] = mark
            if walker.tables:
                story["tables"] = [t["id"] for t in walker.tables]
                story["table_details"] = walker.tables
            if sink.images:
                story["images"] = [img.get("id") for img in sink.images]
                story["image_details"] = sink.images
            if sink.hyperlinks:
                story["hyperlinks"] = sink.hyperlinks
            self._stories[key] = story
        return self._stories[key]


def _page_setup(sect: etree._Element) -> dict[str, Any]:
    info: dict[str, Any] = {"start": wval(sect.find(qn("w:type"))) or "nextPage"}
    sz = sect.find(qn("w:pgSz"))
    if sz is not None:
        w, h = twips_to_cm(sz.get(qn("w:w"))), twips_to_cm(sz.get(qn("w:h")))
        info["page_width_cm"], info["page_height_cm"] = w, h
        orient = sz.get(qn("w:orient"))
        info["orientation"] = orient or ("landscape" if w and h and w > h else "portrait")
    mar = sect.find(qn("w:pgMar"))
    if mar is not None:
        info["margins_cm"] = {k: twips_to_cm(mar.get(qn(f"w:{k}"))) for k in ("top", "bottom", "left", "right", "header", "footer", "gutter")
                              if mar.get(qn(f"w:{k}")) is not None}
    cols = sect.find(qn("w:cols"))
    if cols is not None:
        num = cols.get(qn("w:num"))
        own = cols.findall(qn("w:col"))
        unequal = bool(own) and cols.get(qn("w:equalWidth")) in ("0", "false", "off")
        count = len(own) if unequal else int(num) if num and num.isdigit() and int(num) > 0 else 1
        info["columns"] = {"count": count}
        if count > 1:  # one column has no space between columns nor line between them
            info["columns"]["separator"] = on_off(cols.find(qn("w:sep"))) or cols.get(qn("w:sep")) in ("1", "true")
            if unequal:  # each column its own width and space after it (the last one's is not drawn)
                info["columns"]["widths_cm"] = [twips_to_cm(c.get(qn("w:w"))) for c in own]
                info["columns"]["spaces_cm"] = [twips_to_cm(c.get(qn("w:space"))) for c in own[:-1]]
            else:
                info["columns"]["space_cm"] = twips_to_cm(cols.get(qn("w:space")))
    else:
        info["columns"] = {"count": 1}
    num_type = sect.find(qn("w:pgNumType"))
    if num_type is not None:
        start, fmt = num_type.get(qn("w:start")), num_type.get(qn("w:fmt"))
        numbering = {k: v for k, v in (("start", start), ("format", fmt if fmt != "decimal" else None)) if v}
        if numbering:  # decimal numbers are the default
            info["page_numbering"] = numbering
    v_align = wval(sect.find(qn("w:vAlign")))
    if v_align and v_align != "top":  # the text's vertical place on the page: top (the default), center, both, bottom
        info["vertical_alignment"] = v_align
    page_borders = sect.find(qn("w:pgBorders"))
    sides = border_sides(page_borders) if page_borders is not None else {}
    if any(line.get("style") != "none" for line in sides.values()):
        info["page_borders"] = {**sides, "measured_from": page_borders.get(qn("w:offsetFrom")) or "text"}
    line_numbers = sect.find(qn("w:lnNumType"))
    count_by = line_numbers.get(qn("w:countBy")) if line_numbers is not None else None
    if count_by and count_by.isdigit() and int(count_by) > 0:  # numbers shown only with a count of 1 or more
        info["line_numbering"] = {"count_by": int(count_by), "start": int(line_numbers.get(qn("w:start")) or 0) + 1,
                                  "restart": line_numbers.get(qn("w:restart")) or "newPage"}
    return info


def _watermark(root: etree._Element) -> Watermark | None:
    for textpath in root.iter(f"{{{_V}}}textpath"):
        text = textpath.get("string")
        if text:
            shape = textpath.getparent()
            style = dict(i.split(":", 1) for i in (shape.get("style") or "").split(";") if ":" in i)
            mark = {"type": "text", "text": text, "color": (shape.get("fillcolor") or "").lstrip("#").upper() or None,
                    "layout": "diagonal" if style.get("rotation", "0").strip() not in ("0", "") else "horizontal",
                    "font": (dict(i.split(":", 1) for i in (textpath.get("style") or "").split(";") if ":" in i)
                             .get("font-family", "").strip('"') or None)}
            return {k: v for k, v in mark.items() if v is not None}
    for shape in root.iter(f"{{{_V}}}shape"):
        if "WaterMark" in (shape.get("id") or "") and shape.find(f"{{{_V}}}imagedata") is not None:
            return {"type": "picture"}
    return None


_TOC_SWITCH = re.compile(r'\\([A-Za-z])(?:\s+(?:"([^"]*)"|([^\\\s"]+)))?')


def figures_identifier(instruction: str) -> str | None:
    """The SEQ identifier a TOC field's ``\\c`` or ``\\a`` switch names: the field is a table of figures ("" for a
    bare ``\\c``, which lists by style); None for a table of contents."""
    for m in _TOC_SWITCH.finditer(instruction):
        if m.group(1).lower() in ("c", "a"):
            return m.group(2) if m.group(2) is not None else (m.group(3) or "")
    return None


def table_of_contents(sink: Sink, paragraphs: list[Paragraph]) -> TableOfContents | None:
    """The first TOC field (not a table of figures) or TOC content control, with its level range and entry texts."""
    field = next((f for f in sink.fields if f["type"] == "TOC" and figures_identifier(f["instruction"]) is None), None)
    gallery = next((c for c in sink.content_controls if (c.get("gallery") or "").lower() == "table of contents"), None)
    if field is None and gallery is None:
        return None
    toc: dict[str, Any] = {"present": True}
    if field is not None:
        toc["paragraph"] = field["paragraph"]
        toc["instruction"] = field["instruction"]
        instr = field["instruction"]
        if "\\o" in instr:
            rng = instr.split("\\o", 1)[1].strip().split()[0].strip('"')
            toc["levels"] = rng
    toc["entries"] = [p["text"] for p in paragraphs if re.fullmatch(r"toc \d", (p.get("style") or "").lower()) and p["text"].strip()]
    return toc


def tables_of_figures(sink: Sink, paragraphs: list[Paragraph]) -> list[TableOfFigures]:
    """The TOC fields with ``\\c`` or ``\\a`` (tables of figures): where each starts, its SEQ identifier and its
    entries (the "table of figures" paragraphs from its first one on, up to the next TOC field)."""
    out: list[TableOfFigures] = []
    at = {p["id"]: n for n, p in enumerate(paragraphs)}
    starts = {f["paragraph"] for f in sink.fields if f["type"] == "TOC"}
    for field in sink.fields:
        label = figures_identifier(field["instruction"]) if field["type"] == "TOC" else None
        if label is None:
            continue
        entries = []
        for n, p in enumerate(paragraphs[at[field["paragraph"]]:] if field["paragraph"] in at else []):
            if (p.get("style") or "").lower() != "table of figures" or n and p["id"] in starts:
                break
            if p["text"].strip():
                entries.append(p["text"])
        out.append({"paragraph": field["paragraph"], "instruction": field["instruction"], "label": label,
                    "entries": entries})
    return out
