"""Theme fonts as a font value: which of the theme's fonts a value names, and writing a reference to it."""

from __future__ import annotations

import re

from lxml import etree

from autodw.apis.ooxml.elements import get_or_add
from autodw.core.errors import ArgumentError
from autodw.core.xml import qn

#: words naming the theme's body ("minor") and heading ("major") fonts, as Word's font list and the state write them
KINDS = {"": "minor", "font": "minor", "body": "minor", "minor": "minor", "minorhansi": "minor", "minorascii": "minor",
         "headings": "major", "heading": "major", "major": "major", "majorhansi": "major", "majorascii": "major"}
_WORD_LABEL = re.compile(r"(.+?)\s*\(\s*(body|headings?)\s*\)", re.IGNORECASE)  # "Calibri (Body)" in Word's font list


def theme_font_kind(value: str, theme: dict[str, str]) -> str | None:
    """"minor" (body) or "major" (headings) when font `value` names a theme font: "theme" (the body font),
    "theme:headings", the state's "theme:minorHAnsi", Word's "+Body" or its font list's "Cambria (Body)" (the name
    must be that theme font's); None for a font name. `theme`: the document's theme fonts ("minor", "major", ...)."""
    low = value.strip().lower()
    label = _WORD_LABEL.fullmatch(value.strip())
    if low.startswith(("theme", "+")):
        kind = KINDS.get(low.removeprefix("+").removeprefix("theme").strip(" :()-_"))
        if kind is None:
            raise ArgumentError(f"font {value!r}: a theme font is \"theme\" (the body font) or \"theme:headings\"")
    elif label is not None:
        kind = KINDS[label.group(2).lower()]
        if theme.get(kind) and label.group(1).lower() != theme[kind].lower():
            raise ArgumentError(f"font {value!r}: the theme's {label.group(2).lower()} font is {theme[kind]}, not "
                                f"{label.group(1)}; give \"{theme[kind]} ({label.group(2)})\" or a font name")
    else:
        return None
    if not theme.get(kind):
        raise ArgumentError(f"font {value!r}: the document's theme has no {'body' if kind == 'minor' else 'heading'} "
                            "font; give a font name")
    return kind


def set_theme_font(rpr: etree._Element, kind: str) -> None:
    """Make `rpr` use the theme's `kind` ("minor"/"major") fonts: ``w:asciiTheme``/``w:hAnsiTheme`` instead of named
    fonts, and the East Asian and complex-script theme slots of the same kind where `rpr` had a theme slot there."""
    fonts = get_or_add(rpr, "w:rFonts")
    for attr in ("w:ascii", "w:hAnsi"):
        fonts.attrib.pop(qn(attr), None)
    for attr in ("w:asciiTheme", "w:hAnsiTheme"):
        fonts.set(qn(attr), f"{kind}HAnsi")
    for attr, slot in (("w:eastAsiaTheme", "EastAsia"), ("w:cstheme", "Bidi")):
        if fonts.get(qn(attr)) is not None:
            fonts.set(qn(attr), kind + slot)
