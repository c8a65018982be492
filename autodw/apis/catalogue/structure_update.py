"""structure_update APIs: sections and page setup, headers and footers, page numbers, table of
contents, watermark, bookmarks, hyperlinks, comment/footnote removal, heading levels."""

from __future__ import annotations

import copy
import re
from typing import Any

from autodw.apis.ooxml import headers as hf
from autodw.apis.ooxml import locate
from autodw.apis.ooxml import toc as toc_lib
from autodw.apis.ooxml import watermark as wm
from autodw.apis.ooxml.builtin_styles import ensure_style, find_style_id
from autodw.apis.ooxml.comments import COMMENT_ID, comment_label, find_comment, remove_comment
from autodw.apis.ooxml.elements import get_or_add, get_or_add_ppr, insert_ordered, make, remove_children, replace_child
from autodw.apis.ooxml.fields import bookmark_starts, new_bookmark_id, request_field_update
from autodw.apis.ooxml.notes import notes_root, remove_note
from autodw.apis.ooxml.paragraphs import drop_rel, link_text, paragraph_links, set_link_text
from autodw.apis.ooxml.sections import (ONE_SECTION, PAPER_SIZES, SECTION, STARTS, all_sections, describe, page_size,
                                        section_at, section_indices, section_of_paragraph, set_orientation,
                                        settings_root, text_area, twips_attr, write_page_size)
from autodw.apis.ooxml.text import atoms, isolate, new_run, resolve_span
from autodw.apis.registry import Example, api
from autodw.apis.schema import (ALIGNMENT, PARAGRAPH_ID, PARAGRAPH_IDS, POSITION, SPAN, boolean, color, enum, integer, shown_id, shown_number,
                                length, text)
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, clipped
from autodw.core.ids import element_id
from autodw.core.units import format_number, hex_color, twips
from autodw.core.xml import qn

INTENT = "structure_update"

WHERE = enum("header or footer", hf.WHERE)
KIND = enum("which header/footer of the section: default (every page), first (first page, when 'different first "
            "page' is on), even (even pages, when 'different odd and even' is on)", hf.KINDS)
NUMBER_FORMATS = ("decimal", "lowerRoman", "upperRoman", "lowerLetter", "upperLetter")


# --- sections ----------------------------------------------------------------------------


@api(intent=INTENT,
     description="Insert a section break after a body paragraph, so the following content starts a new section "
                 "(on a new page, continuously, or on the next even/odd page). The new section copies the current "
                 "section's page setup, columns and headers/footers (its headers and footers are linked to the "
                 "previous section); optionally give it another orientation. Section indices after the break shift by one.",
     params={"after": PARAGRAPH_ID, "start": enum("how the new section starts", tuple(STARTS)),
             "orientation": enum("orientation of the new section (default: as before)", ("portrait", "landscape"))},
     examples=[{"after": "p8", "start": "new_page", "orientation": "landscape"},
               {"after": "p2", "start": "continuous"}])
def insert_section_break(doc: WordDocument, after: str, start: str = "new_page", orientation: str | None = None):
    """Break the section after a body paragraph; the part after it becomes a new section."""
    p = doc.find(after, "p")
    if p.getparent() is not doc.body:
        raise ArgumentError(f"{after} is not a paragraph directly in the document body (it is in a table, header or "
                            "content control); choose a body paragraph")
    ends = p.find(f"{qn('w:pPr')}/{qn('w:sectPr')}")
    if ends is not None:
        raise ArgumentError(f"{after} already ends section {all_sections(doc).index(ends)}; change that section with "
                            "set_page_setup or set_columns instead")
    following = p.getnext()
    while following is not None and following.tag not in (qn("w:p"), qn("w:tbl"), qn("w:sdt")):
        following = following.getnext()
    if following is None:
        raise ArgumentError(f"{after} is the last paragraph of the document; a section break needs content after it "
                            "(insert a paragraph after it first)")
    sect = section_of_paragraph(doc, p)
    ended = copy.deepcopy(sect)  # the section that now ends at `after` keeps the old start type and headers
    for tag in ("w:headerReference", "w:footerReference"):
        remove_children(sect, tag)  # the section after the break is linked to the previous one, as in Word
    replace_child(sect, "w:type", w_val=STARTS[start])
    if orientation:
        set_orientation(sect, orientation)
    insert_ordered(get_or_add_ppr(p), ended)
    index = all_sections(doc).index(ended)
    extra = f", {orientation}" if orientation else ""
    return (f"inserted a {start.replace('_', ' ')} section break after {after}: section {index} ends there and "
            f"section {index + 1} follows{extra}")


MARGINS = {"type": "object", "additionalProperties": False, "minProperties": 1,
           "description": 'page margins to change, e.g. {"top": "2cm", "left": "1in"}; keys top, bottom, left, right, '
                          "header, footer, gutter; each a length with unit",
           "properties": {k: length(f"{k} margin") for k in ("top", "bottom", "left", "right", "header", "footer", "gutter")}}
