"""Colour names as ranges: which hex colours a person would call "blue" (data: ``colour_names.json``: one HSV box
per name, or several under "ranges").

Used by the judge's colour tolerance and the agent's rule checks: when an instruction names a colour in words, any
colour of that name is accepted, e.g. "blue" accepts 0000FF and 0070C0 but not 00B050.
"""

from __future__ import annotations

import colorsys
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

_DATA = Path(__file__).with_name("colour_names.json")
_HEX = re.compile(r"[0-9A-Fa-f]{6}")


@dataclass(frozen=True)
class HsvBox:
    """HSV hue ranges in degrees (empty: any hue), saturation and value bounds in [0, 1]."""

    hue: tuple[tuple[float, float], ...]
    saturation: tuple[float, float]
    value: tuple[float, float]

    def contains(self, h: float, s: float, v: float) -> bool:
        return (not self.hue or any(lo <= h <= hi for lo, hi in self.hue)) and \
            self.saturation[0] <= s <= self.saturation[1] and self.value[0] <= v <= self.value[1]


@dataclass(frozen=True)
class ColourRange:
    """One named colour: the words that name it and the HSV boxes its colours fall in (any of them)."""

    name: str
    words: tuple[str, ...]
    boxes: tuple[HsvBox, ...]
    hex: str  # the colour a request naming it means (Word's standard colour or pale tint of the name)

    def contains(self, hex_rgb: str | None) -> bool:
        """True if the RRGGBB colour `hex_rgb` is of this name."""
        hsv = _hsv(hex_rgb)
        return hsv is not None and any(box.contains(*hsv) for box in self.boxes)

    def size(self) -> float:
        """The HSV volume the name covers (degrees x saturation x value): smaller is more specific."""
        return sum(sum(hi - lo for lo, hi in b.hue or ((0, 360),)) * (b.saturation[1] - b.saturation[0]) *
                   (b.value[1] - b.value[0]) for b in self.boxes)


def _box(d: dict) -> HsvBox:
    return HsvBox(tuple(tuple(r) for r in d.get("hue", [])), tuple(d["saturation"]), tuple(d["value"]))


@lru_cache(maxsize=1)
def colour_ranges() -> dict[str, ColourRange]:
    """Name -> range, from the data file (a name's box, or its list of boxes under "ranges")."""
    data = json.loads(_DATA.read_text(encoding="utf-8"))["names"]
    return {name: ColourRange(name, tuple(d["words"]), tuple(_box(b) for b in d.get("ranges", [d])), d["hex"])
            for name, d in data.items()}


@lru_cache(maxsize=1)
def _word_pattern() -> tuple[re.Pattern[str], dict[str, str]]:
    owner = {w.lower(): name for name, r in colour_ranges().items() for w in r.words}
    words = sorted(owner, key=len, reverse=True)  # longest first: "dark blue" before "blue"
    alternatives = [rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w) for w in words]
    return re.compile("|".join(alternatives), re.IGNORECASE), owner


@lru_cache(maxsize=1)
def _words() -> tuple[dict[str, str], tuple[str, ...], int]:
    """Colour word -> its name; the Chinese words, longest first; the most tokens an English word has."""
    owner = {w.lower(): name for name, r in colour_ranges().items() for w in r.words}
    chinese = tuple(sorted((w for w in owner if not w.isascii()), key=len, reverse=True))
    return owner, chinese, max(len(w.split()) for w in owner if w.isascii())


def _said(text: str) -> list[tuple[int, str, str]]:
    """(position, name, words) of each colour word of `text`, in order: English words as whole words (runs of word
    characters, several words one space apart, longest first: "dark blue" is not also "blue"), Chinese ones as
    substrings (longest first). As :func:`_word_pattern` finds them, without its alternation of 150 words (ms)."""
    lower = text.lower()
    owner, chinese, most = _words()
    found: list[tuple[int, str, str]] = []
    tokens = list(re.finditer(r"\w+", lower))
    i = 0
    while i < len(tokens):
        for n in range(min(most, len(tokens) - i), 0, -1):
            run = tokens[i:i + n]
            words = lower[run[0].start():run[-1].end()]
            if words in owner and all(lower[a.end():b.start()] == " " for a, b in zip(run, run[1:])):
                found.append((run[0].start(), owner[words], text[run[0].start():run[-1].end()]))
                i += n
                break
        else:
            i += 1
    taken: list[tuple[int, int]] = []
    for word in chinese:
        at = lower.find(word)
        while at >= 0:
            if not any(a < at + len(word) and at < b for a, b in taken):
                taken.append((at, at + len(word)))
                found.append((at, owner[word], text[at:at + len(word)]))
            at = lower.find(word, at + 1)
    return sorted(found)


