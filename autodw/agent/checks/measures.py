"""Rule checks of the lengths, sizes and numbers a call sets against those the request gives."""

from __future__ import annotations

import re
from typing import Any

from autodw.agent.checks.registry import BUILT_ON, Certainty, CheckFinding, State, check
from autodw.agent.checks.reading import one_value, values_now
from autodw.agent.request_values import MEASURED as _MEASURED, UNITS as _UNITS

#: the unit pattern these checks read (request_values.MEASURED) was widened while issue 51 tuned the request values on
#: DWBench 2.0 dev ("12-point", c28860b): so they are tuned on those splits too
UNIT_WORDS_2_0 = ("dwbench-2.0/hand/dev", "dwbench-2.0/templated/dev")

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_ARG_UNIT = {"size_pt": "pt"}  # bare-number arguments with a unit (a font size; a border's is its line: "thin")
_MEASURE = re.compile(r"size|width|height|spacing|indent|margin|space|_pt|_cm|points", re.IGNORECASE)
#: a request that gives a length as what another change frees or leaves ("give the space it frees up to the names
#: column", "the rest of the width", "剩下的宽度"): a length the call sets may be that share, worked out, not a number said
_SHARE = re.compile(r"\b(?:space|room|width)\s+(?:it|this|that|they|which)\s+(?:frees?|freed|saves?|leaves?)\b"
                    r"|\b(?:remaining|spare|freed(?:[\s-]up)?|leftover|left-?over|saved)\s+(?:space|room|width)\b"
                    r"|\b(?:rest|remainder)\s+of\s+the\s+(?:space|room|width)\b|\b(?:space|room|width)\s+(?:that\s+is\s+)?left\b"
                    r"|(?:剩余|剩下|余下|多出|腾出|空出)来?的?(?:空间|宽度|地方)", re.IGNORECASE)
_FONT_SIZE = re.compile(r"font[- ]size|text size|size of the (?:text|font)|字号|字体大小|文字大小", re.IGNORECASE)


def _measure(api: str, key: str, value: Any) -> tuple[float, str] | None:
    """An argument's length or size as (number, unit), if it is one."""
    if isinstance(value, str):
        match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(cm|mm|pt|in)\s*", value)
        return (float(match.group(1)), match.group(2)) if match else None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        unit = None if "border" in api else _ARG_UNIT.get(key)
        return (float(value), unit) if unit else None
    return None


@check("unnamed_measure", certain=Certainty.FIXES, hint="unnamed_number",
       tuned_on=BUILT_ON + UNIT_WORDS_2_0 + ("dwbench-2.0/hand/dev-nineteenth", "dwbench-2.0/hand/dev-sixteenth",
                                                "dwbench-2.0/hand/dev-thirteenth", "dwbench-2.0/templated/dev-outside-second"))
def unnamed_measures(api: str, args: dict[str, Any], instruction: str,
                     before: State | None = None) -> list[CheckFinding]:
    """A length or size the call sets ("1.5cm", 14 pt) is not among the instruction's numbers of that unit, when the
    instruction gives numbers of that unit ("indent 1 cm" -> "1.5cm"); the fix is the only length it gives. A number
    the instruction gives bare is named too: the unit may go with the value it replaces ("9pt is too small ... 10 then").

    Another measurement the call sets (a spacing, a width) that is a number the instruction does not mention, when it
    mentions numbers, is a hint (``unnamed_number``), and so is an unnamed length when the instruction gives one as
    what another change frees or leaves (:data:`_SHARE`: "make it 3 cm and give the space it frees up to the names
    column" sets that column to its width plus what was freed).

    A size everything the call changes has now (read from the state) is what the request says it is, not one to set
    ("The story titles are 10.5pt right now, knock them down a little"), though a size the instruction gives that the
    text has now is still one it may ask for ("make "Next Steps" orange and 14 pt" of a 14 pt heading)."""
    given: dict[str, set[float]] = {}
    for number, unit in _MEASURED.findall(instruction):
        given.setdefault(_UNITS[unit.lower()], set()).add(float(number))
    mentioned = {float(n) for n in _NUMBER.findall(instruction)}
    bare = {float(n) for n in _NUMBER.findall(_MEASURED.sub(" ", instruction))}
    out = []
    for key, value in args.items():
        measure = _measure(api, key, value)
        if measure is not None and measure[1] in given:
            asked = given[measure[1]] - _sizes_now(api, key, args, before)
            if asked and measure[0] not in given[measure[1]] and measure[0] not in bare:
                named = ", ".join(f"{n:g} {measure[1]}" for n in sorted(asked))
                only = next(iter(asked)) if len(asked) == 1 else None
                fix = None if only is None else {key: f"{only:g}{measure[1]}" if isinstance(value, str) else only}
                share = _SHARE.search(instruction) is not None
                out.append(CheckFinding("unnamed_number" if share else "unnamed_measure", f"{key}={value}: the "
                                        f"instruction gives {named}" + (" and a share of space" if share else ""),
                                        not share, None if share else fix))
        elif mentioned and _MEASURE.search(key) and not isinstance(value, bool):
            numbers = [float(n) for n in _NUMBER.findall(str(value))]
            if numbers and not any(n in mentioned for n in numbers):
                out.append(CheckFinding("unnamed_number", f"{key}={value} is not a number the instruction mentions", False))
    return out


def _sizes_now(api: str, key: str, args: dict[str, Any], before: State | None) -> set[float]:
    """The font size (pt) everything the call changes has now, when `key` sets font sizes and they all have one
    (:func:`~autodw.agent.checks.reading.values_now`); else none."""
    now = one_value(values_now(key, api, args, before)) if before and _ARG_UNIT.get(key) == "pt" else set()
    return {float(n) for n in now if isinstance(n, (int, float))}


@check("size_as_spacing", certain=Certainty.REJECTS, tuned_on=BUILT_ON + UNIT_WORDS_2_0)
def size_as_spacing(args: dict[str, Any], sub_instruction: str, instruction: str) -> list[CheckFinding]:
    """A font size is asked for and the call sets that number of points as a spacing, line height or indent instead
    ("set its font size to 20pt" -> line_height "20pt")."""
    if not (_FONT_SIZE.search(sub_instruction) or _FONT_SIZE.search(instruction)) or "size_pt" in args:
        return []
    asked = {float(n) for n, unit in _MEASURED.findall(sub_instruction + " " + instruction) if _UNITS[unit.lower()] == "pt"}
    used = [(k, v) for k, v in args.items() if _MEASURE.search(k) and isinstance(v, str)
            and _measure("", k, v) in {(n, "pt") for n in asked}]
    return [CheckFinding("size_as_spacing", f"{k}={v} sets a {k.replace('_', ' ')}, but a font size is asked for (size_pt of "
                                       "set_text_format)", True) for k, v in used]