_MARGIN_DEFAULTS = {"top": 1440, "right": 1800, "bottom": 1440, "left": 1800, "header": 720, "footer": 720, "gutter": 0}


@api(intent=INTENT,
     description="Change the page setup of one section or all: orientation (width and height are swapped), paper "
                 "size (A4, Letter, Legal, A3, A5) or an exact width/height, and margins.",
     params={"section": SECTION, "orientation": enum("page orientation", ("portrait", "landscape")),
             "size": enum("paper size (keeps the orientation)", tuple(PAPER_SIZES)),
             "width": length("exact page width"), "height": length("exact page height"), "margins": MARGINS},
     examples=[{"section": 0, "orientation": "landscape"},
               {"section": "all", "size": "A4", "margins": {"top": "2cm", "bottom": "2cm", "left": "2.5cm", "right": "2.5cm"}}])
def set_page_setup(doc: WordDocument, section: Any, orientation: str | None = None, size: str | None = None,
                   width: str | None = None, height: str | None = None, margins: dict | None = None):
    """Orientation, paper size and margins of one section or all."""
    if not any(v is not None for v in (orientation, size, width, height, margins)):
        raise ArgumentError("give at least one of orientation, size, width, height or margins")
    indices = section_indices(doc, section)
    for i in indices:
        sect = section_at(doc, i)
        sz = get_or_add(sect, "w:pgSz")
        w, h = page_size(sect)
        w, h = w or 12240, h or 15840
        if size:
            pw, ph = PAPER_SIZES[size]
            w, h = (ph, pw) if w > h else (pw, ph)
        if width:
            w = twips(width, "width")
        if height:
            h = twips(height, "height")
        if orientation and (orientation == "landscape") != (w > h):
            w, h = h, w
        if not (1440 <= w <= 31680 and 1440 <= h <= 31680):
            raise ArgumentError("page width and height must be between 1in and 22in")
        write_page_size(sz, w, h)
        if margins:
            mar = sect.find(qn("w:pgMar"))
            if mar is None:
                mar = insert_ordered(sect, make("w:pgMar", **{f"w_{k}": v for k, v in _MARGIN_DEFAULTS.items()}))
            for key, value in margins.items():
                mar.set(qn(f"w:{key}"), str(twips(value, f"{key} margin")))
        mar = sect.find(qn("w:pgMar"))
        if mar is not None:
            get = lambda k: abs(twips_attr(mar, k))  # noqa: E731
            if get("left") + get("right") + get("gutter") >= w - 720 or get("top") + get("bottom") >= h - 720:
                raise ArgumentError(f"the margins leave no room for text on section {i}'s {w / 567:.1f}x{h / 567:.1f}cm page")
    what = ", ".join(f"{k} {v}" for k, v in (("orientation", orientation), ("size", size), ("width", width),
                                              ("height", height), ("margins", margins)) if v)
    return f"set {what} on {describe(indices, len(all_sections(doc)))}"


@api(intent=INTENT,
     description="Lay out a section (or all) in newspaper columns: number of columns, space between them, and an "
                 "optional vertical line between columns. count 1 returns to a single column.",
     params={"section": SECTION, "count": integer("number of columns", 1, 12),
             "spacing": length("space between columns (default 1.25cm)"),
             "separator": boolean("draw a vertical line between columns")},
     examples=[{"section": 1, "count": 2, "spacing": "1cm", "separator": True}])
def set_columns(doc: WordDocument, section: Any, count: int, spacing: str | None = None, separator: bool | None = None):
    """Newspaper columns of one section or all."""
    indices = section_indices(doc, section)
    for i in indices:
        cols = get_or_add(section_at(doc, i), "w:cols")
        for child in list(cols):
            cols.remove(child)  # explicit unequal widths no longer match
        cols.attrib.pop(qn("w:equalWidth"), None)
        cols.set(qn("w:num"), str(count))
        if spacing is not None:
            cols.set(qn("w:space"), str(twips(spacing, "spacing")))
        elif cols.get(qn("w:space")) is None:
            cols.set(qn("w:space"), "708")
        if separator is not None:
            if separator and count > 1:
                cols.set(qn("w:sep"), "1")
            else:
                cols.attrib.pop(qn("w:sep"), None)
    return f"set {count} column(s) on {describe(indices, len(all_sections(doc)))}"


@api(intent=INTENT,
     description="Remove the section break that ends a section, merging it with the following section (the merged "
                 "section takes the following section's page setup, as in Word). The last section has no break to remove.",
     params={"section": ONE_SECTION},
     examples=[{"section": 0}])
def remove_section_break(doc: WordDocument, section: int):
    """Merge a section with the following one by removing its break."""
    sect = section_at(doc, section)  # first: it gives a document without any section properties its final one
    sections = all_sections(doc)
    if section == len(sections) - 1:
        raise ArgumentError(f"section {section} is the last section; it ends with the document, not with a break. "
                            f"Breaks end sections 0 to {len(sections) - 2}" if len(sections) > 1 else
                            "the document has a single section and no section break")
    following = sections[section + 1]
    for tag in ("w:headerReference", "w:footerReference"):  # keep what the merged content showed if the next is linked
        for ref in sect.iterfind(qn(tag)):
            kind = ref.get(qn("w:type")) or "default"
            if hf.reference(following, tag[2:-9], kind) is None:
                insert_ordered(following, copy.deepcopy(ref))
    holder = sect.getparent()
    holder.remove(sect)
    if len(holder) == 0:
        holder.getparent().remove(holder)
    return f"removed the section break at the end of section {section}; its content now belongs to the following section"


