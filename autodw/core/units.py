"""Parse the units and colours LLMs write ("2.5cm", "12pt", "red", "#1F4E79") into OOXML values."""

from __future__ import annotations

import re

from autodw.core.colours import names_of
from autodw.core.errors import ArgumentError

EMU_PER = {"cm": 360000, "mm": 36000, "in": 914400, "pt": 12700, "px": 9525}
_LENGTH = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(cm|mm|in|pt|px)\s*$")
NAMED_COLORS = {
    "black": "000000", "white": "FFFFFF", "red": "FF0000", "green": "00B050", "blue": "0070C0",
    "yellow": "FFFF00", "orange": "FFC000", "purple": "7030A0", "gray": "808080", "grey": "808080",
    "darkblue": "002060", "darkred": "C00000", "darkgreen": "006400", "lightgray": "D9D9D9",
    "lightgrey": "D9D9D9", "navy": "000080", "teal": "008080", "maroon": "800000", "olive": "808000",
    "cyan": "00FFFF", "magenta": "FF00FF", "pink": "FFC0CB", "brown": "964B00", "gold": "FFD700",
    "silver": "C0C0C0",
    # light tints people name ("light blue background", 浅蓝底色), as Word's colour picker gives them (its theme
    # colours' Lighter 80% row: DEEAF6, E2EFDA, FFF2CC, FBE4D5; purple: the Office 2007 theme's Lighter 60%, as its 80%
    # is greyer than a person's "light purple"), pink as the web's lightpink; the values DWBench 2.0 hand dev gold calls
    # give these words (tuned_on: dwbench-2.0/hand/dev); each lies in its name's range in colour_names.json
    "lightblue": "DEEAF6", "lightgreen": "E2EFDA", "lightyellow": "FFF2CC", "paleyellow": "FFF2CC",
    "lightorange": "FBE4D5", "lightpink": "FFB6C1", "lightpurple": "CCC0DA",
}


#: the forms a length is written in, for refusals
LENGTH_FORMS = 'a number with unit cm, mm, in, pt or px, e.g. "8cm", "25mm", "3in", "200pt"'
UNIT_NAMES = {"cm": "centimetres", "mm": "millimetres", "in": "inches", "pt": "points", "px": "pixels"}


def length_text(value: str | float, what: str = "length", bare_unit: str | None = None) -> str:
    """`value` as a length with unit ("2.5cm"): a string as written; a bare number in `bare_unit`, the unit the
    argument's schema states for one (:func:`autodw.apis.schema.length`); ArgumentError for anything else."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if bare_unit is None:
            raise ArgumentError(f"{what} {value!r} has no unit and none is implied; write {LENGTH_FORMS}")
        value = f"{value:.4f}".rstrip("0").rstrip(".") + bare_unit
    if not isinstance(value, str) or not _LENGTH.match(value):
        raise ArgumentError(f"{what} {value!r} is not a length; write {LENGTH_FORMS}")
    return value


def emu(value: str | float, what: str = "length", bare_unit: str | None = None) -> int:
    """English Metric Units of a length (see :func:`length_text` for the forms accepted)."""
    m = _LENGTH.match(length_text(value, what, bare_unit))
    assert m is not None
    return round(float(m.group(1)) * EMU_PER[m.group(2)])


def twips(value: str | float, what: str = "length", bare_unit: str | None = None) -> int:
    """Twentieths of a point (the unit of most WordprocessingML lengths)."""
    return round(emu(value, what, bare_unit) / 635)


def points(value: str | float, what: str = "length", bare_unit: str | None = None) -> float:
    """Points."""
    return emu(value, what, bare_unit) / 12700


def color_name(hex_rgb: str) -> str | None:
    """The name of a hex colour for people and validators: the names whose ranges in ``colour_names.json`` hold it
    (at most two, most specific first: "dark blue", "gold or orange"), else "near NAME" for the closest of
    NAMED_COLORS; None if `hex_rgb` is not RRGGBB."""
    if not re.fullmatch(r"[0-9A-Fa-f]{6}", str(hex_rgb)):
        return None
    names = names_of(hex_rgb.upper())
    if names:
        return " or ".join(names)
    rgb = [int(hex_rgb[i:i + 2], 16) for i in (0, 2, 4)]
    _, name = min((sum((a - int(h[i:i + 2], 16)) ** 2 for a, i in zip(rgb, (0, 2, 4))), n)
                  for n, h in NAMED_COLORS.items() if n not in ("grey", "lightgrey"))
    return f"near {name}"


def hex_color(value: str, what: str = "colour") -> str:
    """Upper-case RRGGBB from a hex string or a colour name."""
    v = str(value).strip().lstrip("#")
    if re.fullmatch(r"[0-9A-Fa-f]{6}", v):
        return v.upper()
    named = NAMED_COLORS.get(v.lower().replace(" ", ""))
    if named:
        return named
    raise ArgumentError(f"{what} {value!r} is not a colour; use hex RGB like \"FF0000\" or one of: {', '.join(NAMED_COLORS)}")


_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
          (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


_CHINESE_DIGITS = "〇一二三四五六七八九"
_FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def _chinese(n: int) -> str:
    """`n` (1-9999) in Chinese counting numerals: 十一, 二十, 一百零五."""
    out, zero = "", False
    for value, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit, n = divmod(n, value)
        if digit:
            out += ("零" if zero and out else "") + ("" if value == 10 and digit == 1 and not out else _CHINESE_DIGITS[digit]) + unit
            zero = False
        elif out:
            zero = True
    return out


def format_number(n: int, fmt: str) -> str:
    """`n` written in a WordprocessingML number format (``w:numFmt``, ``w:pgNumType/@w:fmt``): decimal, zero-padded,
    full-width, Roman, letters, Chinese counting and circled numbers; other formats as decimal."""
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt in ("decimalFullWidth", "decimalFullWidth2"):  # "double byte Arabic numerals" (LibreOffice: FULLWIDTH_ARABIC)
        return str(n).translate(_FULL_WIDTH)
    if fmt in ("chineseCounting", "chineseCountingThousand") and 0 < n < 10000:
        return _chinese(n)
    if fmt == "decimalEnclosedCircle" and 0 < n <= 20:
        return chr(0x2460 + n - 1)
    if fmt in ("lowerRoman", "upperRoman") and n > 0:
        out, rest = "", n
        for value, sym in _ROMAN:
            while rest >= value:
                out, rest = out + sym, rest - value
        return out.upper() if fmt == "upperRoman" else out
    if fmt in ("lowerLetter", "upperLetter") and n > 0:
        letter = chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)
        return letter.upper() if fmt == "upperLetter" else letter
    return str(n)
