"""``extract_state``: the seven-part document state of the AutoDW paper (Table 1), as plain JSON data."""

from __future__ import annotations

from typing import Any

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from lxml import etree

from autodw.core.document import WordDocument
from autodw.core.errors import StateExtractionError
from autodw.analysis.state.blocks import Sink, StoryWalker, paragraph_format, run_format, table_properties
from autodw.analysis.state.context import StateContext
from autodw.analysis.state.effective import STYLE_PARAGRAPH_KEYS, STYLE_RUN_KEYS
from autodw.analysis.state.layout import LayoutReader, table_of_contents, tables_of_figures
from autodw.analysis.state.types import Comment, DocumentInfo, Note, PageLayout, Section, State, Styles
from autodw.core.xml import NS, on_off, qn, wval

STATE_KEYS = ("document_info", "paragraphs", "tables", "images", "page_layout", "interactive", "styles")
_NOTE_SEPARATORS = {"separator", "continuationSeparator", "continuationNotice"}


def extract_state(doc: WordDocument) -> State:
    """Return the document state with exactly the keys of :data:`STATE_KEYS`.

    Raises StateExtractionError when the document holds XML or a value that cannot be read (the agent treats this
    as a failed step). Any other exception is a bug of the readers and propagates as it is.
    """
    try:
        return _extract(doc)
    except (ValueError, etree.LxmlError) as exc:
        raise StateExtractionError(f"could not read the document state: {type(exc).__name__}: {exc}") from exc


def _extract(doc: WordDocument) -> State:
    ctx = StateContext(doc)
    sink = Sink()
    walker = StoryWalker(ctx, doc.part, sink, count_sections=True)
    walker.walk_blocks(doc.body)
    layout = LayoutReader(ctx)
    sections = layout.sections()
    comments = _comments(doc, sink)
    footnotes = _notes(doc, sink, RT.FOOTNOTES, "footnote")
    endnotes = _notes(doc, sink, RT.ENDNOTES, "endnote")
    page_layout: PageLayout = {"sections": sections, "table_of_contents": table_of_contents(sink, walker.paragraphs)}
    figures = tables_of_figures(sink, walker.paragraphs)
    if figures:
        page_layout["tables_of_figures"] = figures
    interactive = {
        "hyperlinks": sink.hyperlinks,
        "bookmarks": sink.bookmarks,
        "line_breaks": sink.line_breaks,
        "page_breaks": sink.page_breaks,
        "column_breaks": sink.column_breaks,
        "comments": comments,
        "footnotes": footnotes,
        "endnotes": endnotes,
        "tracked_changes": sink.tracked_changes,
        "fields": [f for f in sink.fields if f["type"] not in ("TOC",)],
    }
    return {
        "document_info": _document_info(doc, ctx, walker, sink, sections, comments),
        "paragraphs": walker.paragraphs,
        "tables": walker.tables,
        "images": sink.images,
        "page_layout": page_layout,
        "interactive": interactive,
        "styles": _styles(ctx),
    }


def _document_info(doc: WordDocument, ctx: StateContext, walker: StoryWalker, sink: Sink,
                   sections: list[Section], comments: list[Comment]) -> DocumentInfo:
    settings = ctx.settings_root
    protection = settings.find(qn("w:documentProtection")) if settings is not None else None
    words = sum(len(p["text"].split()) for p in walker.paragraphs)
    words += sum(len(c.split()) for t in walker.tables for row in t["cells"] for c in row)
    return {
        "file_type": doc.main_content_type.split(".")[-1].split("+")[0].replace("main", "document"),
        "paragraph_count": len(walker.paragraphs),
        "table_count": len(walker.tables),
        "section_count": len(sections),
        "image_count": sum(1 for i in sink.images if i.get("type") == "picture"),
        "chart_count": sum(1 for i in sink.images if i.get("type") == "chart"),
        "comment_count": len(comments),
        "word_count": words,
        "has_header": any(s["headers"] for s in sections),
        "has_footer": any(s["footers"] for s in sections),
        "track_changes": settings is not None and on_off(settings.find(qn("w:trackRevisions"))) is True,
        "protection": (protection.get(qn("w:edit")) or "on") if protection is not None and
                      on_off(protection.find(qn("w:enforcement"))) is not False and
                      protection.get(qn("w:enforcement")) in ("1", "true", "on") else None,
        "core_properties": _core_properties(doc),
        "custom_properties": _custom_properties(doc),
    }


