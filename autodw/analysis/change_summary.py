"""A short human-readable summary of a change analysis, for the validator prompt and the console."""

from __future__ import annotations

from typing import Any

from autodw.analysis.changes import TABLE_KEYS, Change
from autodw.analysis.state.blocks import side_order
from autodw.core.units import color_name

WHOLE_TEXT_BELOW = 0.5  # a text edited in three or more pieces, less than half of it kept, is shown before -> after


def summarize_change(change: Change, max_lines: int = 40) -> str:
    """One line per change, most structural first; says how many lines were left out."""
    lines = (_structural(change["structural"]) + _content(change["content"]) + _format(change["format"])
             + _style(change["style"]) + _table(change["table"]) + _interactive(change["hyperlink"]))
    if not lines:
        return "No change detected in the document state."
    if len(lines) > max_lines:
        left = len(lines) - max_lines
        lines = lines[:max_lines] + [f"... and {left} more change line(s) not shown"]
    return "\n".join(lines)


def _q(text: Any) -> str:
    return repr(text) if isinstance(text, str) else str(text)


def _q_value(key: str, value: Any) -> str:
    """A changed property's value; colours also by name, since "FF0000" means little to a language model; borders
    side by side as lines ("double 1.5pt 1F4E79")."""
    if key in ("border", "borders") and isinstance(value, dict):
        return _q(_lines(value))
    if key == "table" and isinstance(value, dict) and isinstance(value.get("borders"), dict):  # a table style's
        return _q({**value, "borders": _lines(value["borders"])})
    if isinstance(value, str) and ("color" in key or "colour" in key or "fill" in key or "shading" in key):
        name = color_name(value)
        if name:
            return f"{value!r} ({name})"
    return _q(value)


def _lines(sides: dict[str, Any]) -> dict[str, Any]:
    """The sides of a border in their fixed order (top, left, bottom, right, ...), each line as "style 1.5pt 1F4E79"."""
    return {side: _line(line) for side, line in sorted(sides.items(), key=lambda item: side_order(item[0]))}


def _line(line: Any) -> Any:
    if not isinstance(line, dict):
        return line
    width = f"{line['width_pt']:g}pt" if isinstance(line.get("width_pt"), (int, float)) else None
    return " ".join(str(part) for part in (line.get("style", "none"), width, line.get("color")) if part)


def _structural(s: dict[str, Any]) -> list[str]:
    out = []
    for key, (b, a) in s.get("counts", {}).items():
        out.append(f"{key.replace('_', ' ')}: {b} -> {a}")
    for kind in ("paragraphs", "tables"):
        noun = kind[:-1]
        for e in s.get(f"{kind}_added", []):
            detail = f" ({e['style']}): {_q(e['text'])}" if "text" in e else f" ({e.get('size')})"
            out.append(f"added {noun} {e['id']} at index {e['index']}{detail}")
        for e in s.get(f"{kind}_removed", []):
            detail = f": {_q(e['text'])}" if "text" in e else f" ({e.get('size')})"
            out.append(f"removed {noun} {e['id']} (was index {e['index']}){detail}")
        for e in s.get(f"{kind}_moved", []):
            out.append(f"moved {noun} {e['id']} from index {e['from']} to {e['to']}")
    images = s.get("images", {})
    for e in images.get("added", []):
        out.append(f"added {e.get('type', 'image')} {e['id']} in {e.get('paragraph')}"
                   + (f" ({e.get('width_cm')}x{e.get('height_cm')} cm)" if e.get("width_cm") else ""))
    for e in images.get("removed", []):
        out.append(f"removed {e.get('type', 'image')} {e['id']}")
    for e in images.get("changed", []):
        out.append(f"{e['id']}: " + "; ".join(f"{k} {_q(b)} -> {_q(a)}" for k, (b, a) in e["changes"].items()))
    for e in s.get("page_layout", []) + s.get("document_info", []):
        out.append(f"{e['path']}: {_q(e['before'])} -> {_q(e['after'])}")
    return out


def _content(c: dict[str, Any]) -> list[str]:
    out = []
    for e in c.get("text_edits", []):
        where = f"cell ({e['cell']['row']},{e['cell']['col']}) of {e['cell']['table']}" if "cell" in e else f"index {e.get('index')}"
        if "story" in e:
            where += f", in the {e['story'].replace(':', ' ')}"
        if len(e["opcodes"]) > 2 and e.get("kept", 1.0) < WHOLE_TEXT_BELOW:  # edits in pieces: say it as a whole
            out.append(f"text of {e['paragraph']} ({where}): {_q(e['before'])} -> {_q(e['after'])}")
            continue
        ops = []
        for tag, i1, i2, _, _, old, new in e["opcodes"][:4]:
            if tag == "insert":
                ops.append(f"inserted {_q(new)} at {i1}")
            elif tag == "delete":
                ops.append(f"deleted {_q(old)} at {i1}")
            else:
                ops.append(f"replaced {_q(old)} with {_q(new)} at {i1}")
        more = f" (+{len(e['opcodes']) - 4} more edits)" if len(e["opcodes"]) > 4 else ""
        out.append(f"text of {e['paragraph']} ({where}): " + "; ".join(ops) + more)
    return out


