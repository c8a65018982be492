"""Adapt an API's example call, written for a sample document, to another document.

Ids are mapped, in order, to ids of the same kind from the document's state (paragraphs with text,
tables, pictures, charts; so adjacent example paragraphs stay adjacent); text matches and offsets fit
the mapped paragraph; table coordinates and data are clamped to the table's size, section numbers to
the sections. :class:`NotApplicable` says the document has nothing the API could act on. Used to run
the catalogue on real files (``autodw bench perf apis``, tests/test_validation.py).
"""

from __future__ import annotations

import copy
import re
from typing import Any, Iterator

from autodw.apis.catalogue.table_operation import common_separator
from autodw.apis.registry import ApiSpec
from autodw.analysis.state import State
from autodw.core.ids import PREFIXES, parse_id


class NotApplicable(Exception):
    """The document has nothing this API could act on."""


#: APIs that only apply to documents having something: state predicate and what is missing otherwise.
NEEDS = {
    "update_toc": (lambda st: st["page_layout"]["table_of_contents"], "a table of contents"),
    "remove_watermark": (lambda st: any(s.get("watermark") for s in st["page_layout"]["sections"]), "a watermark"),
    "edit_hyperlink": (lambda st: st["interactive"]["hyperlinks"], "a hyperlink"),
    "resolve_tracked_changes": (lambda st: st["interactive"]["tracked_changes"], "tracked changes"),
    "remove_list": (lambda st: any(p.get("list") for p in st["paragraphs"]), "list items"),
    "delete_comment": (lambda st: st["interactive"]["comments"], "a comment"),
    "delete_footnote": (lambda st: st["interactive"]["footnotes"], "a footnote"),
    "remove_section_break": (lambda st: len(st["page_layout"]["sections"]) > 1, "two sections"),
    "delete_bookmark": (lambda st: [b for b in st["interactive"]["bookmarks"] if not b.get("hidden")], "a bookmark"),
    "insert_cross_reference": (lambda st: [b for b in st["interactive"]["bookmarks"] if not b.get("hidden")], "a bookmark"),
}


class Adapter:
    """Rewrites an example call made for a sample document so that it fits another document."""

    def __init__(self, state: State):
        """An adapter for the document whose state (autodw.analysis.state.extract_state) is `state`."""
        self.state = state
        paras = [p for p in state["paragraphs"] if len(p["text"].strip()) >= 12 and not p.get("content_control")]
        self.paras = paras
        self.text = {p["id"]: p["text"] for p in state["paragraphs"]}
        self.tables = [t for t in state["tables"] if "nested_in" not in t and t["rows"] >= 2 and t["cols"] >= 2]
        self.by_kind = {"p": [p["id"] for p in paras], "t": [t["id"] for t in self.tables],
                        "img": [i["id"] for i in state["images"] if i.get("type") == "picture" and i.get("id", "").startswith("img")],
                        "chart": [i["id"] for i in state["images"] if i.get("type") == "chart" and i.get("id")]}
        self.mapping: dict[str, str] = {}

    def adapt(self, spec: ApiSpec, args: dict[str, Any]) -> dict[str, Any]:
        """`args` (an example call of `spec`) rewritten for this document; NotApplicable if it cannot be."""
        need = NEEDS.get(spec.name)
        if need and not need[0](self.state):
            raise NotApplicable(need[1])
        ids = sorted((v for v in set(_walk_strings(args)) if parse_id(v)), key=parse_id)
        self.mapping = {}
        for kind in PREFIXES:
            wanted = [i for i in ids if parse_id(i)[0] == kind]
            pool = self._pool(spec.name, kind)
            if len(pool) < len(wanted):
                raise NotApplicable(f"not enough {kind} elements")
            self.mapping.update(zip(wanted, pool))
        out = _rewrite(copy.deepcopy(args), self.mapping)
        return self._values(spec, out)

    def _pool(self, api: str, kind: str) -> list[str]:
        if kind == "p" and api == "edit_hyperlink":
            return [h["paragraph"] for h in self.state["interactive"]["hyperlinks"]]
        if kind == "p" and api in ("remove_list", "set_list_format"):
            return [p["id"] for p in self.state["paragraphs"] if p.get("list")] or self.by_kind["p"]
        return self.by_kind.get(kind, [])

    def _values(self, spec, out: dict[str, Any]) -> dict[str, Any]:
        para = next((self.mapping[v] for v in _walk_strings(spec.examples[0].args) if v in self.mapping and v.startswith("p")), None)
        text = self.text.get(para, self.paras[0]["text"] if self.paras else "")
        words = re.findall(r"\w{4,}", text) or re.findall(r"\w+", text)
        if "offset" in out and isinstance(out["offset"], int):
            out["offset"] = min(out["offset"], len(text))
        for key in ("span", "source_span"):
            if isinstance(out.get(key), dict) and "match" in out[key]:
                if not words:
                    raise NotApplicable("no word to match")
                out[key] = {"match": words[0]}
        if spec.name in ("replace_text", "find_text", "format_matches"):
            if not words:
                raise NotApplicable("no text")
            out["find" if "find" in out else "query"] = words[0]
            out.pop("regex", None)
        if spec.name == "text_to_table":
            lines = [self.text.get(self.mapping.get(i, ""), "") for i in spec.examples[0].args["paragraphs"]]
            separator = common_separator(lines)
            if separator is None:
                raise NotApplicable("no consecutive lines share a separator")
            out["separator"] = separator
        table = next((t for t in self.tables if t["id"] in self.mapping.values()), None)
        if table is not None:
            rows, cols = table["rows"], table["cols"]
            for key in ("row", "first_row", "last_row", "start_row"):
                if isinstance(out.get(key), int):
                    out[key] = min(out[key], rows - 1)
            if isinstance(out.get("index"), int):
                out["index"] = min(out["index"], rows if spec.name == "insert_row" else (cols if "column" in spec.name else rows) - 1)
            for key in ("col", "first_col", "last_col", "start_col", "column"):
                if isinstance(out.get(key), int):
                    out[key] = min(out[key], cols - 1)
            if isinstance(out.get("data"), list):
                width = cols if spec.name != "insert_column" else rows
                if out["data"] and isinstance(out["data"][0], list):
                    out["data"] = [row[:cols] for row in out["data"][: max(1, rows - out.get("start_row", 0))]]
                else:
                    out["data"] = (out["data"] + [""] * width)[:width]
            if isinstance(out.get("cells"), list):
                out["cells"] = [[min(r, rows - 1), min(c, cols - 1)] for r, c in out["cells"]]
        sections = len(self.state["page_layout"]["sections"])
        if isinstance(out.get("section"), int):
            out["section"] = min(out["section"], sections - 1)
        bookmarks = [b["name"] for b in self.state["interactive"]["bookmarks"] if not b.get("hidden")]
        if isinstance(out.get("bookmark"), str) and bookmarks:
            out["bookmark"] = bookmarks[0]
        for key, kind in (("comment", "comments"), ("note", "footnotes")):
            found = self.state["interactive"][kind]
            if isinstance(out.get(key), int) and found:
                out[key] = found[0]["id"]
            elif isinstance(out.get(key), str) and found:  # a comment id as the state shows it ("#0")
                out[key] = f"#{found[0]['id']}"
        return out


def _walk_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _walk_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _walk_strings(v)


def _rewrite(value: Any, mapping: dict[str, str]) -> Any:
    if isinstance(value, str):
        return mapping.get(value, value)
    if isinstance(value, dict):
        return {k: _rewrite(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [_rewrite(v, mapping) for v in value]
    return value
