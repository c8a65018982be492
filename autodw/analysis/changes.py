"""``analyze_change``: what an edit did, in the six parts of the AutoDW paper's Eq. 2.

structural  element counts, added/removed/moved paragraphs, tables, images; page layout and
            document properties (deepdiff)
content     paragraph text edits as SequenceMatcher opcodes (insert/delete/replace) over words (a CJK character
            is a word), in character offsets, and the share of the text left as it was
format      run-level formatting changes on aligned characters; paragraph format changes
style       paragraph style changes; style definition changes
table       per-table size, rows/columns inserted or deleted, cell changes by signature
            hash(content || structure || position || merge), merges, widths, style
hyperlink   hyperlinks and the other interactive elements: bookmarks, comments, notes,
            breaks, fields, tracked changes

Both inputs are states from :func:`autodw.analysis.state.extract_state`; elements are matched by id.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from difflib import SequenceMatcher
from typing import Any, Iterable

from autodw.analysis.state import State, header_footer_stories
from autodw.analysis.state.layout import STORY_DETAILS

Change = dict[str, Any]
CHANGE_KEYS = ("structural", "content", "format", "style", "table", "hyperlink")

_PARA_FORMAT_KEYS = ("alignment", "spacing", "indent", "keep_with_next", "keep_together", "page_break_before",
                     "shading", "border", "rtl", "list", "tabs")
#: a table's settings reported as changed, and a cell's (a cell's are also part of its signature)
TABLE_KEYS = ("style", "alignment", "borders", "column_widths_cm", "row_heights_cm", "header_rows", "merged",
              "after_paragraph", "width", "autofit", "exact_height_rows", "indent_cm", "cell_margins_cm")
CELL_FORMAT_KEYS = ("shading", "vertical_alignment", "borders", "width", "margins_cm", "text_direction")
_COUNT_KEYS = ("paragraph_count", "table_count", "section_count", "image_count", "chart_count", "comment_count")
_SNIP = 60
# words, single CJK characters, white space and single other characters: the units text edits are found in
_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]|[^\W\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]+|\s+|[^\w\s]")


def analyze_change(before: State, after: State) -> Change:
    """The six-part change between two states; every part is empty when nothing changed."""
    paras_before, paras_after = _all_paragraphs(before), _all_paragraphs(after)
    kept = _kept_stories(before, after)
    # a header's or footer's text: edits of its paragraphs when it kept them all, else its whole text in the page
    # layout's change; its tables' cells are the table change's
    texts_before, texts_after = ({k: p for k, p in ps.items() if "story" not in p or p.get("part") in kept and "cell" not in p}
                                 for ps in (paras_before, paras_after))
    return {
        "structural": _structural(before, after, kept),
        "content": _content(texts_before, texts_after),
        "format": _format(paras_before, paras_after, kept),
        "style": _style(before, after, paras_before, paras_after),
        "table": _tables(before, after),
        "hyperlink": _interactive(before, after),
    }


def has_changes(change: Change) -> bool:
    """True if any part of `change` records something."""
    return any(bool(change[k]) for k in CHANGE_KEYS)


# --- paragraphs ---------------------------------------------------------------------


def removed_paragraphs(change: Change) -> list[tuple[str, int]]:
    """The body paragraphs a change removed, each as (its id, its index before the change)."""
    return [(e["id"], e["index"]) for e in change["structural"].get("paragraphs_removed", [])]


_STORY_TEXT = re.compile(r"sections\[(?P<section>\d+)\]\.(?P<where>headers|footers)\.(?P<kind>\w+)\.text")


def removed_texts(change: Change, before: State) -> list[tuple[str, str]]:
    """What a change removed, whole, as the document held it `before`: each removed body paragraph (its id, its
    text), each header's or footer's text it replaced or cleared (``"header[default] of section 0"``, as the views
    name it) and each deleted table row or column (``"row 4 of t1"``, its cells joined by " | "); texts that were
    empty are left out."""
    paragraphs = {p["id"]: p.get("text", "") for p in before.get("paragraphs", [])}
    out = [(e["id"], paragraphs.get(e["id"], e.get("text", ""))) for e in change["structural"].get("paragraphs_removed", [])]
    for e in change["structural"].get("page_layout", []):
        story = _STORY_TEXT.fullmatch(e["path"])
        if story and isinstance(e["before"], str) and e["before"] != e["after"]:
            out.append((f"{story['where'][:-1]}[{story['kind']}] of section {story['section']}", e["before"]))
    tables = {t["id"]: t for t in _all_tables(before)}
    for e in change["table"].get("tables", []):
        cells = tables.get(e["table"], {}).get("cells", [])
        for x in e.get("rows_deleted", []):
            if x["index"] < len(cells):
                out.append((f"row {x['index']} of {e['table']}", " | ".join(cells[x["index"]])))
        for x in e.get("columns_deleted", []):
            out.append((f"column {x['index']} of {e['table']}",
                        " | ".join(row[x["index"]] for row in cells if x["index"] < len(row))))
    return [(what, text) for what, text in out if text.strip(" |")]


def _all_paragraphs(state: State) -> dict[str, dict[str, Any]]:
    """The body's, headers' and footers' paragraphs and their tables' cell paragraphs by id (cell ones carry a 'cell'
    location, header and footer ones a 'story': "header:default")."""
    out = {p["id"]: p for p in state["paragraphs"] if p.get("id")}
    for _, name, story in header_footer_stories(state, once=True):
        out.update({p["id"]: {**p, "story": name, "part": story.get("part")} for p in story.get("paragraph_details", [])
                    if p.get("id")})
    for t in _all_tables(state):
        for r, row in enumerate(t.get("cell_details", [])):
            for c, cell in enumerate(row):
                for p in (cell or {}).get("paragraphs", []):
                    if p.get("id"):
                        out[p["id"]] = {**p, "cell": {"table": t["id"], "row": r, "col": c},
                                        **_story(t)}
    return out


def _kept_stories(before: State, after: State) -> set[str]:
    """The header and footer parts shown before and after with the same paragraphs: their text and alignments are
    compared paragraph by paragraph (the others' in the page layout's change, as whole texts)."""
    paragraphs_before = {story.get("part"): story.get("paragraphs")
                         for *_, story in header_footer_stories(before, once=True)}
    return {story.get("part") for *_, story in header_footer_stories(after, once=True)
            if paragraphs_before.get(story.get("part"), False) == story.get("paragraphs")}


def _story(element: dict[str, Any]) -> dict[str, str]:
    """{"story": "header:default"} for a header's or footer's paragraph or table, {} for the body's."""
    return {"story": element["story"]} if "story" in element else {}


