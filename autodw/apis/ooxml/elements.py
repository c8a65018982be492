"""XML helpers for the APIs: child elements always in schema order, get-or-add, namespaced makers."""

from __future__ import annotations

from docx.oxml.parser import OxmlElement
from lxml import etree

from autodw.core.xml import qn

#: revision marks: elements whose w:id numbers a tracked change (unique in the document)
REVISION_MARKS = tuple(qn(f"w:{t}") for t in (
    "ins", "del", "moveFrom", "moveTo", "moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart",
    "moveToRangeEnd", "rPrChange", "pPrChange", "sectPrChange", "tblPrChange", "trPrChange", "tcPrChange",
    "tblGridChange", "tblPrExChange", "numberingChange", "cellIns", "cellDel", "cellMerge",
    "customXmlInsRangeStart", "customXmlInsRangeEnd", "customXmlDelRangeStart", "customXmlDelRangeEnd",
    "customXmlMoveFromRangeStart", "customXmlMoveFromRangeEnd", "customXmlMoveToRangeStart",
    "customXmlMoveToRangeEnd"))

#: Child order of the property elements we edit (ECMA-376 part 1 sequences).
SEQUENCES: dict[str, tuple[str, ...]] = {
    "w:pPr": ("w:pStyle", "w:keepNext", "w:keepLines", "w:pageBreakBefore", "w:framePr", "w:widowControl",
              "w:numPr", "w:suppressLineNumbers", "w:pBdr", "w:shd", "w:tabs", "w:suppressAutoHyphens",
              "w:kinsoku", "w:wordWrap", "w:overflowPunct", "w:topLinePunct", "w:autoSpaceDE", "w:autoSpaceDN",
              "w:bidi", "w:adjustRightInd", "w:snapToGrid", "w:spacing", "w:ind", "w:contextualSpacing",
              "w:mirrorIndents", "w:suppressOverlap", "w:jc", "w:textDirection", "w:textAlignment",
              "w:textboxTightWrap", "w:outlineLvl", "w:divId", "w:cnfStyle", "w:rPr", "w:sectPr", "w:pPrChange"),
    "w:rPr": ("w:rStyle", "w:rFonts", "w:b", "w:bCs", "w:i", "w:iCs", "w:caps", "w:smallCaps", "w:strike",
              "w:dstrike", "w:outline", "w:shadow", "w:emboss", "w:imprint", "w:noProof", "w:snapToGrid",
              "w:vanish", "w:webHidden", "w:color", "w:spacing", "w:w", "w:kern", "w:position", "w:sz", "w:szCs",
              "w:highlight", "w:u", "w:effect", "w:bdr", "w:shd", "w:fitText", "w:vertAlign", "w:rtl", "w:cs",
              "w:em", "w:lang", "w:eastAsianLayout", "w:specVanish", "w:oMath", "w:rPrChange"),
    "w:tblPr": ("w:tblStyle", "w:tblpPr", "w:tblOverlap", "w:bidiVisual", "w:tblStyleRowBandSize",
                "w:tblStyleColBandSize", "w:tblW", "w:jc", "w:tblCellSpacing", "w:tblInd", "w:tblBorders", "w:shd",
                "w:tblLayout", "w:tblCellMar", "w:tblLook", "w:tblCaption", "w:tblDescription", "w:tblPrChange"),
    "w:trPr": ("w:cnfStyle", "w:divId", "w:gridBefore", "w:gridAfter", "w:wBefore", "w:wAfter", "w:cantSplit",
               "w:trHeight", "w:tblHeader", "w:tblCellSpacing", "w:jc", "w:hidden", "w:ins", "w:del", "w:trPrChange"),
    "w:tcPr": ("w:cnfStyle", "w:tcW", "w:gridSpan", "w:hMerge", "w:vMerge", "w:tcBorders", "w:shd", "w:noWrap",
               "w:tcMar", "w:textDirection", "w:tcFitText", "w:vAlign", "w:hideMark", "w:headers", "w:cellIns",
               "w:cellDel", "w:cellMerge", "w:tcPrChange"),
    "w:sectPr": ("w:headerReference", "w:footerReference", "w:footnotePr", "w:endnotePr", "w:type", "w:pgSz",
                 "w:pgMar", "w:paperSrc", "w:pgBorders", "w:lnNumType", "w:pgNumType", "w:cols", "w:formProt",
                 "w:vAlign", "w:noEndnote", "w:titlePg", "w:textDirection", "w:bidi", "w:rtlGutter", "w:docGrid",
                 "w:printerSettings", "w:sectPrChange"),
    "w:tblBorders": ("w:top", "w:left", "w:start", "w:bottom", "w:right", "w:end", "w:insideH", "w:insideV"),
    "w:tcBorders": ("w:top", "w:left", "w:start", "w:bottom", "w:right", "w:end", "w:insideH", "w:insideV",
                    "w:tl2br", "w:tr2bl"),
    "w:pBdr": ("w:top", "w:left", "w:bottom", "w:right", "w:between", "w:bar"),
    "w:style": ("w:name", "w:aliases", "w:basedOn", "w:next", "w:link", "w:autoRedefine", "w:hidden",
                "w:uiPriority", "w:semiHidden", "w:unhideWhenUsed", "w:qFormat", "w:locked", "w:personal",
                "w:personalCompose", "w:personalReply", "w:rsid", "w:pPr", "w:rPr", "w:tblPr", "w:trPr", "w:tcPr",
                "w:tblStylePr"),
    "w:numbering": ("w:numPicBullet", "w:abstractNum", "w:num", "w:numIdMacAtCleanup"),
    "w:lvl": ("w:start", "w:numFmt", "w:lvlRestart", "w:pStyle", "w:isLgl", "w:suff", "w:lvlText",
              "w:lvlPicBulletId", "w:legacy", "w:lvlJc", "w:pPr", "w:rPr"),
    "w:settings": ("w:writeProtection", "w:view", "w:zoom", "w:removePersonalInformation", "w:removeDateAndTime",
                   "w:doNotDisplayPageBoundaries", "w:displayBackgroundShape", "w:printPostScriptOverText",
                   "w:printFractionalCharacterWidth", "w:printFormsData", "w:embedTrueTypeFonts",
                   "w:embedSystemFonts", "w:saveSubsetFonts", "w:saveFormsData", "w:mirrorMargins",
                   "w:alignBordersAndEdges", "w:bordersDoNotSurroundHeader", "w:bordersDoNotSurroundFooter",
                   "w:gutterAtTop", "w:hideSpellingErrors", "w:hideGrammaticalErrors", "w:activeWritingStyle",
                   "w:proofState", "w:formsDesign", "w:attachedTemplate", "w:linkStyles",
                   "w:stylePaneFormatFilter", "w:stylePaneSortMethod", "w:documentType", "w:mailMerge",
                   "w:revisionView", "w:trackRevisions", "w:doNotTrackMoves", "w:doNotTrackFormatting",
                   "w:documentProtection", "w:autoFormatOverride", "w:styleLockTheme", "w:styleLockQFSet",
                   "w:defaultTabStop", "w:autoHyphenation", "w:consecutiveHyphenLimit", "w:hyphenationZone",
                   "w:doNotHyphenateCaps", "w:showEnvelope", "w:summaryLength", "w:clickAndTypeStyle",
                   "w:defaultTableStyle", "w:evenAndOddHeaders", "w:bookFoldRevPrinting", "w:bookFoldPrinting",
                   "w:bookFoldPrintingSheets", "w:drawingGridHorizontalSpacing", "w:drawingGridVerticalSpacing",
                   "w:displayHorizontalDrawingGridEvery", "w:displayVerticalDrawingGridEvery",
                   "w:doNotUseMarginsForDrawingGridOrigin", "w:drawingGridHorizontalOrigin",
                   "w:drawingGridVerticalOrigin", "w:doNotShadeFormData", "w:noPunctuationKerning",
                   "w:characterSpacingControl", "w:printTwoOnOne", "w:strictFirstAndLastChars",
                   "w:noLineBreaksAfter", "w:noLineBreaksBefore", "w:savePreviewPicture",
                   "w:doNotValidateAgainstSchema", "w:saveInvalidXml", "w:ignoreMixedContent",
                   "w:alwaysShowPlaceholderText", "w:doNotDemarcateInvalidXml", "w:saveXmlDataOnly",
                   "w:useXSLTWhenSaving", "w:saveThroughXslt", "w:showXMLTags", "w:alwaysMergeEmptyNamespace",
                   "w:updateFields", "w:hdrShapeDefaults", "w:footnotePr", "w:endnotePr", "w:compat", "w:docVars",
                   "w:rsids", "m:mathPr", "w:attachedSchema", "w:themeFontLang", "w:clrSchemeMapping",
                   "w:doNotIncludeSubdocsInStats", "w:doNotAutoCompressPictures", "w:forceUpgrade", "w:captions",
                   "w:readModeInkLockDown", "w:smartTagType", "sl:schemaLibrary", "w:shapeDefaults",
                   "w:doNotEmbedSmartTags", "w:decimalSymbol", "w:listSeparator"),
}
_ORDER: dict[str, dict[str, int]] = {qn(parent): {qn(t): i for i, t in enumerate(seq) if not t.startswith("sl:")}
                                     for parent, seq in SEQUENCES.items()}


