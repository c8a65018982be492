"""Rule checks of the colours a call sets against the colours the request names."""

from __future__ import annotations

import re
from typing import Any

from autodw.agent.checks.reading import keyed_strings
from autodw.agent.checks.registry import BUILT_ON, Certainty, CheckFinding, check
from autodw.agent.request_values import colours_to_set
from autodw.core.colours import colour_ranges, colours_said
from autodw.core.errors import ArgumentError
from autodw.core.units import hex_color

_COLOUR_KEYS = re.compile(r"^(?:font_)?colou?r$", re.IGNORECASE)  # text and line colours; fills are often unnamed tints
_FILL_KEYS = re.compile(r"^(?:fill|shading|highlight)$", re.IGNORECASE)  # checked when the call names a colour
_HEX_IN_TEXT = re.compile(r"(?<![0-9A-Za-z])#?([0-9A-Fa-f]{6})(?![0-9A-Za-z])")
#: words saying a list goes on past its last item ("red, green and so on", "红色、绿色等"), after its punctuation; not
#: 等 opening a word ("等线", a font; "等我确认", wait for me) nor a bare ellipsis ("red... actually bold too")
_LIST_GOES_ON = re.compile(r"\s*(?:\band\s+so\s+(?:on|forth)\b|\betc\b\.?|\bet\s+cetera\b|等等|等(?![线宽号级待我一于])|之类)",
                           re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?。！？;；\n]")
MIN_LISTED_COLOURS = 2  # colours a list names before its closing words to be a list of examples
_LAST_WORDS = 3  # words before a list's closing words read for its last colour ("in dark green and so on")


@check("unnamed_colour", certain=Certainty.REJECTS,
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-second", "dwbench-2.0/templated/dev",
                         "dwbench-2.0/hand/dev-thirty-fourth", "dwbench-2.0/hand/dev-thirty-fifth",
                         "dwbench-2.0/hand/dev-thirty-sixth"))
def unnamed_colours(args: dict[str, Any], request: str) -> list[CheckFinding]:
    """A text or line colour the call sets is of none of the colours the request names to set, in words or as hex
    ("dark red" -> 0000FF), when it names some (named colour ranges of :mod:`autodw.core.colours`; a Chinese colour
    also in its one character before 字 or 底: "白字", white text; a light tint also without 色: "淡蓝"); a fill or
    shading only when the call gives it by name ("lightgrey" for "pale yellow"): requests leave their hex tints
    unnamed. A colour named to replace, remove or judge is not one to set (:func:`request_values.colours_to_set`):
    "the blue is too much, put the colour back to normal" names none. Colours named as examples of a list that goes
    on are not all it asks for (:func:`examples_go_on`: "Red in red, green in green and so on")."""
    names = [said.name for said, _ in colours_to_set(request)]  # "白字" is white text: named as "白色" is
    hexes = {h.upper() for h in _HEX_IN_TEXT.findall(request)}
    if not names and not hexes or examples_go_on(request):
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


def examples_go_on(request: str) -> bool:
    """Whether the colours `request` names are examples of a list that goes on: words such as "and so on", "etc." or
    "等" close the list right after a colour ("each one in the colour it names? Red in red, green in green and so
    on", dwh-486#2: the other colours are the ones the cells name; "红色、绿色等"), the list naming
    :data:`MIN_LISTED_COLOURS` or more in its sentence ("标题改成红色，等线字体" is no list). A list of other things
    closed after a colour's list ("blue, bold etc.") is not one."""
    for closing in _LIST_GOES_ON.finditer(request):
        sentence = _SENTENCE_END.split(request[:closing.start()])[-1]
        if len(colours_said(sentence)) < MIN_LISTED_COLOURS:
            continue
        words = request[:closing.start()].rstrip(" ,;，、；").split()[-_LAST_WORDS:]
        for n in range(1, len(words) + 1):
            last = " ".join(words[-n:])
            said = colours_said(last)
            if said and said[-1].at + len(said[-1].words) == len(last):
                return True
    return False


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
