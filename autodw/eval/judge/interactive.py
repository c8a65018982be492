"""The interactive parts compared: hyperlinks, bookmarks, breaks, comments, notes, tracked changes and fields, each
kind aligned by its key (text, name, place) and compared by what it has."""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from autodw.eval.judge.alignment import align, ratio
from autodw.eval.judge.comparison import Comparison
from autodw.eval.judge.describe import snippet
from autodw.analysis.state.blocks import field_code

_TOC_NAME = re.compile(r"_Toc\d+")


class InteractiveComparison(Comparison):
    """Hyperlinks, bookmarks, breaks, comments, notes, tracked changes and fields."""

    def compare_interactive(self) -> None:
        """The body's hyperlinks and the document's other interactive parts."""
        ie, ia = self.e["interactive"], self.a["interactive"]
        self.hyperlinks(ie["hyperlinks"], ia["hyperlinks"])
        self._records("bookmark", _visible_bookmarks(ie), _visible_bookmarks(ia), ("name",), ("offset",))
        self._records("line break", ie["line_breaks"], ia["line_breaks"], ("paragraph", "offset"), ())
        self._records("page break", ie["page_breaks"], ia["page_breaks"], ("paragraph", "offset"), ())
        self._records("column break", ie.get("column_breaks", []), ia.get("column_breaks", []), ("paragraph", "offset"), ())
        self._records("comment", ie["comments"], ia["comments"], ("text",), ("author", "initials"), refs="paragraphs",
                      check=self._commented_text)
        self._records("footnote", ie["footnotes"], ia["footnotes"], ("text",), (), check=self._note_place)
        self._records("endnote", ie["endnotes"], ia["endnotes"], ("text",), (), check=self._note_place)
        self._records("tracked change", ie["tracked_changes"], ia["tracked_changes"], ("type", "text"), ("author",))
        norm = lambda f: {**f, "instruction": field_code(_toc_unnamed(f, "instruction")["instruction"])}  # noqa: E731
        self._records("field", [norm(f) for f in ie["fields"]], [norm(f) for f in ia["fields"]], ("type", "instruction"), ())

    def hyperlinks(self, he: list[dict[str, Any]], ha: list[dict[str, Any]], within: str = "") -> None:
        """Two lists of hyperlinks (the body's, or a header's or footer's: `within` names it) by text: target, place."""
        links_e, links_a = ([_toc_unnamed(h, "anchor") for h in x] for x in (he, ha))
        self._records("hyperlink", links_e, links_a, ("text",), ("url", "anchor"), within=within)

    def _records(self, kind: str, re_: list[dict[str, Any]], ra: list[dict[str, Any]], key: tuple[str, ...],
                 compared: tuple[str, ...], refs: str = "paragraph",
                 check: Callable[[dict[str, Any], dict[str, Any]], list[str]] | None = None, within: str = "") -> None:
        """Align two lists of records by `key` (texts trimmed, paragraph references in expected ids) and compare them;
        `within`: the story they are in, named instead of their paragraph."""
        def mapped(rec: dict[str, Any], actual: bool) -> Any:
            ref = rec.get(refs)
            conv = self.expected_id if actual else (lambda p: p)
            return tuple(conv(p) for p in ref) if isinstance(ref, list) else conv(ref)

        def k(rec: dict[str, Any], actual: bool) -> tuple:
            return tuple(mapped(rec, actual) if f == refs else _trimmed(rec.get(f)) for f in key)

        def where(rec: dict[str, Any], describe: Callable[[str], str]) -> str:
            name = rec.get("name") or rec.get("text")
            ref = _first(rec.get(refs))
            place = within or (describe(ref) if ref is not None else "the document (between paragraphs)")
            return f"{kind} {snippet(name)} in {place}" if name else f"{kind} in {place}"

        ke, ka = [k(r, False) for r in re_], [k(r, True) for r in ra]
        texts_e = [" ".join(str(x) for x in t) for t in ke]
        texts_a = [" ".join(str(x) for x in t) for t in ka]
        al = align(ke, ka, lambda i, j: ratio(texts_e[i], texts_a[j]))
        for i, j in sorted(al.pairs + al.moved):
            e, a = re_[i], ra[j]
            parts = []
            if "text" in key and not self.text_same(e.get("text") or "", a.get("text") or ""):
                parts.append(f"text: expected {snippet(e.get('text') or '', 80)}, actual {snippet(a.get('text') or '', 80)}")
            if mapped(e, False) != mapped(a, True):
                parts.append(f"place: expected in {self.describe_e(_first(e.get(refs)))}, "
                             f"actual in {self.describe_a(_first(a.get(refs)))}")
            parts += self.fields(e, a, [f for f in key if f not in ("text", refs)] + list(compared))
            if check is not None and mapped(e, False) == mapped(a, True):
                parts += check(e, a)
            if parts:
                self.add(where(e, self.describe_e), "; ".join(parts))
        for i in al.missing:
            self.add(where(re_[i], self.describe_e), "missing: absent from the actual document")
        for j in al.extra:
            self.add("extra " + where(ra[j], self.describe_a), "unexpected: not in the expected document")

    def _texts(self, pids: Any, actual: bool) -> list[str | None]:
        by_id = self.ptext_a if actual else self.ptext_e
        return [by_id.get(p) for p in (pids if isinstance(pids, list) else [pids])]

    def _commented_text(self, e: dict[str, Any], a: dict[str, Any]) -> list[str]:
        """The text a comment is on (its paragraphs are compared by the caller)."""
        ce, ca = (e.get("commented_text") or "").strip(), (a.get("commented_text") or "").strip()
        if ce == ca:
            return []
        if self.ctx.free_text and [(t or "").strip() for t in self._texts(e.get("paragraphs"), False)] != \
                [(t or "").strip() for t in self._texts(a.get("paragraphs"), True)]:
            return []  # a written text: its words are free, so are the words commented
        return [f"commented text: expected {snippet(ce, 60) if ce else 'none'}, actual {snippet(ca, 60) if ca else 'none'}"]

    def _note_place(self, e: dict[str, Any], a: dict[str, Any]) -> list[str]:
        """Where a note's reference mark sits in its paragraph (compared when both paragraphs have the same text; the
        text before it trimmed as texts are)."""
        (te,), (ta,) = self._texts(e.get("paragraph"), False), self._texts(a.get("paragraph"), True)
        if te is None or ta is None or te.strip() != ta.strip() or "offset" not in e or "offset" not in a:
            return []
        be, ba = te[: min(e["offset"], len(te.rstrip()))].lstrip(), ta[: min(a["offset"], len(ta.rstrip()))].lstrip()
        if be == ba:
            return []

        def after(t: str) -> str:
            return "at the start" if not t.strip() else \
                "after " + json.dumps(("..." if len(t) > 30 else "") + t[-30:], ensure_ascii=False)
        return [f"reference mark: expected {after(be)}, actual {after(ba)}"]