def _all_tables(state: State) -> list[dict[str, Any]]:
    """The body's tables, then the headers' and footers' (each with its 'story')."""
    return state["tables"] + [{**t, "story": name, "part": story.get("part")}
                              for _, name, story in header_footer_stories(state, once=True)
                              for t in story.get("table_details", [])]


def _snip(text: str, limit: int = _SNIP) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _where(p: dict[str, Any]) -> dict[str, Any]:
    if "cell" in p:
        return {"cell": p["cell"], **_story(p)}
    return {"index": p.get("index"), **_story(p)}


def _content(before: dict[str, dict], after: dict[str, dict]) -> Change:
    edits = []
    for pid, a in after.items():
        b = before.get(pid)
        if b is None or b["text"] == a["text"]:
            continue
        ops, kept = text_edits(b["text"], a["text"])
        edits.append({"paragraph": pid, **_where(a), "before": _snip(b["text"], 200), "after": _snip(a["text"], 200),
                      "opcodes": ops, "kept": kept})
    return {"text_edits": edits} if edits else {}


def text_edits(before: str, after: str) -> tuple[list[list[Any]], float]:
    """The edits turning `before` into `after`, found word by word (white space never anchors a match) and given as
    ``[tag, i1, i2, j1, j2, old, new]`` in character offsets, and the share of the longer text left as it was."""
    tb, ta = _TOKEN.findall(before), _TOKEN.findall(after)
    ob, oa = _offsets(tb), _offsets(ta)
    spans = []  # in character offsets, equal spans too
    for tag, i1, i2, j1, j2 in SequenceMatcher(str.isspace, tb, ta, autojunk=False).get_opcodes():
        c1, c2, d1, d2 = ob[i1], ob[i2], oa[j1], oa[j2]
        inner = _letters_only(before[c1:c2], after[d1:d2]) if tag == "replace" else None
        if inner is None:
            spans.append((tag, c1, c2, d1, d2))
        else:
            spans.extend((t, c1 + i1, c1 + i2, d1 + j1, d1 + j2) for t, i1, i2, j1, j2 in inner)
    ops, equal = [], 0
    for tag, c1, c2, d1, d2 in joined_edits(spans, before, after):
        if tag == "equal":
            equal += c2 - c1
        else:
            ops.append([tag, c1, c2, d1, d2, before[c1:c2], after[d1:d2]])
    return ops, round(equal / max(len(before), len(after), 1), 3)


