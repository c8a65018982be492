"""Align the element ids of two states that were not produced from one another.

Ids are assigned per opened file, so two files (or two agents' outputs) give the "same"
paragraph different ids. :func:`align_ids` renames the ids of the second state to those of the
first wherever the elements correspond by content and order (SequenceMatcher over texts, rows
and image signatures); unmatched elements are renamed ``new:<id>`` so they cannot collide.
"""

from __future__ import annotations

import copy
from difflib import SequenceMatcher
from typing import Any, Hashable, Sequence

from autodw.analysis.state import State

_REF_KEYS = {"id", "paragraph", "paragraphs", "table", "tables", "image", "images", "after_paragraph"}


def pair_positions(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[tuple[int, int]]:
    """Index pairs (i, j) of corresponding items: equal runs, and same-position items of replaced runs."""
    pairs = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, list(a), list(b), autojunk=False).get_opcodes():
        if tag in ("equal", "replace"):
            pairs.extend(zip(range(i1, i2), range(j1, j2)))
    return pairs


def align_ids(before: State, after: State) -> State:
    """A copy of `after` whose ids match `before` where elements correspond."""
    mapping: dict[str, str] = {}
    pb, pa = before["paragraphs"], after["paragraphs"]
    for i, j in pair_positions([p["text"] for p in pb], [p["text"] for p in pa]):
        mapping[pa[j]["id"]] = pb[i]["id"]
    tb, ta = before["tables"], after["tables"]
    for i, j in pair_positions([_table_sig(t) for t in tb], [_table_sig(t) for t in ta]):
        mapping[ta[j]["id"]] = tb[i]["id"]
        _map_cells(tb[i], ta[j], mapping)
    for sb, sa in zip(before["page_layout"]["sections"], after["page_layout"]["sections"]):
        for key in ("headers", "footers"):
            for kind, story in sa.get(key, {}).items():
                old = sb.get(key, {}).get(kind)
                if old is not None:
                    mapping.update(zip(story.get("paragraphs", []), old.get("paragraphs", [])))
                    tb_s, ta_s = old.get("table_details", []), story.get("table_details", [])
                    for i, j in pair_positions([_table_sig(t) for t in tb_s], [_table_sig(t) for t in ta_s]):
                        mapping[ta_s[j]["id"]] = tb_s[i]["id"]
                        _map_cells(tb_s[i], ta_s[j], mapping)
    ib, ia = before["images"], after["images"]
    for i, j in pair_positions([_image_sig(x) for x in ib], [_image_sig(x) for x in ia]):
        if ia[j].get("id") and ib[i].get("id"):
            mapping[ia[j]["id"]] = ib[i]["id"]
    known = set(_collect_ids(before))
    for old in _collect_ids(after):
        if old not in mapping:
            mapping[old] = old if old not in known else f"new:{old}"
    return _rename(copy.deepcopy(after), mapping)


def _table_sig(t: dict[str, Any]) -> tuple:
    return (t["rows"], t["cols"], tuple(tuple(r) for r in t["cells"][:3]))


def _image_sig(x: dict[str, Any]) -> tuple:
    return (x.get("type"), x.get("width_cm"), x.get("height_cm"), x.get("alt_text"))


def _map_cells(tb: dict[str, Any], ta: dict[str, Any], mapping: dict[str, str]) -> None:
    rows_b, rows_a = tb.get("cell_details", []), ta.get("cell_details", [])
    for i, j in pair_positions([tuple(r) for r in tb["cells"]], [tuple(r) for r in ta["cells"]]):
        if i >= len(rows_b) or j >= len(rows_a):
            continue
        for cb, ca in zip(rows_b[i], rows_a[j]):
            for p_b, p_a in zip((cb or {}).get("paragraphs", []), (ca or {}).get("paragraphs", [])):
                mapping[p_a["id"]] = p_b["id"]


def _collect_ids(state: State) -> list[str]:
    out: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("id"), str):
                out.append(node["id"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk({k: state[k] for k in ("paragraphs", "tables", "images")})
    for section in state["page_layout"]["sections"]:
        for key in ("headers", "footers"):
            for story in section.get(key, {}).values():
                out.extend(story.get("paragraphs", []))
                walk(story.get("table_details", []))
    return out


def _rename(node: Any, mapping: dict[str, str], seen: set[int] | None = None) -> Any:
    """`node` with its ids renamed in place; a dict or list the state holds in two places (a header shown by two
    sections) is renamed once."""
    seen = set() if seen is None else seen
    if id(node) in seen:
        return node
    if isinstance(node, (dict, list)):
        seen.add(id(node))
    if isinstance(node, dict):
        for k, v in node.items():
            if k in _REF_KEYS and isinstance(v, str):
                node[k] = mapping.get(v, v)
            elif k in _REF_KEYS and isinstance(v, list) and all(isinstance(x, str) for x in v):
                node[k] = [mapping.get(x, x) for x in v]
            else:
                _rename(v, mapping, seen)
    elif isinstance(node, list):
        for v in node:
            _rename(v, mapping, seen)
    return node
