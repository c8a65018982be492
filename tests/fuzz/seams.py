"""The autodw names the harnesses use, imported in this one place: when a module moves (issue 46 puts the flat
modules into subpackages), only these lines change."""

from __future__ import annotations

from autodw import WordDocument, analyze_change, extract_state, open_document
from autodw.apis import execute, registry
from autodw.core.errors import ApiError, ArgumentError, AutodwError, DocumentError, InternalError, LLMError, LLMOutputError
from autodw.analysis.state.render import render_state

__all__ = ["WordDocument", "analyze_change", "extract_state", "open_document", "execute", "registry",
           "ApiError", "ArgumentError", "AutodwError", "DocumentError", "InternalError", "LLMError", "LLMOutputError",
           "render_state", "summarize_change", "judge", "align_ids"]


def summarize_change(change):
    """The change analysis as text (:func:`autodw.analysis.change_summary.summarize_change`)."""
    from autodw.analysis.change_summary import summarize_change as summarize

    return summarize(change)


def judge(expected, actual, **options):
    """The deterministic judge (:func:`autodw.eval.judge.judge`)."""
    from autodw.eval.judge import judge as run_judge

    return run_judge(expected, actual, **options)


def align_ids(before, after):
    """`after`'s ids matched to `before`'s (:func:`autodw.analysis.align.align_ids`): two files number their elements apart."""
    from autodw.analysis.align import align_ids as align

    return align(before, after)
