"""The whole comparison: every part of two documents compared in document order, the verdict assembled from the
differences."""

from __future__ import annotations

from typing import Any, Iterable

from autodw.eval.canonical import Prepared, Source, prepare
from autodw.eval.judge.page_layout import PageLayoutComparison
from autodw.eval.judge.places import initial_texts
from autodw.eval.judge.properties import PropertyComparison
from autodw.eval.judge.tolerances import JudgeContext
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


class Comparer(PageLayoutComparison, PropertyComparison):
    """One comparison of two prepared documents, every part; differences collected in document order."""

    def __init__(self, exp: Prepared, act: Prepared, ctx: JudgeContext):
        super().__init__(exp, act, ctx)
        if ctx.initial is not None and ctx.free_text:
            self.initial_e = initial_texts(ctx.initial, exp)
            self.initial_a = initial_texts(ctx.initial, act)

    def run(self) -> list[Difference]:
        """Every part compared, in document order; the differences."""
        self.describe_paragraphs()
        self.compare_body()
        self.compare_tables()
        self.compare_images()
        self.compare_sections()
        self.compare_interactive()
        self.compare_document_info()
        self.compare_styles()
        return self.diffs