def _format(f: dict[str, Any]) -> list[str]:
    out = []
    for e in f.get("runs", []):
        changes = ", ".join(f"{k} {_q_value(k, b)} -> {_q_value(k, a)}" for k, (b, a) in e["changes"].items())
        out.append(f"format of {_paragraph(e)} chars {e['start']}-{e['end']} {_q(e['text'])}: {changes}")
    for e in f.get("paragraphs", []):
        out.append(f"{e['property']} of {_paragraph(e)}: {_q_value(e['property'], e['before'])} -> "
                   f"{_q_value(e['property'], e['after'])}")
    return out


def _paragraph(e: dict[str, Any]) -> str:
    return e["paragraph"] + _in_story(e)


def _in_story(e: dict[str, Any]) -> str:
    """" (in the header default)" for a change in a header or footer, else nothing."""
    return f" (in the {e['story'].replace(':', ' ')})" if "story" in e else ""


def _style(s: dict[str, Any]) -> list[str]:
    out = [f"style of {_paragraph(e)}: {_q(e['before'])} -> {_q(e['after'])}" for e in s.get("paragraph_styles", [])]
    out += [f"style {_q(e['style'])} {e['property']}: {_q_value(e['property'], e['before'])} -> "
            f"{_q_value(e['property'], e['after'])}" for e in s.get("definitions", [])]
    if s.get("styles_now_in_use"):
        out.append("styles now in use: " + ", ".join(s["styles_now_in_use"]))
    if "defaults" in s:
        out.append(f"document defaults: {s['defaults']['before']} -> {s['defaults']['after']}")
    return out


def _table(t: dict[str, Any]) -> list[str]:
    out = []
    for e in t.get("tables", []):
        tid = e["table"] + _in_story(e)
        if e.get("added"):
            out.append(f"added table {tid} ({e['size']}), first rows: {e['cells'][:3]}")
            continue
        if e.get("removed"):
            out.append(f"removed table {tid}")
            continue
        if "size" in e:
            out.append(f"table {tid} size {e['size'][0]} -> {e['size'][1]}")
        for label, words in (("rows_inserted", "row inserted"), ("rows_deleted", "row deleted"),
                             ("columns_inserted", "column inserted"), ("columns_deleted", "column deleted")):
            for x in e.get(label, []):
                out.append(f"table {tid}: {words} at {x['index']}: {x['cells'][:6]}")
        for c in sorted(e.get("cells_changed", []), key=lambda c: "before" not in c)[:12]:  # text edits first
            what = ([f"{_q(c['before'])} -> {_q(c['after'])}"] if "before" in c else []) + [
                f"{k} {_q_value(k, b)} -> {_q_value(k, a)}" for k, (b, a) in c.get("format", {}).items()] + (
                ["span or merge changed"] if c.get("structure") else [])
            out.append(f"table {tid} cell ({c['row']},{c['col']}): " + "; ".join(what))
        if len(e.get("cells_changed", [])) > 12:
            out.append(f"table {tid}: {len(e['cells_changed']) - 12} more cells changed")
        for key in TABLE_KEYS:
            if key in e:
                out.append(f"table {tid} {key}: {_q_value(key, e[key][0])} -> {_q_value(key, e[key][1])}")
    return out


def _interactive(h: dict[str, Any]) -> list[str]:
    out = []
    for key, diff in h.items():
        noun = key.replace("_", " ")
        for e in diff.get("added", []):
            out.append(f"added {noun[:-1] if noun.endswith('s') else noun}: {_fields(e)}")
        for e in diff.get("removed", []):
            out.append(f"removed {noun[:-1] if noun.endswith('s') else noun}: {_fields(e)}")
        for e in diff.get("changed", []):
            out.append(f"{noun[:-1]} {e.get('id')}: " + "; ".join(f"{k} {_q(b)} -> {_q(a)}" for k, (b, a) in e["changes"].items()))
    return out


def _fields(e: dict[str, Any]) -> str:
    return ", ".join(f"{k}={_q(v)}" for k, v in e.items())
