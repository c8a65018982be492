"""Look up styles by the name users write, and add Word's built-in styles a document lacks."""

from __future__ import annotations

from docx.enum.style import WD_STYLE_TYPE

from autodw.document import WordDocument
from autodw.errors import ArgumentError
from autodw.xml import W, parse, qn

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
    "Hyperlink": ("Hyperlink", "character", '<w:uiPriority w:val="99"/><w:unhideWhenUsed/>'
                  '<w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/></w:rPr>'),
    "FootnoteText": ("footnote text", "paragraph", '<w:basedOn w:val="Normal"/><w:uiPriority w:val="99"/>'
                     '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:sz w:val="20"/></w:rPr>'),
    "FootnoteReference": ("footnote reference", "character", '<w:uiPriority w:val="99"/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'),
    "EndnoteText": ("endnote text", "paragraph", '<w:basedOn w:val="Normal"/><w:uiPriority w:val="99"/>'
                    '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:sz w:val="20"/></w:rPr>'),
    "EndnoteReference": ("endnote reference", "character", '<w:uiPriority w:val="99"/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'),
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
    "TableGrid": ("Table Grid", "table", '<w:basedOn w:val="TableNormal"/><w:uiPriority w:val="39"/>'
                  '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:tblPr><w:tblBorders>'
                  + "".join(f'<w:{s} w:val="single" w:sz="4" w:space="0" w:color="auto"/>'
                            for s in ("top", "left", "bottom", "right", "insideH", "insideV"))
                  + "</w:tblBorders></w:tblPr>"),
}
_BY_NAME = {name.lower(): sid for sid, (name, _, _) in BUILTINS.items()}


def styles_element(doc: WordDocument):
    """The ``w:styles`` root (python-docx adds a styles part if the document has none)."""
    return doc.docx.styles.element


def find_style_id(doc: WordDocument, name: str, kind: str) -> str | None:
    """The id of the style of `kind` whose name (UI or stored, any case) or id is `name`, or None."""
    from docx.styles import BabelFish

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
    from docx.styles import BabelFish

    builtin = _BY_NAME.get(name.lower()) or _BY_NAME.get(BabelFish.ui2internal(name).lower())
    if builtin is None:
        builtin = next((k for k in BUILTINS if k.lower() == name.lower().replace(" ", "")), None)
    if builtin is None or BUILTINS[builtin][1] != kind:
        available = sorted(available_styles(doc, kind))
        raise ArgumentError(f"there is no {kind} style {name!r}; available {kind} styles: {', '.join(available[:40])}")
    ui, _, body = BUILTINS[builtin]
    if "basedOn" in body:  # make sure the base exists too
        base = body.split('w:basedOn w:val="', 1)[1].split('"', 1)[0]
        if base in BUILTINS and find_style_id(doc, base, BUILTINS[base][1]) is None:
            ensure_style(doc, BUILTINS[base][0], BUILTINS[base][1])
    el = parse(f'<w:style xmlns:w="{W}" w:type="{kind}" w:styleId="{builtin}"><w:name w:val="{ui}"/>{body}</w:style>')
    styles_element(doc).append(el)
    return builtin


def available_styles(doc: WordDocument, kind: str) -> list[str]:
    """UI names of the document's styles of `kind`."""
    from docx.styles import BabelFish

    out = []
    for s in styles_element(doc).iterchildren(qn("w:style")):
        if (s.get(qn("w:type")) or "paragraph") == kind:
            name = s.find(qn("w:name"))
            out.append(BabelFish.internal2ui(name.get(qn("w:val")) if name is not None else s.get(qn("w:styleId"))))
    return out


def style_type(kind: str) -> WD_STYLE_TYPE:
    """python-docx's enum for a style kind name."""
    return _TYPES[kind]
