"""Look up styles by the name users write, resolve the default styles, and add Word's built-in styles a
document lacks (the one place styles are added with their proper definition when content references them).

Style ids are the document's own: a German or Chinese Word document calls its default paragraph style
``Standard`` or ``a`` rather than ``Normal``. Built-in definitions therefore name their bases by role
(``Normal``, ``DefaultParagraphFont``, ``TableNormal``: the default style of that type, found by
``w:default="1"``) or by built-in id (``Heading1``: resolved by its name, "heading 1"), never by the id the
document must happen to use.
"""

from __future__ import annotations

import copy
import re

from docx.enum.style import WD_STYLE_TYPE
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.styles import BabelFish
from lxml import etree

from autodw.apis.ooxml.parts import part_xml
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError
from autodw.core.xml import W, parse, qn

_TYPES = {"paragraph": WD_STYLE_TYPE.PARAGRAPH, "character": WD_STYLE_TYPE.CHARACTER, "table": WD_STYLE_TYPE.TABLE}

# style id -> (ui name, type, body XML) for built-ins the APIs rely on
_HEADING = '<w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="9"/><w:qFormat/>' \
           '<w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="{before}" w:after="60"/><w:outlineLvl w:val="{lvl}"/></w:pPr>' \
           '<w:rPr><w:b/><w:color w:val="2F5496"/><w:sz w:val="{sz}"/></w:rPr>'
