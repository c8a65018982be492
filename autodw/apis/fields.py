"""Word fields (PAGE, NUMPAGES, SEQ, TOC, REF ...) as complex-field runs."""

from __future__ import annotations

from lxml import etree

from autodw.apis.text import text_elements
from autodw.xml import W, parse


def field_runs(instruction: str, placeholder: str = "", rpr_xml: str = "") -> list[etree._Element]:
    """The runs of a complex field: begin, instruction, separate, placeholder result, end.

    The placeholder is what shows until Word (or LibreOffice) updates the field.
    """
    def run(inner: str) -> etree._Element:
        return parse(f'<w:r xmlns:w="{W}">{rpr_xml}{inner}</w:r>')

    result = run("")
    for el in text_elements(placeholder):
        result.append(el)
    instr = run('<w:instrText xml:space="preserve"></w:instrText>')
    instr[-1].text = f" {instruction.strip()} "
    return [run('<w:fldChar w:fldCharType="begin" w:dirty="true"/>'), instr,
            run('<w:fldChar w:fldCharType="separate"/>'), result, run('<w:fldChar w:fldCharType="end"/>')]


def request_field_update(settings_root: etree._Element) -> None:
    """Ask Word to update all fields when the document is opened (``w:updateFields``)."""
    from autodw.apis.oxml import get_or_add

    get_or_add(settings_root, "w:updateFields").set(f"{{{W}}}val", "true")