# --- headers and footers -------------------------------------------------------------------


def _story_ids(doc: WordDocument, parts) -> str:
    doc.refresh_ids()
    return ", ".join(i for part in parts for i in (element_id(p) for p in hf.story_paragraphs(part.element)) if i)


@api(intent=INTENT,
     description="Set the text of a section's header or footer (replacing its paragraphs; a watermark is kept, and "
                 "so is a separator line, a drawn line or a bordered empty paragraph, unless the text is empty). "
                 "Write {PAGE}, {NUMPAGES} or {SECTIONPAGES} in the text for live page-number fields; \\n starts a new "
                 "paragraph. Editing one section's header that is linked to the previous section unlinks it first "
                 "(later sections linked to it follow); section \"all\" edits every distinct header of that kind.",
     params={"section": SECTION, "where": WHERE, "text": text("the new header/footer text"), "kind": KIND,
             "alignment": ALIGNMENT},
     examples=[{"section": "all", "where": "header", "text": "Acme Corporation - Confidential", "alignment": "right"},
               {"section": 1, "where": "footer", "text": "Appendix - page {PAGE}"},
               Example({"section": 0, "where": "footer", "text": "第 {PAGE} 页", "alignment": "center"},
                       document="examples/contract_zh.docx")])
def set_header_footer(doc: WordDocument, section: Any, where: str, text: str, kind: str = "default",
                      alignment: str | None = None):
    """Replace the text of a section's header or footer (fields from {PAGE}-style tokens)."""
    notes: list[str] = []
    hf.switch_on_kind(doc, section, kind, notes)
    parts, created = hf.target_parts(doc, section, where, kind)
    for part in parts:
        hf.set_story_text(doc, part, where, text, alignment)
    shown = sorted({i for part in parts for i in hf.sections_showing(doc, part, where, kind)})
    ids = _story_ids(doc, parts)
    extra = "; ".join(created + notes)
    return (f"set the {kind} {where} text ({ids}), shown in {describe(shown, len(all_sections(doc)))}"
            + (f"; {extra}" if extra else ""))


@api(intent=INTENT,
     description="Header/footer options: a different first page (per section), different odd and even pages (a "
                 "whole-document setting), and link to previous (true: the section shows the previous section's "
                 "headers/footers and its own are dropped; false: it gets its own copies to edit separately).",
     params={"section": SECTION, "different_first_page": boolean("separate header/footer on the section's first page"),
             "different_odd_even": boolean("separate headers/footers on even pages (applies to the whole document)"),
             "link_to_previous": boolean("true: show the previous section's header/footer; false: own copies"),
             "where": enum("what link_to_previous applies to", ("header", "footer", "both"))},
     examples=[{"section": 1, "link_to_previous": False},
               {"section": 0, "different_first_page": True}])
def set_header_footer_options(doc: WordDocument, section: Any, different_first_page: bool | None = None,
                              different_odd_even: bool | None = None, link_to_previous: bool | None = None,
                              where: str = "both"):
    """Different first page, different odd/even pages, link to previous."""
    if different_first_page is None and different_odd_even is None and link_to_previous is None:
        raise ArgumentError("give at least one of different_first_page, different_odd_even or link_to_previous")
    indices = section_indices(doc, section)
    done: list[str] = []
    if different_first_page is not None:
        for i in indices:
            sect = section_at(doc, i)
            remove_children(sect, "w:titlePg")
            if different_first_page:
                insert_ordered(sect, make("w:titlePg"))
        done.append(f"different first page {'on' if different_first_page else 'off'} for {describe(indices, len(all_sections(doc)))}")
    if different_odd_even is not None:
        settings = settings_root(doc)
        remove_children(settings, "w:evenAndOddHeaders")
        if different_odd_even:
            insert_ordered(settings, make("w:evenAndOddHeaders"))
        done.append(f"different odd and even pages {'on' if different_odd_even else 'off'} (whole document)")
    if link_to_previous is not None:
        targets = [i for i in indices if i > 0]
        if not targets and section != "all":
            raise ArgumentError("section 0 has no previous section to link to; choose a section index of 1 or more")
        wheres = hf.WHERE if where == "both" else (where,)
        for i in targets:
            for w in wheres:
                for kind in hf.KINDS:
                    if link_to_previous:
                        note = hf.unlink(doc, i, w, kind)
                    elif hf.effective_part(doc, i, w, kind)[0] is not None:
                        note = hf.own_part(doc, i, w, kind)[1]
                    else:
                        note = ""
                    if note:
                        done.append(note)
        if not targets:  # as in Word, where the option is greyed out in the first section
            done.append("link to previous: the document has one section, which has no previous one (nothing to link)")
        elif not any("link" in d for d in done):
            done.append(f"sections {', '.join(map(str, targets))} were already {'linked' if link_to_previous else 'unlinked'}")
    return "; ".join(done)