def joined_edits(opcodes: Iterable[tuple[str, int, int, int, int]], before: str,
                 after: str) -> list[tuple[str, int, int, int, int]]:
    """SequenceMatcher-style `opcodes` turning `before` into `after`, with two edits around a matched stretch made one
    insertion (or deletion) wherever the three together only insert (delete) text: the matcher ties new text to the
    first place it matches, so putting "a.b" before "." gives insert "a", keep ".", insert "b." (the old "." matched
    to the one inside the new text) instead of insert "a.b"."""
    out: list[list[Any]] = []

    def add(op: list[Any]) -> None:
        if op[1] == op[2] and op[3] == op[4]:
            return
        if op[0] == "equal" and out and out[-1][0] == "equal":
            out[-1][2], out[-1][4] = op[2], op[4]
        else:
            out.append(op)

    for op in opcodes:
        add(list(op))
        while len(out) >= 3 and out[-1][0] != "equal" and out[-2][0] == "equal" and out[-3][0] != "equal":
            i1, i2, j1, j2 = out[-3][1], out[-1][2], out[-3][3], out[-1][4]
            old, new = before[i1:i2], after[j1:j2]
            short, long_ = sorted((old, new), key=len)
            if len(short) == len(long_) or not (long_.endswith(short) or long_.startswith(short)):
                break
            tag, n = ("insert", len(new) - len(old)) if long_ is new else ("delete", len(old) - len(new))
            del out[-3:]
            if long_.endswith(short):  # the edit first, then the kept text
                pieces = [[tag, i1, i1 + (n if tag == "delete" else 0), j1, j1 + (n if tag == "insert" else 0)],
                          ["equal", i2 - len(short), i2, j2 - len(short), j2]]
            else:  # the kept text, then the edit
                pieces = [["equal", i1, i1 + len(short), j1, j1 + len(short)],
                          [tag, i1 + len(short), i2, j1 + len(short), j2]]
            for piece in pieces:
                add(piece)
    return [tuple(op) for op in out]


def _letters_only(old: str, new: str) -> list[tuple[str, int, int, int, int]] | None:
    """The character edits of a replaced word when they only insert or delete letters ("colour" -> "color"), else
    None (a replaced word is clearer as a whole than as replaced letters)."""
    ops = SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    return None if any(t == "replace" for t, *_ in ops) else ops


def _offsets(tokens: list[str]) -> list[int]:
    out = [0]
    for t in tokens:
        out.append(out[-1] + len(t))
    return out