def colour_names_in(text: str | None) -> list[str]:
    """The colour names an instruction mentions in words, in order of appearance, without repeats."""
    if not text:
        return []
    names: list[str] = []
    for _, name, _ in _said(text):
        if name not in names:
            names.append(name)
    return names


@dataclass(frozen=True)
class ColourSaid:
    """A colour a text names: its name in ``colour_names.json``, the words that said it and where."""

    name: str
    words: str
    at: int


#: a colour said in one character before 字 (text) or 底 (background): "深蓝底白字", "红灯用红字"
_CHARACTER_COLOUR = re.compile(r"([红橙黄绿青蓝紫黑白灰粉棕])(?=[字底])")
#: a light tint said without 色: "淡蓝底", "浅橙的" (read as 淡蓝色, 浅橙色)
_TINT = re.compile(r"[浅淡][红橙黄绿青蓝紫灰粉棕](?!色)")


def colours_said(text: str | None) -> list[ColourSaid]:
    """The colours `text` names, in order of appearance, without repeats: its colour words, and a Chinese colour
    said in one character before 字 or 底 ("白字" is white text, as "白色" names it; not the 蓝 of "深蓝底"), and a light
    tint said without 色 ("淡蓝" as "淡蓝色")."""
    if not text:
        return []
    found = _said(text)
    spans = [(start, start + len(words)) for start, _, words in found]
    for m in _TINT.finditer(text):
        name = colour_family(m.group(0) + "色")
        if name is not None and not any(a <= m.start() < b for a, b in spans):
            found.append((m.start(), name, m.group(0)))
            spans.append((m.start(), m.end()))
    for m in _CHARACTER_COLOUR.finditer(text):
        name = colour_family(m.group(1) + "色")
        if name is not None and not any(a <= m.start() < b for a, b in spans):
            found.append((m.start(), name, m.group(1)))
    out: list[ColourSaid] = []
    for at, name, words in sorted(found):
        if all(s.name != name for s in out):
            out.append(ColourSaid(name, words, at))
    return out


def colour_hex(name: str) -> str:
    """The RRGGBB a request naming colour `name` (a ``colour_names.json`` name) means."""
    return colour_ranges()[name].hex


def colour_family(name: str) -> str | None:
    """The one colour family `name` names, as ``colour_names.json`` spells it ("light grey" -> "light gray",
    "浅灰色" -> "light gray"); None when it names none or several."""
    found = colour_names_in(name)
    return found[0] if len(found) == 1 else None


def names_of(hex_rgb: str | None, limit: int = 2) -> list[str]:
    """The names whose ranges hold `hex_rgb`, most specific (smallest range) first, without a name that is the
    last word of one listed ("blue" after "dark blue"), at most `limit`: a short label for people."""
    ranges = [r for r in colour_ranges().values() if r.contains(hex_rgb)]
    names: list[str] = []
    for r in sorted(ranges, key=lambda r: r.size()):
        if len(names) < limit and not any(n.split()[-1] == r.name for n in names):
            names.append(r.name)
    return names


def same_named_colour(expected: str | None, actual: str | None, names: list[str]) -> str | None:
    """The first of `names` that both colours belong to, or None."""
    ranges = colour_ranges()
    return next((n for n in names if ranges[n].contains(expected) and ranges[n].contains(actual)), None)


def _hsv(hex_rgb: str | None) -> tuple[float, float, float] | None:
    if not hex_rgb or not _HEX.fullmatch(hex_rgb):
        return None
    r, g, b = (int(hex_rgb[i:i + 2], 16) / 255 for i in (0, 2, 4))
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    return h * 360, s, v