@api(intent=INTENT,
     description="Add page numbers to a section's header or footer (or every section's): a paragraph built from a "
                 "template such as \"Page {PAGE} of {NUMPAGES}\" with live fields, aligned as asked. An existing "
                 "page-number paragraph or page-number content control there is replaced. Optionally restart numbering at `start` and choose the "
                 "number format (applied to the section's page numbering).",
     params={"section": SECTION, "where": WHERE, "alignment": ALIGNMENT,
             "template": text("text with {PAGE} (current page), {NUMPAGES} (page count) or {SECTIONPAGES}, "
                              "e.g. \"Page {PAGE} of {NUMPAGES}\", \"- {PAGE} -\"", 1),
             "start": integer("restart numbering at this number (with section \"all\": in the first section)", 0, 32767),
             "format": enum("number format", NUMBER_FORMATS), "kind": KIND},
     examples=[{"section": "all", "where": "footer", "alignment": "right", "template": "Page {PAGE} of {NUMPAGES}"},
               {"section": 1, "where": "header", "alignment": "center", "template": "{PAGE}", "start": 1, "format": "lowerRoman"}])
def insert_page_numbers(doc: WordDocument, section: Any, where: str = "footer", alignment: str = "center",
                        template: str = "{PAGE}", start: int | None = None, format: str | None = None,
                        kind: str = "default"):
    """A page-number paragraph in a header/footer, plus the section's numbering start and format."""
    if not any(f"{{{name}}}" in template for name in hf.PAGE_FIELDS):
        raise ArgumentError(f"template {template!r} has no page field; include {{PAGE}}, {{NUMPAGES}} or {{SECTIONPAGES}}")
    indices = section_indices(doc, section)
    for n, i in enumerate(indices):
        sect = section_at(doc, i)
        if start is not None or format is not None:
            num = get_or_add(sect, "w:pgNumType")
            if start is not None and n == 0:
                num.set(qn("w:start"), str(start))
            if format is not None:
                num.set(qn("w:fmt"), format)
    notes: list[str] = []
    hf.switch_on_kind(doc, section, kind, notes)
    parts, created = hf.target_parts(doc, section, where, kind)
    first_sect = section_at(doc, indices[0])
    num = first_sect.find(qn("w:pgNumType"))
    first_number = int(num.get(qn("w:start"))) if num is not None and (num.get(qn("w:start")) or "").isdigit() else 1
    placeholder = format_number(first_number, (num.get(qn("w:fmt")) if num is not None else None) or "decimal")
    replaced = 0
    for part in parts:
        root = part.element
        ppr = hf.style_ppr(doc, root, where, alignment)
        for block in list(root):
            if hf.is_page_number_control(block) or block.tag == qn("w:p") and hf.has_page_field(block):
                root.remove(block)
                replaced += 1
            elif block.tag == qn("w:p") and hf.is_blank(block):
                root.remove(block)  # a blank line (e.g. of a new part)
        p = make("w:p")
        p.append(ppr)
        for run in hf.template_runs(template, hf.first_text_rpr(doc, root), placeholder):
            p.append(run)
        root.append(p)
    ids = _story_ids(doc, parts)
    extra = "; ".join(created + notes + ([f"replaced {replaced} existing page-number paragraph(s)"] if replaced else []))
    numbering = f", numbering {format or ''}{' from ' + str(start) if start is not None else ''}".rstrip(", ") \
        if start is not None or format else ""
    return (f"added page numbers {template!r} ({ids}) to the {kind} {where} of "
            f"{describe(indices, len(all_sections(doc)))}{numbering}" + (f"; {extra}" if extra else ""))


# --- table of contents ---------------------------------------------------------------------


@api(intent=INTENT,
     description="Insert a table of contents (a Word TOC field) listing the current headings of the chosen levels, "
                 "with an optional title above it. The entries are filled in now, one paragraph per heading in the "
                 "TOC 1-9 styles, each a hyperlink to its heading, but without page numbers; Word is asked to update "
                 "the field (adding page numbers) when it opens the file.",
     params={"position": POSITION,
             "levels": {"type": "string", "pattern": "^[1-9]-[1-9]$",
                        "description": 'heading levels to list, "first-last", e.g. "1-3" (default) or "1-2"'},
             "title": text("title paragraph above the table, e.g. \"Contents\" (omit for none)")},
     examples=[{"position": {"after": "p1"}, "levels": "1-3", "title": "Contents"},
               Example({"position": {"after": "p1"}, "title": "目录"}, document="examples/contract_zh.docx")])