BUILTINS: dict[str, tuple[str, str, str]] = {
    **{f"Heading{n}": (f"heading {n}", "paragraph",
                       _HEADING.format(before=480 if n == 1 else 200, lvl=n - 1, sz=max(22, 34 - 3 * n)))
       for n in range(1, 10)},
    "Title": ("Title", "paragraph", '<w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/>'
              '<w:rPr><w:sz w:val="56"/></w:rPr>'),
    "Hyperlink": ("Hyperlink", "character", '<w:basedOn w:val="DefaultParagraphFont"/><w:uiPriority w:val="99"/><w:unhideWhenUsed/>'
                  '<w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/></w:rPr>'),
    "FootnoteText": ("footnote text", "paragraph", '<w:basedOn w:val="Normal"/><w:uiPriority w:val="99"/>'
                     '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:sz w:val="20"/></w:rPr>'),
    "FootnoteReference": ("footnote reference", "character", '<w:basedOn w:val="DefaultParagraphFont"/><w:uiPriority w:val="99"/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'),
    "EndnoteText": ("endnote text", "paragraph", '<w:basedOn w:val="Normal"/><w:uiPriority w:val="99"/>'
                    '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:sz w:val="20"/></w:rPr>'),
    "EndnoteReference": ("endnote reference", "character", '<w:basedOn w:val="DefaultParagraphFont"/><w:uiPriority w:val="99"/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'),
    "CommentReference": ("annotation reference", "character", '<w:basedOn w:val="DefaultParagraphFont"/>'
                         '<w:uiPriority w:val="99"/><w:semiHidden/><w:unhideWhenUsed/>'
                         '<w:rPr><w:sz w:val="16"/><w:szCs w:val="16"/></w:rPr>'),
    "CommentText": ("annotation text", "paragraph", '<w:basedOn w:val="Normal"/><w:uiPriority w:val="99"/><w:unhideWhenUsed/>'
                    '<w:pPr><w:spacing w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:sz w:val="20"/><w:szCs w:val="20"/></w:rPr>'),
    "Caption": ("caption", "paragraph", '<w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="35"/><w:qFormat/>'
                '<w:pPr><w:spacing w:after="200" w:line="240" w:lineRule="auto"/></w:pPr>'
                '<w:rPr><w:i/><w:color w:val="44546A"/><w:sz w:val="18"/></w:rPr>'),
    "ListParagraph": ("List Paragraph", "paragraph", '<w:basedOn w:val="Normal"/><w:uiPriority w:val="34"/><w:qFormat/>'
                      '<w:pPr><w:ind w:left="720"/><w:contextualSpacing/></w:pPr>'),
    "TOCHeading": ("TOC Heading", "paragraph", '<w:basedOn w:val="Heading1"/><w:next w:val="Normal"/><w:uiPriority w:val="39"/>'
                   '<w:unhideWhenUsed/><w:qFormat/><w:pPr><w:outlineLvl w:val="9"/></w:pPr>'),
    **{f"TOC{n}": (f"toc {n}", "paragraph", f'<w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="39"/>'
                   f'<w:unhideWhenUsed/><w:pPr><w:spacing w:after="100"/><w:ind w:left="{220 * (n - 1)}"/></w:pPr>')
       for n in range(1, 10)},
    "TableofFigures": ("table of figures", "paragraph", '<w:basedOn w:val="Normal"/><w:next w:val="Normal"/>'
                       '<w:uiPriority w:val="99"/><w:unhideWhenUsed/><w:pPr><w:spacing w:after="0"/></w:pPr>'),
    # as python-docx's default template defines them (its Header/Footer Char links left out: no run uses them)
    **{sid: (sid.lower(), "paragraph", '<w:basedOn w:val="Normal"/><w:uiPriority w:val="99"/><w:unhideWhenUsed/>'
             '<w:pPr><w:tabs><w:tab w:val="center" w:pos="4680"/><w:tab w:val="right" w:pos="9360"/></w:tabs>'
             '<w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr>')
       for sid in ("Header", "Footer")},
    "TableGrid": ("Table Grid", "table", '<w:basedOn w:val="TableNormal"/><w:uiPriority w:val="39"/>'
                  '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:tblPr><w:tblBorders>'
                  + "".join(f'<w:{s} w:val="single" w:sz="4" w:space="0" w:color="auto"/>'
                            for s in ("top", "left", "bottom", "right", "insideH", "insideV"))
                  + "</w:tblBorders></w:tblPr>"),
    # Word's character and quote styles of fixed definition, as python-docx's default template (Word 2010's
    # Normal.dotm: docx/templates/default-docx-template/word/styles.xml) defines them
    **{sid: (ui, "character", f'<w:basedOn w:val="DefaultParagraphFont"/><w:uiPriority w:val="{priority}"/><w:qFormat/>'
                              f'<w:rPr>{rpr}</w:rPr>')
       for sid, ui, priority, rpr in (
           ("Strong", "Strong", 22, '<w:b/><w:bCs/>'),
           ("Emphasis", "Emphasis", 20, '<w:i/><w:iCs/>'),
           ("SubtleEmphasis", "Subtle Emphasis", 19,
            '<w:i/><w:iCs/><w:color w:val="808080" w:themeColor="text1" w:themeTint="7F"/>'),
           ("IntenseEmphasis", "Intense Emphasis", 21,
            '<w:b/><w:bCs/><w:i/><w:iCs/><w:color w:val="4F81BD" w:themeColor="accent1"/>'),
           ("SubtleReference", "Subtle Reference", 31,
            '<w:smallCaps/><w:color w:val="C0504D" w:themeColor="accent2"/><w:u w:val="single"/>'),
           ("IntenseReference", "Intense Reference", 32, '<w:b/><w:bCs/><w:smallCaps/>'
            '<w:color w:val="C0504D" w:themeColor="accent2"/><w:spacing w:val="5"/><w:u w:val="single"/>'),
           ("BookTitle", "Book Title", 33, '<w:b/><w:bCs/><w:smallCaps/><w:spacing w:val="5"/>'))},
    "Quote": ("Quote", "paragraph", '<w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="29"/><w:qFormat/>'
              '<w:rPr><w:i/><w:iCs/><w:color w:val="000000" w:themeColor="text1"/></w:rPr>'),
    "IntenseQuote": ("Intense Quote", "paragraph", '<w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="30"/>'
                     '<w:qFormat/><w:pPr><w:pBdr><w:bottom w:val="single" w:sz="4" w:space="4" w:color="4F81BD" '
                     'w:themeColor="accent1"/></w:pBdr><w:spacing w:before="200" w:after="280"/>'
                     '<w:ind w:left="936" w:right="936"/></w:pPr><w:rPr><w:b/><w:bCs/><w:i/><w:iCs/>'
                     '<w:color w:val="4F81BD" w:themeColor="accent1"/></w:rPr>'),
}
_BY_NAME = {name.lower(): sid for sid, (name, _, _) in BUILTINS.items()}
#: Bases named by role in BUILTINS: the default style of a type (``w:default="1"``), whatever its id.
DEFAULT_ROLES = {"Normal": "paragraph", "DefaultParagraphFont": "character", "TableNormal": "table"}