def _core_properties(doc: WordDocument) -> dict[str, Any]:
    """Core properties read from the XML (python-docx raises on several real files)."""
    rel = next((r for r in doc.package.rels.values() if r.reltype == RT.CORE_PROPERTIES and not r.is_external), None)
    if rel is None:
        return {}
    part = rel.target_part
    root = getattr(part, "element", None)
    if root is None:
        try:
            root = etree.fromstring(part.blob, etree.XMLParser(resolve_entities=False))
        except etree.XMLSyntaxError:
            return {}
    names = {
        "title": f"{{{NS['dc']}}}title", "author": f"{{{NS['dc']}}}creator", "subject": f"{{{NS['dc']}}}subject",
        "keywords": f"{{{NS['cp']}}}keywords", "category": f"{{{NS['cp']}}}category",
        "comments": f"{{{NS['dc']}}}description", "last_modified_by": f"{{{NS['cp']}}}lastModifiedBy",
        "revision": f"{{{NS['cp']}}}revision",
    }
    out = {}
    for key, tag in names.items():
        el = root.find(tag)
        if el is not None and (el.text or "").strip():
            out[key] = el.text.strip()
    return out


def _custom_properties(doc: WordDocument) -> dict[str, Any]:
    """Name -> value of the custom document properties (docProps/custom.xml)."""
    rel = next((r for r in doc.package.rels.values() if r.reltype == RT.CUSTOM_PROPERTIES and not r.is_external), None)
    root = part_root(rel.target_part) if rel is not None else None
    if root is None:
        return {}
    out: dict[str, Any] = {}
    for prop in root:
        name = prop.get("name")
        value = next(iter(prop), None)
        if not name or value is None:
            continue
        kind, text = etree.QName(value).localname, value.text or ""
        if kind == "bool":
            out[name] = text.strip().lower() in ("true", "1")
        elif kind in ("i1", "i2", "i4", "i8", "int", "ui1", "ui2", "ui4", "ui8", "uint"):
            out[name] = int(text) if text.strip().lstrip("-").isdigit() else text
        elif kind in ("r4", "r8", "decimal"):
            try:
                out[name] = float(text)
            except ValueError:
                out[name] = text
        else:
            out[name] = text
    return out


def part_root(part) -> etree._Element | None:
    """The root element of an XML part, parsing the blob if python-docx loaded it as binary."""
    root = getattr(part, "element", None) if hasattr(part, "_element") else None
    if root is not None:
        return root
    try:
        return etree.fromstring(part.blob, etree.XMLParser(resolve_entities=False, huge_tree=True))
    except etree.XMLSyntaxError:
        return None


def related_part(doc: WordDocument, reltype: str):
    """The main part's related part of `reltype`, or None (never creates one)."""
    for rel in doc.part.rels.values():
        if rel.reltype == reltype and not rel.is_external:
            return rel.target_part
    return None


def _comments(doc: WordDocument, sink: Sink) -> list[Comment]:
    part = related_part(doc, RT.COMMENTS)
    root = part_root(part) if part is not None else None
    if root is None:
        return []
    out = []
    for c in root.iterchildren(qn("w:comment")):
        cid = c.get(qn("w:id"))
        text = "\n".join("".join(t.text or "" for t in p.iter(qn("w:t"))) for p in c.iter(qn("w:p")))
        entry = {"id": int(cid) if cid and cid.lstrip("-").isdigit() else cid, "author": c.get(qn("w:author")),
                 "initials": c.get(qn("w:initials")), "text": text, "paragraphs": sink.comment_anchors.get(cid, [])}
        if cid in sink.commented:  # the text the comment is on (none for a comment on a point)
            entry["commented_text"] = "".join(sink.commented[cid]).strip("\n")
        out.append(entry)
    return out