def _visible_bookmarks(interactive: dict[str, Any]) -> list[dict[str, Any]]:
    """The bookmarks that count: Word's hidden ones (names starting with "_": ``_Hlk``, ``_Ref``...) only when a field
    or a hyperlink refers to them, and ``_Toc`` ones never (Word regenerates them)."""
    refs = " ".join(f.get("instruction") or "" for f in interactive.get("fields", []))
    anchors = {h.get("anchor") for h in interactive.get("hyperlinks", [])}

    def referenced(name: str) -> bool:
        return name in anchors or any(word.strip('"') == name for word in refs.split())

    return [b for b in interactive["bookmarks"]
            if not b.get("hidden") or (not b["name"].startswith("_Toc") and referenced(b["name"]))]


def _toc_unnamed(record: dict[str, Any], key: str) -> dict[str, Any]:
    """`record` with the ``_Toc`` bookmark names in its `key` (a hyperlink's anchor, a PAGEREF field's instruction) as
    "_Toc": the bookmarks never count (Word renumbers them), so neither do the names that refer to them."""
    return {**record, key: _TOC_NAME.sub("_Toc", record[key])} if record.get(key) else record


def _trimmed(value: Any) -> Any:
    """A record's value for its key: a text without the white space at its ends."""
    return value.strip() if isinstance(value, str) else value


def _first(ref: Any) -> Any:
    """A record's paragraph reference, or the first of a list of them (None if there is none)."""
    return (ref[0] if ref else None) if isinstance(ref, list) else ref