def _char_formats(p: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for run in p.get("runs", []):
        fmt = {k: v for k, v in run.items() if k != "text"}
        out.extend([fmt] * len(run["text"]))
    return out


def _unlabelled(lst: dict[str, Any] | None) -> dict[str, Any] | None:
    """A paragraph's list settings without the number it shows: an item added to a list renumbers the ones after
    it, which is not a change to them (their settings are compared)."""
    return {k: v for k, v in lst.items() if k != "label"} if lst else lst


def _format(before: dict[str, dict], after: dict[str, dict], kept: set[str]) -> Change:
    runs, paras = [], []
    for pid, a in after.items():
        b = before.get(pid)
        if b is None or b == a:  # an unchanged paragraph (most of them) has nothing to compare
            continue
        story = _story(a)
        for key in _PARA_FORMAT_KEYS:
            if key == "alignment" and story and "cell" not in a and a.get("part") not in kept:  # the page layout's
                continue
            vb, va = b.get(key), a.get(key)
            if key == "list":
                vb, va = _unlabelled(vb), _unlabelled(va)
            if (vb or None) != (va or None):  # a flag written off, or an empty setting, is no setting
                paras.append({"paragraph": pid, **story, "property": key, "before": vb, "after": va})
        if b.get("runs") == a.get("runs"):
            continue
        fb, fa = _char_formats(b), _char_formats(a)
        matcher = SequenceMatcher(None, b["text"], a["text"], autojunk=False)
        for _, ba, bend, bb, _ in (op for op in joined_edits(matcher.get_opcodes(), b["text"], a["text"])
                                    if op[0] == "equal"):
            span_start, span_diff = None, None
            for k in range(bend - ba + 1):
                diff = None
                if k < bend - ba:
                    ob, oa = fb[ba + k], fa[bb + k]
                    if ob != oa:
                        diff = {key: [ob.get(key), oa.get(key)] for key in sorted(set(ob) | set(oa)) if ob.get(key) != oa.get(key)}
                if diff != span_diff:
                    if span_diff:
                        j1, j2 = bb + span_start, bb + k
                        runs.append({"paragraph": pid, **story, "start": j1, "end": j2,
                                     "text": _snip(a["text"][j1:j2]), "changes": span_diff})
                    span_start, span_diff = k, diff
    out: Change = {}
    if runs:
        out["runs"] = runs
    if paras:
        out["paragraphs"] = paras
    return out


def _style(before: State, after: State, pb: dict[str, dict], pa: dict[str, dict]) -> Change:
    out: Change = {}
    changed = [{"paragraph": pid, **_story(a), "before": pb[pid].get("style"), "after": a.get("style")}
               for pid, a in pa.items() if pid in pb and pb[pid].get("style") != a.get("style")]
    if changed:
        out["paragraph_styles"] = changed
    sb = {s["name"]: s for s in before["styles"]["styles"]}
    sa = {s["name"]: s for s in after["styles"]["styles"]}
    definitions = []
    for name, s in sa.items():
        if name in sb and sb[name] != s:
            for key in sorted(set(s) | set(sb[name])):
                if s.get(key) != sb[name].get(key):
                    definitions.append({"style": name, "property": key, "before": sb[name].get(key), "after": s.get(key)})
    if definitions:
        out["definitions"] = definitions
    added = sorted(set(sa) - set(sb))
    if added:
        out["styles_now_in_use"] = added
    if before["styles"]["defaults"] != after["styles"]["defaults"]:
        out["defaults"] = {"before": before["styles"]["defaults"], "after": after["styles"]["defaults"]}
    return out


# --- structure ----------------------------------------------------------------------


def _structural(before: State, after: State, kept: set[str]) -> Change:
    out: Change = {}
    ib, ia = before["document_info"], after["document_info"]
    counts = {k: [ib.get(k), ia.get(k)] for k in _COUNT_KEYS if ib.get(k) != ia.get(k)}
    if counts:
        out["counts"] = counts
    for kind in ("paragraphs", "tables"):
        added, removed, moved = _sequence_changes(before[kind], after[kind])
        for label, items in (("added", added), ("removed", removed), ("moved", moved)):
            if items:
                out[f"{kind}_{label}"] = items
    images = _keyed_changes(before["images"], after["images"], key="id",
                            fields=("type", "placement", "width_cm", "height_cm", "alt_text", "wrap", "position",
                                    "paragraph", "file", "chart_type", "title", "legend", "categories", "series"))
    if images:
        out["images"] = images
    layout = deep_changes(_without_story_details(before["page_layout"], kept),
                          _without_story_details(after["page_layout"], kept))
    if layout:
        out["page_layout"] = layout
    info = deep_changes({k: v for k, v in ib.items() if k not in _COUNT_KEYS and k != "word_count"},
                        {k: v for k, v in ia.items() if k not in _COUNT_KEYS and k != "word_count"})
    if info:
        out["document_info"] = info
    return out


def _sequence_changes(before: list[dict], after: list[dict]) -> tuple[list, list, list]:
    """Added, removed and moved elements of an ordered id list."""
    ids_b = [e["id"] for e in before]
    ids_a = [e["id"] for e in after]
    set_b, set_a = set(ids_b), set(ids_a)
    by_a = {e["id"]: e for e in after}
    by_b = {e["id"]: e for e in before}
    added = [_brief(by_a[i]) for i in ids_a if i not in set_b]
    removed = [_brief(by_b[i]) for i in ids_b if i not in set_a]
    common_b = [i for i in ids_b if i in set_a]
    common_a = [i for i in ids_a if i in set_b]
    moved = []
    if common_b != common_a:
        sm = SequenceMatcher(None, common_b, common_a, autojunk=False)
        stay = {common_a[b.b + k] for b in sm.get_matching_blocks() for k in range(b.size)}
        moved = [{"id": i, "from": by_b[i].get("index"), "to": by_a[i].get("index")} for i in common_a if i not in stay]
    return added, removed, moved


def _brief(e: dict[str, Any]) -> dict[str, Any]:
    out = {"id": e["id"], "index": e.get("index")}
    if "text" in e:
        out["text"] = _snip(e["text"])
        out["style"] = e.get("style")
    if "rows" in e:
        out["size"] = f"{e['rows']}x{e['cols']}"
    return out


def _keyed_changes(before: list[dict], after: list[dict], key: str, fields: Iterable[str]) -> Change:
    b = {e.get(key): e for e in before if e.get(key) is not None}
    a = {e.get(key): e for e in after if e.get(key) is not None}
    out: Change = {}
    added = [_pick(a[k], fields, key) for k in a if k not in b]
    removed = [_pick(b[k], fields, key) for k in b if k not in a]
    changed = []
    for k in a:
        if k in b:
            diff = {f: [b[k].get(f), a[k].get(f)] for f in fields if b[k].get(f) != a[k].get(f)}
            if diff:
                changed.append({key: k, "changes": diff})
    for label, items in (("added", added), ("removed", removed), ("changed", changed)):
        if items:
            out[label] = items
    return out


def _pick(e: dict[str, Any], fields: Iterable[str], key: str) -> dict[str, Any]:
    return {key: e.get(key), **{f: e[f] for f in fields if e.get(f) is not None}}


def _without_story_details(layout: dict[str, Any], kept: set[str]) -> dict[str, Any]:
    """The page layout without the header/footer contents in full (:data:`STORY_DETAILS`: their text, alignments and
    tables' and images' ids say the change), and without the text and alignments of the `kept` parts (their
    paragraphs' changes say them). The alignments are keyed by paragraph position: compared as a sequence, a rewritten
    footer's [None, "center"] -> ["center"] read as its None dropped ("alignments[0]: None -> None")."""
    def brief(story: dict[str, Any]) -> dict[str, Any]:
        left_out = STORY_DETAILS + (("text", "alignments") if story.get("part") in kept else ())
        out = {k: v for k, v in story.items() if k not in left_out}
        if "alignments" in out:
            out["alignments"] = dict(enumerate(out["alignments"]))
        return out

    sections = [{**s, **{key: {kind: brief(story)
                              for kind, story in s.get(key, {}).items()} for key in ("headers", "footers") if key in s}}
                for s in layout.get("sections", [])]
    return {**layout, "sections": sections}


def deep_changes(before: Any, after: Any) -> list[dict[str, Any]]:
    """Flat list of {path, before, after} between two JSON-like values (deepdiff under the hood)."""
    if before == after:
        return []
    from deepdiff import DeepDiff

    diff = DeepDiff(before, after, verbose_level=2, view="tree")
    out = []
    for kind in ("values_changed", "type_changes", "dictionary_item_added", "dictionary_item_removed",
                 "iterable_item_added", "iterable_item_removed"):
        for level in diff.get(kind, []):
            path = level.path(output_format="list")
            out.append({"path": _path_text(path),
                        "before": None if kind.endswith("_added") else _plain(level.t1),
                        "after": None if kind.endswith("_removed") else _plain(level.t2)})
    return out


def _plain(value: Any) -> Any:
    from deepdiff.helper import NotPresent

    return None if isinstance(value, NotPresent) else value


def _path_text(path: list[Any]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


# --- tables -------------------------------------------------------------------------


def cell_signature(table: dict[str, Any], r: int, c: int) -> str:
    """hash(content || structure || position || merge) of one cell, as in the paper's Eq. 3 (structure: its span,
    whether a merge covers it, and its :data:`CELL_FORMAT_KEYS`)."""
    cell = _cell(table, r, c)
    content = _cell_text(table, r, c)
    span, covered = _cell_structure(cell)
    formats = _cell_format(cell)
    structure = f"span={span};covered={covered};" + ";".join(f"{k}={formats.get(k)}" for k in CELL_FORMAT_KEYS)
    merge = next((m for m in table.get("merged", []) if m[0] <= r <= m[2] and m[1] <= c <= m[3]), None)
    raw = f"{content}||{structure}||{r},{c}||{merge}"
    return hashlib.blake2b(raw.encode(), digest_size=8).hexdigest()


def _cell_text(table: dict[str, Any], r: int, c: int) -> str:
    return table["cells"][r][c] if r < len(table["cells"]) and c < len(table["cells"][r]) else ""


def _cell(table: dict[str, Any], r: int, c: int) -> dict[str, Any] | None:
    details = table.get("cell_details", [])
    return details[r][c] if r < len(details) and c < len(details[r]) else None


def _cell_structure(cell: dict[str, Any] | None) -> tuple[int, bool]:
    """A cell's span and whether a merge covers it."""
    return (cell or {}).get("span", 1), cell is None or "merged_into" in cell


def _cell_format(cell: dict[str, Any] | None) -> dict[str, Any]:
    return {k: (cell or {}).get(k) for k in CELL_FORMAT_KEYS if (cell or {}).get(k) is not None}


def _tables(before: State, after: State) -> Change:
    tb = {t["id"]: t for t in _all_tables(before)}
    ta_all = _all_tables(after)
    # a header or footer shown (or hidden) as a whole, e.g. by turning "different first page" on: the page layout's
    # change says so; its tables were not added or removed
    shown_before, shown_after = ({story.get("part") for *_, story in header_footer_stories(s, once=True)}
                                 for s in (before, after))
    ta_all = [t for t in ta_all if "story" not in t or t["id"] in tb or t["part"] in shown_before]
    ids_after = {t["id"] for t in ta_all}
    tb = {tid: t for tid, t in tb.items() if "story" not in t or tid in ids_after or t["part"] in shown_after}
    out_tables = []
    for ta in ta_all:
        t0 = tb.get(ta["id"])
        where = {"table": ta["id"], **_story(ta)}
        if t0 is None:
            out_tables.append({**where, "added": True, "size": f"{ta['rows']}x{ta['cols']}",
                               "cells": _snip_matrix(ta["cells"])})
            continue
        entry = _table_change(t0, ta)
        if entry:
            out_tables.append({**where, **entry})
    for tid, t0 in tb.items():
        if tid not in ids_after:
            out_tables.append({"table": tid, **_story(t0), "removed": True})
    return {"tables": out_tables} if out_tables else {}


def _table_change(b: dict[str, Any], a: dict[str, Any]) -> Change:
    if b == a:  # an unchanged table (most of them) has nothing to compare
        return {}
    out: Change = {}
    if (b["rows"], b["cols"]) != (a["rows"], a["cols"]):
        out["size"] = [f"{b['rows']}x{b['cols']}", f"{a['rows']}x{a['cols']}"]
    rows_b = [tuple(r) for r in b["cells"]]
    rows_a = [tuple(r) for r in a["cells"]]
    rows_inserted, rows_deleted = _line_edits(rows_b, rows_a)
    cols_b = list(zip(*rows_b)) if rows_b else []
    cols_a = list(zip(*rows_a)) if rows_a else []
    cols_inserted, cols_deleted = ([], []) if b["cols"] == a["cols"] else _line_edits(cols_b, cols_a)
    for label, items in (("rows_inserted", rows_inserted), ("rows_deleted", rows_deleted),
                         ("columns_inserted", cols_inserted), ("columns_deleted", cols_deleted)):
        if items:
            out[label] = items
    if (b["rows"], b["cols"]) == (a["rows"], a["cols"]):
        # the cells' widths follow their columns': a column's new width is said once (column_widths_cm)
        keys = [k for k in CELL_FORMAT_KEYS if k != "width" or b.get("column_widths_cm") == a.get("column_widths_cm")]
        cells = []
        same_merges = b.get("merged", []) == a.get("merged", [])
        for r in range(a["rows"]):
            for c in range(a["cols"]):
                if same_merges and _cell_text(b, r, c) == _cell_text(a, r, c) and _cell(b, r, c) == _cell(a, r, c):
                    continue  # all its signature is made of is the same: so is its signature
                if cell_signature(b, r, c) != cell_signature(a, r, c):
                    entry = {"row": r, "col": c}
                    if b["cells"][r][c] != a["cells"][r][c]:
                        entry.update(before=_snip(b["cells"][r][c]), after=_snip(a["cells"][r][c]))
                    cb, ca = _cell(b, r, c), _cell(a, r, c)
                    fb, fa = _cell_format(cb), _cell_format(ca)
                    formats = {k: [fb.get(k), fa.get(k)] for k in keys if fb.get(k) != fa.get(k)}
                    if formats:
                        entry["format"] = formats
                    if _cell_structure(cb) != _cell_structure(ca):
                        entry["structure"] = True  # a span or merge (the table's merged regions say which)
                    if len(entry) > 2:  # not only its width, which followed its column's
                        cells.append(entry)
        if cells:
            out["cells_changed"] = cells
    for key in TABLE_KEYS:
        if b.get(key) != a.get(key):
            out[key] = [b.get(key), a.get(key)]
    return out


def _line_edits(before: list[tuple], after: list[tuple]) -> tuple[list[dict], list[dict]]:
    """Rows (or columns) inserted and deleted; in a replaced block of unequal length the
    first min(len) lines count as edited in place and the rest as inserted or deleted."""
    inserted, deleted = [], []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        common = min(i2 - i1, j2 - j1) if tag == "replace" else 0
        inserted.extend({"index": j, "cells": [_snip(x, 30) for x in after[j]]} for j in range(j1 + common, j2))
        deleted.extend({"index": i, "cells": [_snip(x, 30) for x in before[i]]} for i in range(i1 + common, i2))
    return inserted, deleted


def _snip_matrix(cells: list[list[str]], max_rows: int = 6) -> list[list[str]]:
    return [[_snip(c, 30) for c in row] for row in cells[:max_rows]]


# --- interactive --------------------------------------------------------------------


def _interactive(before: State, after: State) -> Change:
    ib, ia = before["interactive"], after["interactive"]
    out: Change = {}
    for key, ident in (("hyperlinks", ("paragraph", "text", "url", "anchor")), ("bookmarks", ("name", "paragraph")),
                       ("line_breaks", ("paragraph", "offset")), ("page_breaks", ("paragraph", "offset")),
                       ("column_breaks", ("paragraph", "offset")),
                       ("tracked_changes", ("type", "paragraph", "text")), ("fields", ("type", "instruction", "paragraph"))):
        added, removed = _multiset_diff(ib.get(key, []), ia.get(key, []), ident)  # a state of before column breaks
        if added or removed:
            out[key] = {k: v for k, v in (("added", added), ("removed", removed)) if v}
    for key in ("comments", "footnotes", "endnotes"):
        diff = _keyed_changes(ib[key], ia[key], key="id", fields=("text", "author", "paragraph", "paragraphs"))
        if diff:
            out[key] = diff
    return out


def _multiset_diff(before: list[dict], after: list[dict], ident: tuple[str, ...]) -> tuple[list[dict], list[dict]]:
    """Entries (compared on the `ident` fields) present more often after than before, and vice versa."""

    def key(e: dict) -> tuple:
        return tuple(e.get(k) for k in ident)

    def surplus(items: list[dict], excess: Counter) -> list[dict]:
        out = []
        for e in items:
            if excess[key(e)] > 0:
                excess[key(e)] -= 1
                out.append({i: e.get(i) for i in ident if e.get(i) is not None})
        return out

    counts_b, counts_a = Counter(map(key, before)), Counter(map(key, after))
    return surplus(after, counts_a - counts_b), surplus(before, counts_b - counts_a)
