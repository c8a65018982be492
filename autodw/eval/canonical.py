"""The canonical form the judge compares: effective formatting instead of how it was written.

Two documents that look the same can be written differently: runs split at other places, a value set
explicitly that the style already gives, a paragraph left aligned by ``w:jc="left"`` or by nothing.
:mod:`autodw.analysis.state.effective` resolves every run and paragraph to its *effective* values (document defaults <-
paragraph style chain <- character style chain <- direct formatting) and turns a paragraph's runs into maximal
stretches of text with one effective run format, so none of these differences remain; this module prepares a
document for it (and the judge compares tables, headers and footers the same way). Ids, rsids, proofing marks
and ``_GoBack`` bookmarks never reach the state.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Union

from autodw.core.document import WordDocument
from autodw.core.errors import ConfigError
from autodw.analysis.state import State, extract_state
from autodw.analysis.state.blocks import paragraph_format
from autodw.analysis.state.context import StateContext
from autodw.analysis.state.effective import Formatting
from autodw.core.xml import qn


@dataclass(eq=False)
class Prepared:
    """A document's state and the paragraph defaults of its ``w:docDefaults`` (None when only a state was given); each
    one is itself (compared and hashed by identity: the judge keeps what it found about it)."""

    state: State
    paragraph_defaults: dict[str, Any] | None = None
    name: str = "document"


Source = Union[WordDocument, State, Prepared, str, "os.PathLike[str]"]


def prepare(source: Source) -> Prepared:
    """The state (and paragraph defaults) of a document, a path to one, or an already extracted state; a prepared
    document as it is (so one document can be judged against several)."""
    if isinstance(source, Prepared):
        return source
    if isinstance(source, dict):
        missing = {"paragraphs", "tables", "images", "page_layout", "interactive", "styles", "document_info"} - set(source)
        if missing:
            raise ConfigError(f"not a document state: missing {', '.join(sorted(missing))}")
        return Prepared(source)
    doc = source if isinstance(source, WordDocument) else WordDocument.open(source)
    return Prepared(extract_state(doc), _paragraph_defaults(doc), doc.name)


def _paragraph_defaults(doc: WordDocument) -> dict[str, Any]:
    root = StateContext(doc).styles_root
    ppr = root.find(f"{qn('w:docDefaults')}/{qn('w:pPrDefault')}/{qn('w:pPr')}") if root is not None else None
    return paragraph_format(ppr)


def formatting(prepared: Prepared) -> Formatting:
    """The effective formatting of a prepared document."""
    return Formatting(prepared.state["styles"], prepared.paragraph_defaults)