def insert_toc(doc: WordDocument, position: Any, levels: str = "1-3", title: str | None = None):
    """A TOC field filled with the current headings."""
    first, last = (int(x) for x in levels.split("-"))
    if first > last:
        raise ArgumentError(f'levels {levels!r} must be "first-last" with first <= last, e.g. "1-3"')
    existing = [f for f in toc_lib.find_tocs(doc) if f.figures is None]
    if existing:
        raise ArgumentError(f"the document already has a table of contents (starting in {element_id(existing[0].first)}); "
                            "use update_toc to refresh it")
    paragraphs = toc_lib.toc_paragraphs(doc, f'TOC \\o "{levels}" \\h \\z \\u')
    if title:
        heading = make("w:p")
        insert_ordered(get_or_add_ppr(heading), make("w:pStyle", w_val=ensure_style(doc, "TOC Heading", "paragraph")))
        heading.append(new_run(title))
        paragraphs.insert(0, heading)
    locate.insert_block(doc, position, *paragraphs)
    request_field_update(settings_root(doc))
    entries = len(toc_lib.headings(doc, first, last))
    doc.refresh_ids()
    return (f"inserted a table of contents ({', '.join(element_id(p) for p in paragraphs)}) with {entries} entries "
            f"(heading levels {levels}); Word will add page numbers when it updates fields on opening")


@api(intent=INTENT,
     description="Regenerate the table(s) of contents from the current headings (after headings were added, removed "
                 "or renamed). Each TOC lists what its field's switches select (\\o heading levels, \\t named styles, "
                 "\\u paragraph outline levels, \\f with \\l TC fields of an identifier and levels, \\b only "
                 "inside a bookmark); an entry shows the heading's list number and text, in the TOC N style of its "
                 "level, as a hyperlink for \\h or where the old entries had links. A table of figures (\\c \"Figure\" "
                 "or \\a \"Figure\") lists instead the captions numbered by that SEQ label in document order, in the "
                 "\"Table of Figures\" style: with \\c the whole caption (\"Figure 1: Sales by region\"), with \\a "
                 "the text after the number. Page numbers cannot be computed "
                 "here: where the old entries had page numbers, each entry gets the \\p separator (a tab by default) "
                 "and a page-number field showing the old entry's number for the same heading (found by its bookmark, else "
                 "by the entry's text; none for a new heading, whose field Word fills on update); page numbers the "
                 "old entries showed as plain text become such fields too. With nothing to list it writes Word's message (\"No table of contents entries found.\"); "
                 "the paragraph holding the field's end, after the last entry, is kept. Word is asked to update "
                 "fields (page numbers) on opening.",
     params={},
     examples=[Example({}, document="examples/review.docx")])
def update_toc(doc: WordDocument):
    """Rebuild every TOC's entries from the current headings (a table of figures' from the captions)."""
    fields = toc_lib.find_tocs(doc)
    if not fields:
        raise ArgumentError("the document has no table of contents; insert one with insert_toc")
    contents, figures = [], []
    for k, field in enumerate(fields):
        label = field.figures
        new = toc_lib.regenerate(doc, toc_lib.find_tocs(doc)[k])  # look up again: earlier ones were rebuilt
        count = toc_lib.entry_count(new)
        (contents if label is None else figures).append(str(count) if label is None else f"{label or 'styles'}: {count}")
    request_field_update(settings_root(doc))
    done = [f"{len(contents)} table(s) of contents with {', '.join(contents)} entries"] if contents else []
    done += [f"{len(figures)} table(s) of figures ({', '.join(figures)} entries)"] if figures else []
    return "regenerated " + " and ".join(done)


# --- watermark -----------------------------------------------------------------------------


@api(intent=INTENT,
     description="Add a text watermark (e.g. DRAFT, CONFIDENTIAL) behind the text of every page of a section or of "
                 "all sections: a semi-transparent shape in the header, diagonal or horizontal. Replaces an existing "
                 "watermark. A header is created if the section has none; for one section whose header is linked to "
                 "the previous section, the header is unlinked first.",
     params={"text": text("watermark text", 1), "section": SECTION, "color": color("watermark colour (default silver)"),
             "font": text("font name (default Calibri)"), "layout": enum("text direction", ("diagonal", "horizontal"))},
     examples=[{"text": "DRAFT"}, {"text": "CONFIDENTIAL", "section": 1, "color": "red", "layout": "horizontal"},
               Example({"text": "机密"}, document="examples/contract_zh.docx")])
