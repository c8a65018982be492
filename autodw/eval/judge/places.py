"""The initial document's texts at the places of another document's paragraphs, cells, headers and footers: what the
free-text tolerance does not apply to (a text to keep, or one left as it was)."""

from __future__ import annotations

import weakref
from typing import Any

from autodw.eval.canonical import Prepared
from autodw.eval.judge.comparison import whole
from autodw.eval.judge.page_layout import PageLayoutComparison
from autodw.eval.judge.tolerances import JudgeContext, trimmed


def initial_texts(initial: Prepared, doc: Prepared) -> dict[str, str]:
    """The initial document's text (trimmed) at the place of each paragraph of `doc` (by its id) and of each table cell,
    header and footer (by :func:`whole` of its first paragraph's id); found once for two documents (partial credit
    judges the output and the initial document against one expected document)."""
    found = _PLACES.setdefault(initial, weakref.WeakKeyDictionary())
    if doc not in found:
        found[doc] = Places(initial, doc).find()
    return found[doc]


_PLACES: "weakref.WeakKeyDictionary[Prepared, weakref.WeakKeyDictionary[Prepared, dict[str, str]]]" = \
    weakref.WeakKeyDictionary()


class Places(PageLayoutComparison):
    """The initial document's texts at the places of another document's: their paragraphs aligned as the judge aligns
    them, in the body, in table cells and in headers and footers; nothing compared."""

    def __init__(self, initial: Prepared, doc: Prepared):
        super().__init__(initial, doc, JudgeContext())
        self.texts: dict[str, str] = {}

    def find(self) -> dict[str, str]:
        """The texts by the other document's paragraph ids (and :func:`whole` keys of its cells, headers, footers)."""
        self.compare_body()
        self.compare_tables()
        self.compare_sections()
        return self.texts

    def add(self, where: str, what: str) -> None:
        pass

    def cell(self, where: str, ce: dict[str, Any] | None, ca: dict[str, Any] | None,
             formats: tuple[dict[str, Any], dict[str, Any]] | None) -> None:
        if ce and ca and "text" in ce and "text" in ca:
            self.paragraphs(where, ce["text"], ca["text"], ce.get("paragraphs", []), ca.get("paragraphs", []))

    def paragraph(self, where: str, pe: dict[str, Any], pa: dict[str, Any]) -> None:
        self.texts[pa["id"]] = trimmed(pe["text"])

    def paragraphs(self, where: str, te: str, ta: str, pe: list[dict[str, Any]], pa: list[dict[str, Any]]) -> None:
        if pe and pa:
            self.texts[whole(pa[0]["id"])] = trimmed(te)
        super().paragraphs(where, te, ta, pe, pa)
