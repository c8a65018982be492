"""Parse the units and colours LLMs write ("2.5cm", "12pt", "red", "#1F4E79") into OOXML values."""

from __future__ import annotations

import re

from autodw.colours import names_of
from autodw.errors import ArgumentError

EMU_PER = {"cm": 360000, "mm": 36000, "in": 914400, "pt": 12700, "px": 9525}
_LENGTH = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(cm|mm|in|pt|px)\s*$")
NAMED_COLORS = {
    "black": "000000", "white": "FFFFFF", "red": "FF0000", "green": "00B050", "blue": "0070C0",
    "yellow": "FFFF00", "orange": "FFC000", "purple": "7030A0", "gray": "808080", "grey": "808080",
    "darkblue": "002060", "darkred": "C00000", "darkgreen": "006400", "lightgray": "D9D9D9",
    "lightgrey": "D9D9D9", "navy": "000080", "teal": "008080", "maroon": "800000", "olive": "808000",
    "cyan": "00FFFF", "magenta": "FF00FF", "pink": "FFC0CB", "brown": "964B00", "gold": "FFD700",
    "silver": "C0C0C0",
}


def emu(value: str, what: str = "length") -> int:
    """English Metric Units of a length with unit."""
    m = _LENGTH.match(str(value))
    if not m:
        raise ArgumentError(f'{what} {value!r} is not a length; write a number with unit, e.g. "2.5cm", "1in", "12pt"')
    return round(float(m.group(1)) * EMU_PER[m.group(2)])


def twips(value: str, what: str = "length") -> int:
    """Twentieths of a point (the unit of most WordprocessingML lengths)."""
    return round(emu(value, what) / 635)


def points(value: str, what: str = "length") -> float:
    """Points."""
    return emu(value, what) / 12700


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
