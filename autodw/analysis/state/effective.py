"""Effective formatting: what a run or paragraph of an extracted state looks like once document defaults, the
paragraph style chain, the character style chain and direct formatting are resolved (:class:`Formatting`), and a
paragraph's text as maximal stretches of one effective run format (:func:`segments`). The judge compares these
(:mod:`autodw.eval.canonical`); APIs that select text by its formatting read them too."""

from __future__ import annotations

from typing import Any

#: effective run format keys and their value when nothing sets them
RUN_DEFAULTS: dict[str, Any] = {
    "bold": False, "italic": False, "underline": False, "strike": False, "double_strike": False,
    "all_caps": False, "small_caps": False, "hidden": False, "superscript": False, "subscript": False,
    "font": None, "east_asia_font": None, "size_pt": None, "color": None, "highlight": None, "shading": None,
    "char_spacing_pt": 0.0, "position_pt": 0.0, "scale_pct": 100, "outline": False, "shadow": False, "emboss": False,
    "imprint": False,
}
#: run formatting that stays visible on spaces (the rest is ignored on whitespace-only text): lines and fills drawn
#: over them, and character spacing and width scale, which widen a space as any character
VISIBLE_ON_SPACES = ("underline", "strike", "double_strike", "highlight", "shading", "char_spacing_pt", "scale_pct")
#: run formatting a style can give (in the state's style entries)
STYLE_RUN_KEYS = ("font", "east_asia_font", "size_pt", "bold", "italic", "color", "underline", "strike", "double_strike",
                  "all_caps", "small_caps", "hidden", "superscript", "subscript", "highlight", "char_spacing_pt",
                  "position_pt", "scale_pct", "outline", "shadow", "emboss", "imprint")
# (not a style's run shading: a style entry's "shading" is its paragraph shading)
#: toggle properties (ECMA-376 17.7.3): a character style that sets one turns over what the paragraph's style gives
#: (Strong on a bold heading's word makes it not bold); direct formatting sets them outright
TOGGLE_KEYS = ("bold", "italic", "strike", "double_strike", "all_caps", "small_caps", "hidden", "outline", "shadow",
               "emboss", "imprint")
#: Word's paragraph values when neither the document defaults nor a style set them
_PARAGRAPH_BASE: dict[str, Any] = {
    "alignment": "left",
    "spacing": {"before_pt": 0.0, "after_pt": 0.0, "line": 1.0, "line_rule": "multiple", "before_lines": 0.0,
                "after_lines": 0.0, "before_auto": False, "after_auto": False},
    "indent": {"left_cm": 0.0, "right_cm": 0.0, "first_line_cm": 0.0, "left_chars": 0.0, "right_chars": 0.0,
               "first_line_chars": 0.0},
    "keep_with_next": False, "page_break_before": False, "border": {}, "keep_together": False, "shading": None,
    "rtl": False, "tabs": None, "contextual_spacing": False,
}
#: paragraph formatting a style can give (in the state's style entries)
STYLE_PARAGRAPH_KEYS = ("alignment", "spacing", "indent", "keep_with_next", "page_break_before", "border",
                        "keep_together", "shading", "rtl", "tabs", "contextual_spacing")
#: a length and the count Word uses instead when it is not 0 (indents in characters, spacing in lines)
_COUNTED = {"indent": (("left_cm", "left_chars"), ("right_cm", "right_chars"), ("first_line_cm", "first_line_chars")),
            "spacing": (("before_pt", "before_lines"), ("after_pt", "after_lines"))}
#: paragraph properties only the paragraph itself has (in the state), with their absent value
_DIRECT_PARAGRAPH_DEFAULTS: dict[str, Any] = {"content_control": None, "ends_section": False}