def _notes(doc: WordDocument, sink: Sink, reltype: str, kind: str) -> list[Note]:
    part = related_part(doc, reltype)
    root = part_root(part) if part is not None else None
    if root is None:
        return []
    out = []
    for note in root.iterchildren(qn(f"w:{kind}")):
        if note.get(qn("w:type")) in _NOTE_SEPARATORS:
            continue
        nid = note.get(qn("w:id"))
        text = "\n".join("".join(t.text or "" for t in p.iter(qn("w:t"))) for p in note.iter(qn("w:p"))).strip()
        entry = {"id": int(nid) if nid and nid.lstrip("-").isdigit() else nid, "text": text,
                 "paragraph": sink.note_refs.get((kind, nid))}
        if (kind, nid) in sink.note_offsets:  # characters of the paragraph before the reference mark
            entry["offset"] = sink.note_offsets[(kind, nid)]
        out.append(entry)
    return out


def all_styles(ctx: StateContext) -> Styles:
    """The state's "styles" part with every style of `ctx`'s document, used or not (all are marked used)."""
    ctx.used_styles.update(ctx.style_elements)
    return _styles(ctx)


def _styles(ctx: StateContext) -> Styles:
    """Styles in use, custom styles and the defaults: name, category, font, size, bold, italic, colour, underline,
    strike, caps, highlight, base style, paragraph alignment/spacing/indentation/borders/keep flags/shading/direction/tab
    stops."""
    root = ctx.styles_root
    defaults: dict[str, Any] = {}
    if root is not None:
        rpr = root.find(f"{qn('w:docDefaults')}/{qn('w:rPrDefault')}/{qn('w:rPr')}")
        fmt = run_format(rpr, ctx)
        defaults = {k: fmt[k] for k in STYLE_RUN_KEYS if k in fmt}
        theme = theme_fonts(ctx.doc)
        if theme:
            defaults["theme_fonts"] = theme
    custom = {sid for sid, el in ctx.style_elements.items() if el.get(qn("w:customStyle")) in ("1", "true", "on")
              and not (el.get(qn("w:type")) == "character" and el.find(qn("w:link")) is not None)}
    wanted = set(ctx.used_styles) | set(ctx.default_style_ids.values()) | custom
    out = []
    for sid in sorted(wanted, key=lambda s: (ctx.style_elements.get(s) is None, s)):
        el = ctx.style_elements.get(sid)
        if el is None:
            continue
        fmt = run_format(el.find(qn("w:rPr")), ctx)
        entry: dict[str, Any] = {
            "name": ctx.style_names.get(sid, sid),
            "id": sid,
            "category": el.get(qn("w:type")) or "paragraph",
            "based_on": ctx.style_names.get(wval(el.find(qn("w:basedOn"))) or "", None),
            **{k: fmt[k] for k in STYLE_RUN_KEYS if k in fmt},
        }
        entry = {k: v for k, v in entry.items() if v is not None}
        # paragraph formatting as written: a shading of None (no fill) takes away the base style's
        entry.update({k: v for k, v in paragraph_format(el.find(qn("w:pPr"))).items() if k in STYLE_PARAGRAPH_KEYS})
        tblpr = el.find(qn("w:tblPr")) if entry["category"] == "table" else None
        table = table_properties(tblpr) if tblpr is not None else None
        if table:  # what a table of this style looks like without direct table properties
            entry["table"] = table
        if el.get(qn("w:default")) in ("1", "true", "on"):
            entry["default"] = True
        if sid in custom:
            entry["custom"] = True
        out.append(entry)
    out.sort(key=lambda s: (s["category"], s["name"]))
    return {"defaults": defaults, "styles": out}


def theme_fonts(doc: WordDocument) -> dict[str, str]:
    """The theme's fonts by the slot names of ``w:asciiTheme`` and its kin: "major" and "minor" its Latin heading and
    body fonts (majorHAnsi, minorAscii...), "majorEastAsia", "minorBidi"... its East Asian and complex-script ones (left
    out when the theme gives none: an empty typeface)."""
    part = related_part(doc, RT.THEME)
    root = part_root(part) if part is not None else None
    out: dict[str, str] = {}
    if root is None:
        return out
    for kind in ("major", "minor"):
        for script, slot in (("latin", kind), ("ea", kind + "EastAsia"), ("cs", kind + "Bidi")):
            font = root.find(f".//{{{NS['a']}}}{kind}Font/{{{NS['a']}}}{script}")
            if font is not None and font.get("typeface"):
                out[slot] = font.get("typeface")
    return out