def add_watermark(doc: WordDocument, text: str, section: Any = "all", color: str = "silver", font: str = "Calibri",
                  layout: str = "diagonal"):
    """A VML text watermark in the headers of a section or all sections."""
    fill = hex_color(color, "color")
    if not font.strip():
        raise ArgumentError("font must be a font name, e.g. \"Calibri\"")
    notes: list[str] = []
    parts: list = []
    for i in section_indices(doc, section):
        sect = section_at(doc, i)
        for kind in hf.active_kinds(doc, sect):
            if section == "all" and i > 0 and hf.reference(sect, "header", kind) is None:
                continue
            part, note = hf.own_part(doc, i, "header", kind)
            if note:
                notes.append(note)
            if all(part is not q for q, _ in parts):
                parts.append((part, sect))
    roots = [p.element for p in doc.header_footer_parts()]
    number, spid = wm.next_shape_numbers(roots)
    for part, sect in parts:
        root = part.element
        wm.remove_watermarks(root)
        w_twips, h_twips = text_area(sect)
        size = wm.shape_size(text, layout, w_twips / 20, h_twips / 20)
        run = wm.watermark_run(text, color=fill, font=font.strip(), layout=layout, size=size, shape_number=number,
                               spid=spid, with_shapetype=not wm.has_shapetype(root))
        number, spid = number + 1, spid + 1
        p = hf.ensure_paragraph(root)
        p.insert(1 if p.find(qn("w:pPr")) is not None else 0, run)
    return (f"added the {layout} watermark {text!r} to {len(parts)} header(s)"
            + (f"; {'; '.join(notes)}" if notes else ""))


@api(intent=INTENT,
     description="Remove the watermark from the headers of a section or of all sections. For one section whose "
                 "header is shared with (linked to) the previous section, the header is unlinked first so the "
                 "other sections keep their watermark.",
     params={"section": SECTION},
     examples=[Example({"section": "all"}, document="examples/review.docx")])
def remove_watermark(doc: WordDocument, section: Any = "all"):
    """Remove watermark shapes from the headers of a section or all sections."""
    removed, notes = 0, []
    seen: set[str] = set()
    for i in section_indices(doc, section):
        sect = section_at(doc, i)
        for kind in hf.KINDS:
            part, _ = hf.effective_part(doc, i, "header", kind)
            if part is None or not any(wm.is_watermark_run(r) for r in part.element.iter(qn("w:r"))):
                continue
            if section != "all" and hf.reference(sect, "header", kind) is None:
                part, note = hf.own_part(doc, i, "header", kind)
                notes.append(note)
            if str(part.partname) in seen:
                continue
            seen.add(str(part.partname))
            removed += wm.remove_watermarks(part.element)
    if not removed:
        raise ArgumentError(f"there is no watermark in the headers of {'any section' if section == 'all' else f'section {section}'}")
    return f"removed {removed} watermark shape(s)" + (f"; {'; '.join(notes)}" if notes else "")


# --- bookmarks and hyperlinks --------------------------------------------------------------

_BOOKMARK_NAME = re.compile(r"^[^\W\d_][\w]{0,39}$")


@api(intent=INTENT,
     description="Add a named bookmark around a paragraph or part of its text, so hyperlinks and cross-references "
                 "can point to it. Names start with a letter and contain letters, digits and underscores (max 40).",
     params={"name": text("bookmark name, e.g. \"results_table\"", 1), "paragraph": PARAGRAPH_ID, "span": SPAN},
     examples=[{"name": "highlights", "paragraph": "p3"},
               {"name": "growth", "paragraph": "p2", "span": {"match": "Revenue grew"}}])
def add_bookmark(doc: WordDocument, name: str, paragraph: str, span: dict | None = None):
    """A named bookmark around a paragraph or a span of it."""
    if not _BOOKMARK_NAME.match(name):
        raise ArgumentError(f"bookmark name {name!r} is invalid: start with a letter, then letters, digits or "
                            "underscores, at most 40 characters (e.g. \"section_2\")")
    existing = list(bookmark_starts(doc))
    if any((b.get(qn("w:name")) or "").lower() == name.lower() for b in existing):
        raise ArgumentError(f"a bookmark named {name!r} already exists; choose another name or delete it first")
    p = doc.find(paragraph, "p")
    start, end = resolve_span(p, span, paragraph)
    bid = new_bookmark_id(doc)
    b_start, b_end = make("w:bookmarkStart", w_id=bid, w_name=name), make("w:bookmarkEnd", w_id=bid)
    runs = isolate(p, start, end) if end > start else []
    if runs:
        runs[0].addprevious(b_start)
        runs[-1].addnext(b_end)
    else:
        following = [a for a in atoms(p) if a.start >= start]
        if following:
            following[0].run.addprevious(b_start)
            following[0].run.addprevious(b_end)
        else:
            p.append(b_start)
            p.append(b_end)
    return f"added bookmark {name!r} on {paragraph} characters {start}-{end}"


@api(intent=INTENT,
     description="Delete a bookmark by name (the text stays). Links or cross-references to it stop working; the "
                 "message says how many there are.",
     params={"bookmark": text("bookmark name as listed in the state's interactive.bookmarks", 1)},
     examples=[{"bookmark": "methodology"}])
