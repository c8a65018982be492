"""The whole comparison: every part of two documents compared in document order, the verdict assembled from the
differences; and the initial document's texts at another document's places (for the free-text tolerance)."""

from __future__ import annotations

import weakref
from typing import Any, Iterable

from autodw.eval.canonical import Prepared, Source, prepare
from autodw.eval.judge.comparison import whole
from autodw.eval.judge.page import PageComparison
from autodw.eval.judge.properties import PropertyComparison
from autodw.eval.judge.tolerances import JudgeContext, trimmed
from autodw.eval.judge.verdict import MAX_DIFFERENCES, Difference, Verdict


def judge(expected: Source, actual: Source, *, instruction: str | None = None, free_text: bool = False,
          initial: Source | None = None, tolerances: Iterable[dict[str, Any]] = ()) -> Verdict:
    """Compare `actual` with `expected` (documents, paths, extracted states or prepared documents).

    `instruction` enables the named-colour tolerance for the colours it names (with `initial`, only where the
    expected document set them); `free_text` the free-text tolerance (not for a text `initial`, when given, has at
    the same place); `tolerances` the instruction's own (``accept.tolerances``: :mod:`autodw.eval.judge`), those that
    turned a difference into a match named in the verdict's ``tolerances_used``. Raises DocumentError for a
    file that cannot be opened and ConfigError for a dict that is not a state, or a tolerance of no known kind.
    """
    exp, act = prepare(expected), prepare(actual)
    if exp.paragraph_defaults is None or act.paragraph_defaults is None:  # a state on one side: neither is known
        exp, act = Prepared(exp.state, None, exp.name), Prepared(act.state, None, act.name)
    comparer = Comparer(exp, act, JudgeContext.make(instruction, free_text, initial, tolerances))
    diffs = comparer.run()
    count = len(diffs)
    if count > MAX_DIFFERENCES:
        diffs = diffs[:MAX_DIFFERENCES] + [Difference("document", f"{count - MAX_DIFFERENCES} more difference(s) not listed")]
    return Verdict(not diffs, diffs, count=count, tolerances_used=list(comparer.used))


class Comparer(PageComparison, PropertyComparison):
    """One comparison of two prepared documents, every part; differences collected in document order."""

    def __init__(self, exp: Prepared, act: Prepared, ctx: JudgeContext):
        super().__init__(exp, act, ctx)
        if ctx.initial is not None and ctx.free_text:
            self.initial_e = initial_texts(ctx.initial, exp)
            self.initial_a = initial_texts(ctx.initial, act)

    def run(self) -> list[Difference]:
        self.describe_paragraphs()
        self.compare_body()
        self.compare_tables()
        self.compare_images()
        self.compare_sections()
        self.compare_interactive()
        self.compare_document_info()
        self.compare_styles()
        return self.diffs


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


class Places(Comparer):
    """The initial document's texts at the places of another document's: their paragraphs aligned as the judge aligns
    them, in the body, in table cells and in headers and footers; nothing compared."""

    def __init__(self, initial: Prepared, doc: Prepared):
        super().__init__(initial, doc, JudgeContext())
        self.texts: dict[str, str] = {}

    def find(self) -> dict[str, str]:
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