def insert_ordered(parent: etree._Element, child: etree._Element) -> etree._Element:
    """Insert `child` into `parent` at its schema position (after siblings that precede it). The one place
    property children are added: never ``append`` to a property element."""
    order = _ORDER.get(parent.tag)
    if order is None or child.tag not in order:
        raise ValueError(f"no schema order known for {child.tag} in {parent.tag}")
    rank = order[child.tag]
    for sibling in parent:
        if order.get(sibling.tag, -1) > rank:
            sibling.addprevious(child)
            return child
    parent.append(child)
    return child


def get_or_add(parent: etree._Element, tag: str) -> etree._Element:
    """The first `tag` child of `parent`, created in schema order if missing."""
    found = parent.find(qn(tag))
    if found is not None:
        return found
    return insert_ordered(parent, make(tag))


def replace_child(parent: etree._Element, tag: str, **attrs: str) -> etree._Element:
    """Remove every `tag` child and insert a fresh one with `attrs` (``w_val="x"`` means ``w:val``)."""
    remove_children(parent, tag)
    return insert_ordered(parent, make(tag, **attrs))


def remove_children(parent: etree._Element, tag: str) -> int:
    """Remove every `tag` child; return how many."""
    found = parent.findall(qn(tag))
    for el in found:
        parent.remove(el)
    return len(found)


def make(tag: str, **attrs: str) -> etree._Element:
    """A new element; keyword ``w_val="1"`` sets attribute ``w:val`` (prefix, underscore, local name)."""
    el = OxmlElement(tag)
    for key, value in attrs.items():
        prefix, _, local = key.partition("_")
        el.set(qn(f"{prefix}:{local}") if local else key, str(value))
    return el


def _get_or_add_first(parent: etree._Element, tag: str) -> etree._Element:
    found = parent.find(qn(tag))
    if found is None:
        found = make(tag)
        parent.insert(0, found)
    return found


def get_or_add_ppr(p: etree._Element) -> etree._Element:
    """The paragraph's ``w:pPr`` (always its first child)."""
    return _get_or_add_first(p, "w:pPr")


def get_or_add_rpr(r: etree._Element) -> etree._Element:
    """The run's ``w:rPr`` (always its first child)."""
    return _get_or_add_first(r, "w:rPr")