class Formatting:
    """Effective formatting of one document's paragraphs and runs."""

    def __init__(self, styles: dict[str, Any], paragraph_defaults: dict[str, Any] | None = None):
        """`styles`: the state's "styles" part; `paragraph_defaults`: the paragraph formatting of ``w:docDefaults``."""
        self._theme: dict[str, str] = styles["defaults"].get("theme_fonts") or {}
        self.styles: dict[str, dict[str, Any]] = {s["name"]: s for s in styles["styles"]}
        self._run_base = {**RUN_DEFAULTS, **{k: v for k, v in styles["defaults"].items() if k in RUN_DEFAULTS}}
        self._run_base["font"] = self._font(self._run_base["font"])
        self._para_base = _merge_paragraph(_copy(_PARAGRAPH_BASE), paragraph_defaults or {})
        self._chains: dict[str | None, list[dict[str, Any]]] = {}
        self._style_runs: dict[str | None, dict[str, Any]] = {}

    def _font(self, font: Any) -> Any:
        """A font name; a theme font ("theme:minorHAnsi") as the theme's font of its slot when the state knows it (an
        East Asian or complex-script slot as the theme's East Asian or complex-script font, never the Latin one)."""
        if isinstance(font, str) and font.startswith("theme:"):
            slot = font[len("theme:"):]
            return self._theme.get(slot[:5] if slot.endswith(("HAnsi", "Ascii")) else slot, font)
        return font

    def chain(self, name: str | None) -> list[dict[str, Any]]:
        """The style and its bases, base first (styles missing from the state end the chain)."""
        if name not in self._chains:
            out: list[dict[str, Any]] = []
            seen: set[str] = set()
            current = name
            while current and current not in seen and current in self.styles:
                seen.add(current)
                out.append(self.styles[current])
                current = self.styles[current].get("based_on")
            self._chains[name] = out[::-1]
        return self._chains[name]

    def _style_run(self, paragraph_style: str | None) -> dict[str, Any]:
        if paragraph_style not in self._style_runs:
            fmt = dict(self._run_base)
            for style in self.chain(paragraph_style):
                _layer(fmt, {k: style[k] for k in STYLE_RUN_KEYS if k in style})
            self._style_runs[paragraph_style] = fmt
        return self._style_runs[paragraph_style]

    def run(self, run: dict[str, Any], paragraph_style: str | None) -> dict[str, Any]:
        """The effective format of a run in a paragraph of `paragraph_style`."""
        fmt = dict(self._style_run(paragraph_style))
        character: dict[str, Any] = {}
        for style in self.chain(run.get("style")):
            _layer(character, {k: style[k] for k in STYLE_RUN_KEYS if k in style})
        layer = {k: v for k, v in character.items() if k not in TOGGLE_KEYS}  # a toggle set off changes nothing
        layer.update({k: not fmt[k] for k in TOGGLE_KEYS if character.get(k)})
        _layer(fmt, layer)
        _layer(fmt, {k: v for k, v in run.items() if k in RUN_DEFAULTS})
        return self._seen(fmt)

    def style(self, name: str | None) -> dict[str, Any]:
        """What a style gives (None: the document defaults): the run formatting of its chain over the defaults, as
        :meth:`run` resolves it, and the paragraph formatting of its chain, as :meth:`paragraph` does."""
        return {**self._seen(dict(self._style_run(name))), **self.paragraph({"style": name})}

    def _seen(self, fmt: dict[str, Any]) -> dict[str, Any]:
        """A run format as it looks: a theme font as the theme's font, black as automatic, underline "none" as none."""
        fmt["font"] = self._font(fmt["font"])
        if fmt["color"] in ("000000", "auto"):  # automatic text is black on the page
            fmt["color"] = None
        if fmt["underline"] == "none":
            fmt["underline"] = False
        return fmt

    def paragraph(self, para: dict[str, Any]) -> dict[str, Any]:
        """Effective paragraph properties (style chain and direct formatting resolved), without style and text."""
        props = _copy(self._para_base)
        lst = para.get("list")
        # a list level's indent: over the paragraph style's, but under it when the style makes the paragraph a list
        level = [{"indent": lst["indent"]}] if lst and lst.get("indent") else []
        styles = [{k: style[k] for k in STYLE_PARAGRAPH_KEYS if k in style} for style in self.chain(para.get("style"))]
        for layer in level + styles if lst and lst.get("by_style") else styles + level:
            _merge_paragraph(props, layer)
        _merge_paragraph(props, {k: para[k] for k in STYLE_PARAGRAPH_KEYS if k in para})
        props.update({k: para.get(k, v) for k, v in _DIRECT_PARAGRAPH_DEFAULTS.items()})
        props["border"] = drawn(props["border"])  # a side "none" takes away a line the style gives
        _in_use(props)
        props["list"] = {k: lst.get(k) for k in ("kind", "level", "format", "level_text", "label")} if lst else None
        return props


