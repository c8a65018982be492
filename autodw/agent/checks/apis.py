"""Rule checks of the API a call uses against what the request asks for: findings that reject the API itself."""

from __future__ import annotations

import re

from autodw.agent.checks.reading import api_words, without_tripled_letters
from autodw.agent.checks.registry import ALSO_1_1_TEST, BUILT_ON, Certainty, CheckFinding, check

#: a request that gives a paragraph a whole new text ("replace the text of ... with", "... should just say ... instead")
_WHOLE_TEXT = re.compile(r"replace the (?:whole |entire )?text of|so (?:that )?it (?:now )?reads|should (?:just|only|now) "
                         r"(?:say|read)|的(?:内容|文字)改[成为]|整段(?:替换|改)|改写为", re.IGNORECASE)


@check("part_for_whole", certain=Certainty.WRONG_API, single_request=True, tuned_on=BUILT_ON + ALSO_1_1_TEST)
def part_for_whole(api: str, request: str) -> list[CheckFinding]:
    """replace_text for a request that gives a paragraph a whole new text ("should just say", "的内容改成"): it changes
    only the words it finds (set_paragraph_text replaces a paragraph's text)."""
    if api != "replace_text" or not _WHOLE_TEXT.search(request):
        return []
    return [CheckFinding("part_for_whole", "the request gives the paragraph a whole new text; replace_text changes only the "
                                      "words it finds (set_paragraph_text replaces a paragraph's text)", True)]


@check("unasked_api", certain=Certainty.WRONG_API, word_lists=("api_words.json",),
       tuned_on=BUILT_ON + ALSO_1_1_TEST + ("dwbench-2.0/hand/dev",))
def unasked_api(api: str, instruction: str, previous: str = "") -> list[CheckFinding]:
    """The call's API makes or changes one kind of thing (a page break, a comment, a chart, a table, a border...)
    that the request names in none of the words of ``api_words.json``, or deletes one when the request says nothing
    of deleting (a move done as a deletion). The session's instruction before this one counts as said: a follow-up
    names its thing there ("In the actions table, ..." then "add one more action at the end"; "The screenshot is far
    too tall" then "Centre it as well"). A letter typed three times is read as two ("the commment ... can go")."""
    words = api_words().get(api)
    instruction, previous = without_tripled_letters(instruction), without_tripled_letters(previous)
    if words is None or all(w.search(instruction) or w.search(previous) for w in words):
        return []
    return [CheckFinding("unasked_api", f"{api} makes or changes something the request does not mention", True)]