def styles_element(doc: WordDocument) -> etree._Element:
    """The ``w:styles`` root. A document without a styles part gets python-docx's default one, and in it a plain
    definition (on the default style of its type) of every style its parts already use: Word shows a style it
    cannot find as the default, and the Open XML SDK says nothing of it while there is no styles part, but reports
    every such reference once there is one (an edit that needs a style then added errors to the file)."""
    try:
        return doc.docx.part.part_related_by(RT.STYLES).element
    except KeyError:
        root = doc.docx.styles.element  # python-docx relates its default styles part
        _define_used_styles(doc, root)
        return root


_USES = {qn("w:pStyle"): "paragraph", qn("w:rStyle"): "character", qn("w:tblStyle"): "table"}


def _define_used_styles(doc: WordDocument, root: etree._Element) -> None:
    defined = {s.get(qn("w:styleId")) for s in root.iterchildren(qn("w:style"))}
    bases = {kind: default_style_id(doc, kind) for kind in ("paragraph", "character", "table")}
    for part in doc.docx.part.package.iter_parts():
        element = getattr(part, "_element", None)
        if element is None or element is root:
            continue
        for ref in element.iter(*_USES):
            sid = ref.get(qn("w:val"))
            if not sid or sid in defined:
                continue
            defined.add(sid)
            style = etree.SubElement(root, qn("w:style"), {qn("w:type"): _USES[ref.tag], qn("w:styleId"): sid})
            etree.SubElement(style, qn("w:name"), {qn("w:val"): sid})
            if bases[_USES[ref.tag]]:
                etree.SubElement(style, qn("w:basedOn"), {qn("w:val"): bases[_USES[ref.tag]]})


def find_style_id(doc: WordDocument, name: str, kind: str) -> str | None:
    """The id of the style of `kind` whose name (UI or stored, any case) or id is `name`, or None."""
    wanted = {name.lower(), BabelFish.ui2internal(name).lower()}
    for s in styles_element(doc).iterchildren(qn("w:style")):
        if (s.get(qn("w:type")) or "paragraph") != kind:
            continue
        sid = s.get(qn("w:styleId")) or ""
        sname = s.find(qn("w:name"))
        stored = (sname.get(qn("w:val")) if sname is not None else "") or ""
        if sid.lower() in wanted or stored.lower() in wanted:
            return sid
    return None


def ensure_style(doc: WordDocument, name: str, kind: str = "paragraph") -> str:
    """The id of style `name` of `kind`, adding it if it is a known built-in; ArgumentError otherwise."""
    sid = find_style_id(doc, name, kind)
    if sid is not None:
        return sid
    builtin = _BY_NAME.get(name.lower()) or _BY_NAME.get(BabelFish.ui2internal(name).lower())
    if builtin is None:
        builtin = next((k for k in BUILTINS if k.lower() == name.lower().replace(" ", "")), None)
    if builtin is None or BUILTINS[builtin][1] != kind:
        available = sorted(available_styles(doc, kind))
        raise ArgumentError(f"there is no {kind} style {name!r}; available {kind} styles: {', '.join(available[:40])}")
    ui, _, body = BUILTINS[builtin]
    sid = new_style_id(doc, builtin)  # the built-in id, unless a style of another type has it
    el = parse(f'<w:style xmlns:w="{W}" w:type="{kind}" w:styleId="{sid}"><w:name w:val="{ui}"/>{body}</w:style>')
    for ref in el.iterchildren(qn("w:basedOn"), qn("w:next")):
        target = _resolve_builtin_reference(doc, ref.get(qn("w:val")))
        if target is None:
            el.remove(ref)  # no default style of that type: the built-in rests on the document defaults
        else:
            ref.set(qn("w:val"), target)
    styles_element(doc).append(el)
    sync_styles_with_effects(doc)
    return sid