def _layer(fmt: dict[str, Any], layer: dict[str, Any]) -> None:
    """Apply one layer of run formatting: raised text set by a layer is not lowered any more, and the reverse."""
    fmt.update(layer)
    for key, other in (("superscript", "subscript"), ("subscript", "superscript")):
        if layer.get(key) and not layer.get(other):
            fmt[other] = False


def drawn(sides: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]] | None:
    """The sides of a border that have a line (None if none has)."""
    return {side: line for side, line in sides.items() if line.get("style") != "none"} or None


def _copy(d: dict[str, Any]) -> dict[str, Any]:
    return {k: dict(v) if isinstance(v, dict) else v for k, v in d.items()}


def _merge_paragraph(props: dict[str, Any], layer: dict[str, Any]) -> dict[str, Any]:
    """Apply one layer of paragraph formatting: spacing, indentation and border sides key by key, the rest whole."""
    for key, value in layer.items():
        if key in ("spacing", "border"):
            props[key] = {**props[key], **value}
        elif key == "tabs":
            props[key] = _merge_tabs(props[key], value)
        elif key == "indent":
            indent = dict(props["indent"])
            for k, v in value.items():
                if k in ("hanging_cm", "hanging_chars"):
                    indent[k.replace("hanging", "first_line")] = -v if v else 0.0
                elif k in indent:
                    indent[k] = v
            props["indent"] = indent
        elif key in _PARAGRAPH_BASE:
            props[key] = value
    return props


def _in_use(props: dict[str, Any]) -> None:
    """Keep, of each indent and spacing, the value Word goes by: the characters or lines when not 0 (each attribute is
    inherited on its own, so a 0 count written over a style's count brings back the length), else the length; automatic
    spacing before or after over both."""
    for key, pairs in _COUNTED.items():
        values = dict(props[key])
        for length, count in pairs:
            side = length.split("_")[0]
            if values.get(f"{side}_auto"):
                values.pop(length)
                values.pop(count)
            else:
                values.pop(length if values.get(count) else count)
        props[key] = values


def _merge_tabs(stops: list[dict[str, Any]] | None, layer: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """Tab stops as Word merges them along the style chain: a layer's stop replaces the one at its position, a stop
    of alignment "clear" takes it away; by position (None if none is left)."""
    by_position = {stop["position_cm"]: stop for stop in stops or ()}
    for stop in layer:
        if stop.get("alignment") == "clear":
            by_position.pop(stop["position_cm"], None)
        else:
            by_position[stop["position_cm"]] = stop
    return [by_position[k] for k in sorted(by_position, key=lambda k: (k is None, k or 0))] or None


def segments(para: dict[str, Any], fmt: Formatting) -> list[tuple[int, int, dict[str, Any]]]:
    """(start, end, effective format) stretches of the paragraph's text, adjacent equal formats merged."""
    out: list[tuple[int, int, dict[str, Any]]] = []
    pos = 0
    style = para.get("style")
    for run in para.get("runs", []):
        text = run.get("text", "")
        if not text:
            continue
        f = fmt.run(run, style)
        if out and out[-1][2] == f and out[-1][1] == pos:
            out[-1] = (out[-1][0], pos + len(text), f)
        else:
            out.append((pos, pos + len(text), f))
        pos += len(text)
    return out


def dominant_format(para: dict[str, Any], fmt: Formatting) -> dict[str, Any] | None:
    """The effective run format that covers most of the paragraph's visible characters."""
    weight: dict[tuple, int] = {}
    formats: dict[tuple, dict[str, Any]] = {}
    text = para.get("text", "")
    for start, end, f in segments(para, fmt):
        key = tuple(sorted((k, str(v)) for k, v in f.items()))
        formats[key] = f
        weight[key] = weight.get(key, 0) + sum(1 for ch in text[start:end] if not ch.isspace())
    return formats[max(weight, key=weight.get)] if weight else None
