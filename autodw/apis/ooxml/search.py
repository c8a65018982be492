"""Where text is searched: the paragraphs a search covers, and why a search found nothing."""

from __future__ import annotations

from lxml import etree

from autodw.apis.ooxml.blocks import story_paragraphs
from autodw.apis.ooxml.text import find_matches, paragraph_text
from autodw.core.document import WordDocument


def selected_paragraphs(doc: WordDocument, scope: str, paragraphs: list[str] | None) -> list[tuple[etree._Element, str]]:
    """(paragraph, story) searched: the given paragraph ids, else every paragraph of `scope` ("body" or "all")."""
    if paragraphs:
        return [(doc.find(pid, "p"), "paragraph") for pid in dict.fromkeys(paragraphs)]
    return list(story_paragraphs(doc, scope))


def searched_where(scope: str, paragraphs: list[str] | None) -> str:
    """What a search covered, for messages: "paragraphs p3, p4", "the body" or "the document"."""
    return f"paragraphs {', '.join(paragraphs)}" if paragraphs else ("the body" if scope == "body" else "the document")


def not_found(doc: WordDocument, query: str, scope: str, paragraphs: list[str] | None, regex: bool, match_case: bool,
              whole_word: bool) -> str:
    """Why nothing matched, with a hint an LLM can act on."""
    def occurs(paras, case: bool) -> bool:
        return any(find_matches(paragraph_text(p), query, regex=regex, match_case=case, whole_word=whole_word) for p, _ in paras)

    hint = ""
    if match_case and occurs(selected_paragraphs(doc, scope, paragraphs), False):
        hint = "; it occurs with different upper/lower case (set match_case false)"
    elif not paragraphs and scope == "body":
        others = [(p, story) for p, story in story_paragraphs(doc, "all") if story != "body"]
        if occurs(others, match_case):
            hint = '; it occurs in a header, footer or note (use scope "all")'
        elif match_case and occurs(others, False):
            hint = '; it occurs in a header, footer or note with other upper/lower case (use scope "all" and match_case false)'
    return f"{query!r} was not found in {searched_where(scope, paragraphs)}{hint}"