def delete_bookmark(doc: WordDocument, bookmark: str):
    """Remove a bookmark's start and end marks."""
    name = bookmark
    starts = [b for b in bookmark_starts(doc) if b.get(qn("w:name")) == name]
    if not starts:
        names = sorted({b.get(qn("w:name")) for b in bookmark_starts(doc) if b.get(qn("w:name")) and b.get(qn("w:name")) != "_GoBack"})
        raise ArgumentError(f"there is no bookmark {clipped(name, 80)!r}; bookmarks: {', '.join(names) or 'none'}")
    for b in starts:
        bid = b.get(qn("w:id"))
        root = b.getroottree().getroot()
        for end in list(root.iter(qn("w:bookmarkEnd"))):
            if end.get(qn("w:id")) == bid:
                end.getparent().remove(end)
        b.getparent().remove(b)
    uses = sum(1 for root in doc.id_roots() for h in root.iter(qn("w:hyperlink")) if h.get(qn("w:anchor")) == name)
    uses += sum(1 for root in doc.id_roots() for t in root.iter(qn("w:instrText"))
                if re.search(rf"\b(REF|PAGEREF)\s+{re.escape(name)}\b", t.text or ""))
    return f"deleted bookmark {name!r}" + (f"; {uses} link(s)/reference(s) still point to it" if uses else "")


@api(intent=INTENT,
     description="Change or remove a hyperlink in a paragraph, chosen by its 0-based index among the paragraph's "
                 "links or by its display text: give a new url (web address) or bookmark target, new display text, "
                 "or remove=true to turn it back into plain text.",
     params={"paragraph": PARAGRAPH_ID, "index": integer("0-based index of the link in the paragraph (default 0)", 0),
             "text": text("the link's current display text (instead of index)"),
             "url": text("new web address"), "bookmark": text("new target: a bookmark name in this document"),
             "new_text": text("new display text", 1), "remove": boolean("remove the link, keeping its text")},
     examples=[Example({"paragraph": "p10", "url": "https://portal.example.com"}, document="examples/review.docx")])
def edit_hyperlink(doc: WordDocument, paragraph: str, index: int | None = None, text: str | None = None,
                   url: str | None = None, bookmark: str | None = None, new_text: str | None = None,
                   remove: bool = False):
    """Retarget, relabel or unlink one hyperlink of a paragraph."""
    p = doc.find(paragraph, "p")
    links = paragraph_links(p)
    if not links:
        raise ArgumentError(f"{paragraph} has no hyperlinks; paragraphs with links are listed in the state's "
                            "interactive.hyperlinks")
    listing = "; ".join(f"{i}: {link_text(h)!r}" for i, h in enumerate(links))
    if text is not None:
        matches = [h for h in links if link_text(h) == text] or [h for h in links if text.lower() in link_text(h).lower()]
        if not matches:
            raise ArgumentError(f"{paragraph} has no link with text {text!r}; its links are {listing}")
        link = matches[0]
    else:
        index = index or 0
        if index >= len(links):
            raise ArgumentError(f"{paragraph} has {len(links)} link(s) (indices 0-{len(links) - 1}): {listing}")
        link = links[index]
    if not remove and url is None and bookmark is None and new_text is None:
        raise ArgumentError("give url, bookmark, new_text or remove=true")
    if url is not None and bookmark is not None:
        raise ArgumentError("give either url or bookmark, not both")
    part = locate.part_of(doc, p)
    old_rid = link.get(qn("r:id"))
    label = link_text(link)
    if remove:
        # the link styles by id or by name: a localised Word document calls its Hyperlink style "a7"
        link_styles = {"hyperlink", "internetlink", "followedhyperlink"} | {
            sid.lower() for name in ("Hyperlink", "Internet Link", "FollowedHyperlink")
            if (sid := find_style_id(doc, name, "character"))}
        for r in link.iter(qn("w:r")):
            rpr = r.find(qn("w:rPr"))
            style = rpr.find(qn("w:rStyle")) if rpr is not None else None
            if style is not None and (style.get(qn("w:val")) or "").lower() in link_styles:
                rpr.remove(style)
                if len(rpr) == 0:
                    r.remove(rpr)
        for child in list(link):
            link.addprevious(child)
        link.getparent().remove(link)
        drop_rel(part, old_rid)
        return f"removed the link {label!r} from {paragraph} (its text stays)"
    done = []
    if url is not None:
        if not url.strip() or any(c.isspace() for c in url.strip()):
            raise ArgumentError(f"url {url!r} is not a web address")
        link.attrib.pop(qn("w:anchor"), None)
        link.set(qn("r:id"), part.relate_to(url.strip(), "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink",
                                            is_external=True))
        drop_rel(part, old_rid)
        done.append(f"url -> {url.strip()}")
    if bookmark is not None:
        names = {b.get(qn("w:name")) for b in bookmark_starts(doc)}
        if bookmark not in names:
            raise ArgumentError(f"there is no bookmark {clipped(bookmark, 80)!r}; bookmarks: {', '.join(sorted(n for n in names if n)) or 'none'}")
        link.attrib.pop(qn("r:id"), None)
        link.set(qn("w:anchor"), bookmark)
        drop_rel(part, old_rid)
        done.append(f"target -> bookmark {bookmark}")
    if new_text is not None:
        set_link_text(doc, p, link, new_text)
        done.append(f"text -> {new_text!r}")
    return f"edited the link {label!r} in {paragraph}: {', '.join(done)}"


# --- comments, notes, headings -------------------------------------------------------------


