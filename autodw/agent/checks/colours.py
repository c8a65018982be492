"""Rule checks of the colours a call sets against the colours the request names."""

from __future__ import annotations

import re
from typing import Any

from autodw.agent.checks.reading import keyed_strings
from autodw.agent.checks.registry import BUILT_ON, Certainty, CheckFinding, check
from autodw.agent.request_values import colours_to_set
from autodw.core.colours import colour_ranges
from autodw.core.errors import ArgumentError
from autodw.core.units import hex_color

_COLOUR_KEYS = re.compile(r"^(?:font_)?colou?r$", re.IGNORECASE)  # text and line colours; fills are often unnamed tints
_FILL_KEYS = re.compile(r"^(?:fill|shading|highlight)$", re.IGNORECASE)  # checked when the call names a colour
_HEX_IN_TEXT = re.compile(r"(?<![0-9A-Za-z])#?([0-9A-Fa-f]{6})(?![0-9A-Za-z])")


@check("unnamed_colour", certain=Certainty.REJECTS,
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-second", "dwbench-2.0/templated/dev"))
def unnamed_colours(args: dict[str, Any], request: str) -> list[CheckFinding]:
    """A text or line colour the call sets is of none of the colours the request names to set, in words or as hex
    ("dark red" -> 0000FF), when it names some (named colour ranges of :mod:`autodw.core.colours`; a Chinese colour
    also in its one character before 字 or 底: "白字", white text; a light tint also without 色: "淡蓝"); a fill or
    shading only when the call gives it by name ("lightgrey" for "pale yellow"): requests leave their hex tints
    unnamed. A colour named to replace, remove or judge is not one to set (:func:`request_values.colours_to_set`):
    "the blue is too much, put the colour back to normal" names none."""
    names = [said.name for said, _ in colours_to_set(request)]  # "白字" is white text: named as "白色" is
    hexes = {h.upper() for h in _HEX_IN_TEXT.findall(request)}
    if not names and not hexes:
        return []
    ranges = colour_ranges()
    out = []
    for key, value in keyed_strings(args):  # nested colours included (a border's)
        named_fill = _FILL_KEYS.search(key) and not _HEX_IN_TEXT.fullmatch(value)
        if not (_COLOUR_KEYS.search(key) or named_fill) or value.lower() in ("auto", "none"):
            continue
        try:
            rgb = hex_color(value)
        except ArgumentError:
            continue
        if rgb not in hexes and not any(ranges[n].contains(rgb) for n in names):
            said = ", ".join([*names, *sorted(hexes)])
            out.append(CheckFinding("unnamed_colour", f"{key}={value} is not {said} (the colours the request names)", True))
    return out


def _is_colour(text: str) -> bool:
    try:
        hex_color(text)
    except ArgumentError:
        return False
    return True


@check("colour_as_font", certain=Certainty.REJECTS, tuned_on=BUILT_ON)
def colour_as_font(args: dict[str, Any]) -> list[CheckFinding]:
    """A colour given as a font's name ("font": "green")."""
    return [CheckFinding("colour_as_font", f"{key}={args[key]!r} is a colour, not a font (a colour is set with color)", True)
            for key in ("font", "east_asia_font") if isinstance(args.get(key), str) and _is_colour(args[key])]
