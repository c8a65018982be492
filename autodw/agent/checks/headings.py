"""Rule checks of headings: their level, and a section the request names inserted as body text."""

from __future__ import annotations

import re
from typing import Any

from autodw.agent.checks.reading import named, one_value, target_paragraphs
from autodw.agent.checks.registry import BUILT_ON, Certainty, CheckFinding, State, check
from autodw.agent.request_values import levels_named
from autodw.analysis.state.render import custom_headings, heading_level

_SECTION_BEFORE = r"(?:section|heading|title|chapter)\s+(?:called\s+|named\s+|titled\s+|headed\s+|entitled\s+)?[:：]?\s*|" \
                  r"(?:一节|小节|章节|标题|节)[：:]?\s*"
_SECTION_AFTER = r"\s*(?:section|heading)\b|\s*(?:小节|一节|章节|标题)"


#: a section named by its quoted title ("the "Heading 3" section", "section "Level 2"", "“标题 1”这一节"): a name, no level
_QUOTED_SECTION = re.compile(r"[\"“'‘][^\"”'’]{1,80}[\"”'’]\s*(?:section|chapter|part)\b|"
                             r"\b(?:section|chapter)\s+[\"“'‘][^\"”'’]{1,80}[\"”'’]|"
                             r"[\"“'‘][^\"”'’]{1,80}[\"”'’]\s*(?:这一?节|一节|小节|章节|部分)", re.IGNORECASE)


@check("unnamed_level", certain=Certainty.FIXES, single_request=True,
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-eighteenth", "dwbench-2.0/templated/dev",
                            "dwbench-2.0/templated/dev-outside", "dwbench-2.0/hand/dev-twentieth",
                            "dwbench-2.0/hand/dev-twenty-first"))
def unnamed_level(api: str, args: dict[str, Any], request: str, before: State) -> list[CheckFinding]:
    """A heading level the request names none of, when it names heading levels ("二级标题" -> level 3); the fix is
    the one level it names. A section the request names by a quoted title that reads like a level ("the "Heading 3"
    section") names none, nor does the level every heading the call changes has now (read from the state: "三级太不
    显眼了，还是改回去" says what the headings are, not what to make them)."""
    level = args.get("level")
    if api not in ("insert_heading", "change_heading_level") or type(level) is not int:
        return []
    levels = levels_named(_QUOTED_SECTION.sub(" ", request)) - _level_now(args, before)
    if not levels or level in levels:
        return []
    fix = {"level": next(iter(levels))} if len(levels) == 1 else None
    return [CheckFinding("unnamed_level", f"level {level}: the request names level {', '.join(map(str, sorted(levels)))}", True,
                    fix)]


def _level_now(args: dict[str, Any], before: State) -> set[int]:
    """The one heading level every paragraph the call changes has now ({} when they differ, one is no heading or the
    state lacks one)."""
    paragraphs, custom = target_paragraphs(args, before) or [], custom_headings(before)
    return one_value(heading_level(p.get("style"), custom) for p in paragraphs) - {None}


@check("heading_as_paragraph", certain=Certainty.WRONG_API,
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev-fourth", "dwbench-2.0/hand/dev-thirty-first",  # reading.named's
                            "dwbench-2.0/hand/dev-thirtieth", "dwbench-2.0/hand/dev",  # ASCII word boundaries (df76356)
                            "dwbench-2.0/templated/dev"))
def heading_as_paragraph(api: str, args: dict[str, Any], instruction: str, before: State) -> list[CheckFinding]:
    """A body paragraph whose text is a quote the request calls a section or heading ("a section called "Next
    Steps""): insert_heading makes it. A paragraph given a heading style ("Title", "Heading 2", a custom heading's)
    is no body paragraph."""
    text = args.get("text")
    if api != "insert_paragraph" or not isinstance(text, str) or not text.strip():
        return []
    style = args.get("style")
    if isinstance(style, str) and heading_level(style, custom_headings(before)) is not None:
        return []
    quoted = re.escape(text.strip())
    pattern = rf"(?:{_SECTION_BEFORE})[\"“'‘]{quoted}[\"”'’]|[\"“'‘]{quoted}[\"”'’](?:{_SECTION_AFTER})"
    if not named(pattern, instruction):
        return []
    return [CheckFinding("heading_as_paragraph", f'"{text}" is a section or heading the request names; the call inserts it as '
                                            "a body paragraph (insert_heading)", True)]