@api(intent=INTENT,
     description="Delete a comment by its id as the state shows it (\"#0\"), with its range marks and reference; "
                 "replies to it are deleted too. The commented text stays.",
     params={"comment": COMMENT_ID},
     examples=[{"comment": "#0"}])
def delete_comment(doc: WordDocument, comment: str | int):
    """Remove a comment, its replies, range marks and reference runs."""
    target = find_comment(doc, comment)
    said = _said(target)
    doomed = remove_comment(doc, target)
    extra = f" and {len(doomed) - 1} repl{'y' if len(doomed) == 2 else 'ies'}" if len(doomed) > 1 else ""
    return f"deleted comment {comment_label(target.get(qn('w:id')))}{extra} ({said})"


@api(intent=INTENT,
     description="Delete a footnote or endnote (its text and its reference mark in the body) by its id from the "
                 "state's interactive.footnotes / endnotes.",
     params={"note": shown_id("the footnote's or endnote's id", "#1"), "kind": enum("note kind", ("footnote", "endnote"))},
     examples=[{"note": "#1"}])
def delete_footnote(doc: WordDocument, note: str | int, kind: str = "footnote"):
    """Remove a footnote or endnote and its reference."""
    number = shown_number(note)
    root = notes_root(doc, kind, create=False)
    found = next((n for n in root.iterchildren(qn(f"w:{kind}")) if n.get(qn("w:id")) == number), None) \
        if root is not None and number is not None else None
    if found is not None and found.get(qn("w:type")) not in (None, "normal"):
        raise ArgumentError(f"{kind} #{number} is the {found.get(qn('w:type'))} note Word needs, not a {kind} to delete")
    said = _said(found) if found is not None else ""
    if found is None or not remove_note(doc, kind, int(number)):
        ids = [n.get(qn("w:id")) for n in root.iterchildren(qn(f"w:{kind}"))
               if n.get(qn("w:type")) in (None, "normal")] if root is not None else []
        raise ArgumentError(f"there is no {kind} {note!r}; the {kind}s are "
                            f"{', '.join('#' + i for i in ids if i) or 'none'} (give one as the state shows it)")
    note = f"#{number}"
    return f"deleted {kind} {note} ({said})"


SAID_CHARS = 200  # characters of a deleted comment or note that its call's message repeats


def _said(element: Any) -> str:
    """What a comment or note said, quoted and cut, for the message of the call deleting it: once it is gone the
    document shows it nowhere, and a step that moves it (deletes it, then adds it elsewhere) needs its text."""
    text = " ".join("".join(t.text or "" for t in p.iter(qn("w:t"))) for p in element.iter(qn("w:p"))).strip()
    return repr(text if len(text) <= SAID_CHARS else text[:SAID_CHARS - 1] + "…") if text else "it was empty"


@api(intent=INTENT,
     description="Change the level of headings: set an absolute level (1-9; body text paragraphs become headings) "
                 "or promote/demote by a delta (-1 = one level up, e.g. Heading 2 -> Heading 1). Uses the built-in "
                 "Heading N styles.",
     params={"paragraphs": PARAGRAPH_IDS, "level": integer("new heading level", 1, 9),
             "delta": integer("levels to move: negative promotes, positive demotes", -8, 8)},
     examples=[{"paragraphs": ["p32"], "level": 2}, {"paragraphs": ["p3", "p7"], "delta": 1},
               Example({"paragraphs": ["p4"], "delta": 1}, document="examples/contract_zh.docx")])
def change_heading_level(doc: WordDocument, paragraphs: list[str], level: int | None = None, delta: int | None = None):
    """Set or shift the heading level of paragraphs."""
    if (level is None) == (delta is None):
        raise ArgumentError("give exactly one of level (1-9) or delta (e.g. -1 to promote, 1 to demote)")
    levels = toc_lib.StyleLevels(doc)
    plan = []
    for pid in paragraphs:
        p = doc.find(pid, "p")
        current = toc_lib.paragraph_level(p, levels)
        if delta is not None and current is None:
            raise ArgumentError(f"{pid} is not a heading (style {_style_name(doc, p)!r}); give level to make it one")
        new = level if level is not None else current + delta
        if not 1 <= new <= 9:
            raise ArgumentError(f"{pid} is a level-{current} heading; moving it by {delta} gives level {new}, outside 1-9")
        plan.append((pid, p, current, new))
    changes = []
    for pid, p, current, new in plan:
        ppr = get_or_add_ppr(p)
        replace_child(ppr, "w:pStyle", w_val=ensure_style(doc, f"Heading {new}", "paragraph"))
        if ppr.find(qn("w:outlineLvl")) is not None:
            replace_child(ppr, "w:outlineLvl", w_val=str(new - 1))
        changes.append(f"{pid} {current or 'body'} -> {new}")
    return "heading levels: " + ", ".join(changes)


def _style_name(doc: WordDocument, p) -> str:
    ppr = p.find(qn("w:pPr"))
    style = ppr.find(qn("w:pStyle")) if ppr is not None else None
    return style.get(qn("w:val")) if style is not None else "Normal"