def _resolve_builtin_reference(doc: WordDocument, value: str) -> str | None:
    """The document's id for a style a built-in definition names (by role or built-in id), added if needed."""
    if value in DEFAULT_ROLES:
        return default_style_id(doc, DEFAULT_ROLES[value])
    ui, kind, _ = BUILTINS[value]
    return ensure_style(doc, ui, kind)


def default_style_id(doc: WordDocument, kind: str = "paragraph") -> str | None:
    """The id of the default style of `kind` (``w:default="1"``: "Normal" for paragraphs in English Word), or None."""
    for s in styles_element(doc).iterchildren(qn("w:style")):
        if (s.get(qn("w:type")) or "paragraph") == kind and s.get(qn("w:default")) in ("1", "true", "on"):
            return s.get(qn("w:styleId"))
    return None


def new_style_id(doc: WordDocument, name: str) -> str:
    """A free style id made of the ASCII letters and digits of `name` ("Key Point" -> "KeyPoint")."""
    base = re.sub(r"[^A-Za-z0-9]", "", name) or "CustomStyle"
    if base[0].isdigit():
        base = "S" + base
    used = {s.get(qn("w:styleId")) for s in styles_element(doc).iterchildren(qn("w:style"))}
    candidate, n = base, 1
    while candidate in used:
        candidate = f"{base}{n}"
        n += 1
    return candidate


def available_styles(doc: WordDocument, kind: str) -> list[str]:
    """UI names of the document's styles of `kind`."""
    out = []
    for s in styles_element(doc).iterchildren(qn("w:style")):
        if (s.get(qn("w:type")) or "paragraph") == kind:
            name = s.find(qn("w:name"))
            out.append(BabelFish.internal2ui(name.get(qn("w:val")) if name is not None else s.get(qn("w:styleId"))))
    return out


def style_type(kind: str) -> WD_STYLE_TYPE:
    """python-docx's enum for a style kind name."""
    return _TYPES[kind]


_STYLES_WITH_EFFECTS = "http://schemas.microsoft.com/office/2007/relationships/stylesWithEffects"


def sync_styles_with_effects(doc: WordDocument) -> bool:
    """Word 2010+ keeps a copy of the styles in ``stylesWithEffects.xml``: give it styles.xml's document
    defaults and the styles it lacks. False when the document has no such part."""
    part = next((r.target_part for r in doc.part.rels.values()
                 if r.reltype == _STYLES_WITH_EFFECTS and not r.is_external), None)
    if part is None:
        return False
    xml = part_xml(part, lambda: copy.deepcopy(styles_element(doc)))
    styles = styles_element(doc)
    defaults, mirror = styles.find(qn("w:docDefaults")), xml.root.find(qn("w:docDefaults"))
    if mirror is not None:
        xml.root.remove(mirror)
    if defaults is not None:
        xml.root.insert(0, copy.deepcopy(defaults))
    have = {s.get(qn("w:styleId")) for s in xml.root.iterchildren(qn("w:style"))}
    for style in styles.iterchildren(qn("w:style")):
        sid = style.get(qn("w:styleId"))
        if sid is not None and sid not in have:  # a style without an id is a fault of styles.xml: not copied
            xml.root.append(copy.deepcopy(style))
    xml.commit()
    return True
