"""Rule checks of the API a call uses against what the request asks for: findings that reject the API itself."""

from __future__ import annotations

import os
import re
from typing import Any, Iterator

from autodw.agent import grounding
from autodw.agent.checks.reading import (api_words, catalogue_thing, drawing, list_kind_made, named as says,
                                         without_tripled_letters)
from autodw.agent.checks.registry import ALSO_1_1_TEST, BUILT_ON, Certainty, CheckFinding, State, check
from autodw.agent.request_values import MEASURED, UNITS
from autodw.analysis.state import header_footer_stories

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


@check("unasked_api", absence=True, certain=Certainty.WRONG_API, word_lists=("api_words.json",),
       tuned_on=BUILT_ON + ALSO_1_1_TEST + ("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-paraphrased",
                                            "dwbench-2.0/hand/dev-second", "dwbench-2.0/hand/dev-third",
                                            "dwbench-2.0/hand/dev-fourth", "dwbench-2.0/hand/dev-tenth",
                                            "dwbench-2.0/hand/dev-thirteenth", "dwbench-2.0/hand/dev-nineteenth",
                                            "dwbench-2.0/hand/dev-twenty-second", "dwbench-2.0/hand/dev-twenty-third",
                                            "dwbench-2.0/hand/dev-twenty-fifth", "dwbench-2.0/hand/dev-twenty-first",
                                            "dwbench-2.0/hand/dev-twenty-fourth", "dwbench-2.0/hand/dev-twenty-sixth",
                                            "dwbench-2.0/hand/dev-twenty-seventh", "dwbench-2.0/hand/dev-twenty-eighth",
                                            "dwbench-2.0/hand/dev-thirty-second", "dwbench-2.0/hand/dev-thirty-third",
                                            "dwbench-2.0/hand/dev-thirty-fourth", "dwbench-2.0/hand/dev-thirty-fifth",
                                            "dwbench-2.0/hand/dev-thirty-sixth", "dwbench-2.0/hand/dev-thirty-seventh",
                                            "dwbench-2.0/templated/dev", "dwbench-2.0/templated/dev-outside-second"))
def unasked_api(api: str, instruction: str, previous: str = "", args: dict[str, Any] | None = None,
                before: State | None = None, message: str = "") -> list[CheckFinding]:
    """The call's API makes or changes one kind of thing (a page break, a comment, a chart, a table, a border...)
    that the request names in none of the words of ``api_words.json``, or deletes one when the request says nothing
    of deleting (a move done as a deletion). The session's instruction before this one counts as said: a follow-up
    names its thing there ("In the actions table, ..." then "add one more action at the end"; "The screenshot is far
    too tall" then "Centre it as well"), and so do the other requests of a split `message` ("In the glossary at the
    end a couple of entries are missing the colon ..." then "Please add them.", dwh-366#6). A letter typed three times is read as two ("the commment ... can go"). A
    table the request calls by its caption or title names the call's table ("Add 2024 to the year overview" for the
    table captioned "Table 1: Year overview"). A paragraph made an item of the list of its kind right beside it joins
    that list, and so do items inserted right after or before an item of a list of their kind, which the request need
    not say ("add another case after it" in a numbered list of cases; "午餐后面再加一项" after a bulleted agenda). A
    request that quotes what the call's field template shows, a letter or number in place of each field, names it
    ("改成“第X页 共Y页”" for page numbers "第 {PAGE} 页 共 {NUMPAGES} 页"). A picture in a document that has no chart
    is named by the words of a chart: it is a chart pasted as a picture ("make that chart a little bigger"); a
    picture resize_image sizes by a height or width the request gives (:func:`_picture_sized`: "12 cm tall"), and a
    picture the request calls by its caption (:func:`_picture_captioned`: "the parking map" of "Figure 18.33-1: Draft
    Parking Map", dwh-463#2, then "and center it on the page", #3), are named. A new text for a cell of a one-column
    table, which the request dictates or says word for word, names the cell: such a table lays out lines (a cover's
    title and date) that the request calls by what they are ("封面标题…改成FieldKit 2.0 User’s Guide")."""
    words = api_words().get(api)
    if words is None:
        return []
    if message.strip() and message.strip() != instruction.strip():  # the message's other requests, the nearest first
        previous = f"{message}\n{previous}" if previous else message
    instruction, previous = without_tripled_letters(instruction), without_tripled_letters(previous)
    args, before = args or {}, before or {}
    thing = catalogue_thing(api)
    named = _table_titled(f"{instruction}\n{previous}", args.get("table"), before) or _joins_list(api, args, before) or \
        _line_of_box(api, args, before, instruction) or \
        _template_quoted(args, instruction) or _chart_picture(args, before, instruction + "\n" + previous) or \
        _picture_sized(api, args, before, instruction, previous) or \
        _picture_captioned(args, before, instruction, previous) or \
        thing is not None and (says(thing, instruction) or says(thing, previous))
    if all(w.search(instruction) or w.search(previous) or (n == 0 and named) for n, w in enumerate(words)):
        return []
    return [CheckFinding("unasked_api", f"{api} makes or changes something the request does not mention", True)]


def _line_of_box(api: str, args: dict[str, Any], before: State, instruction: str) -> bool:
    """Whether set_cell_text gives a cell of a one-column table of `before` a text `instruction` dictates, a word or
    number of it said there ("2025年6月3日" written "3 June 2025"), or a text whose every word and number the request
    says ("... the user's guide for TideWatch 2.3. Put that name on the blank line right under the big title",
    "change the cover date to 14 March 2025", dwh-514#1): a line of a page laid out in a table (:func:`unasked_api`)."""
    table = next((t for t in before.get("tables", []) if t.get("id") == args.get("table")), None)
    text = args.get("text")
    if api != "set_cell_text" or table is None or table.get("cols") != 1 or not isinstance(text, str):
        return False
    written = set(_TOKEN.findall(grounding.loose(text)))
    said = {w for a, b in grounding.dictated(instruction) for w in _TOKEN.findall(grounding.loose(instruction[a:b]))}
    return bool(said & written) or bool(written) and written <= set(_TOKEN.findall(grounding.loose(instruction)))


_TOKEN = re.compile(r"\d+|[^\W\d_]{3,}")  # a number or a word of a text (module :func:`_line_of_box`)


#: the dimension a length sizes, said after it ("12 cm tall", "8 cm wide", "12厘米高")
_DIMENSION_AFTER = re.compile(r"\s*(?:tall|high|wide|across|in\s+(?:height|width)|高|宽)", re.IGNORECASE)
#: things other than a picture a length with a dimension sizes: a request naming one names no picture by its size
_OTHER_SIZED = re.compile(r"\b(?:tables?|rows?|columns?|cells?|fonts?|text|letters?|margins?|paper|spacing|indents?|"
                          r"charts?|graphs?|headings?|titles?|paragraphs?|lines?|borders?|box(?:es)?|shapes?|"
                          r"text\s*box(?:es)?)\b|表格|字号|字体|页边距|段落|行高|列宽", re.IGNORECASE)


def _picture_sized(api: str, args: dict[str, Any], before: State, instruction: str, previous: str) -> bool:
    """Whether resize_image's ``image`` is a picture and the request, or the one before it, gives a height or width
    in a length ("Shrink it to about 12 cm tall" of "the draft parking map", then "Go to 15 cm instead", dwh-348#8,
    #9; an earlier one referred to, each on its own) and names nothing else a length sizes (:data:`_OTHER_SIZED`: a
    table, a row, the text...): it says the picture's size (a request saying no size still names no picture)."""
    image = drawing(args.get("image"), before) if api == "resize_image" else None
    if image is None or image.get("type") != "picture" or _OTHER_SIZED.search(instruction):
        return False
    return any(not _OTHER_SIZED.search(said) and any(
        UNITS[m.group(2).casefold()] != "pt" and _DIMENSION_AFTER.match(said, m.end()) for m in MEASURED.finditer(said))
        for said in (instruction, *previous.splitlines()))  # each earlier instruction referred to on its own


#: a caption's label and number ("Figure 18.33-1: ", "图2 "), which a request leaves out
_FIGURE_LABEL = re.compile(rf"^(?:{grounding.caption_labels()})\s*\d+(?:[.\-–]\d+)*\s*[:：.\-–—]?\s*", re.IGNORECASE)
_CAPTION_WORD = re.compile(r"[^\W\d_]{3,}")  # a word of a caption that names what it shows ("of", "a" do not)


def _picture_captioned(args: dict[str, Any], before: State, instruction: str, previous: str) -> bool:
    """Whether the call's ``image`` is a picture that the request, or one before it (each on its own), calls by its
    caption (:func:`_captions`), its label and number left out: by its whole text, or by its last word (what the
    caption calls the picture: "Map" of "Draft Parking Map") with another of its words ("the parking map takes up a
    whole page", dwh-463#2)."""
    image = drawing(args.get("image"), before)
    if image is None or image.get("type") != "picture":
        return False
    for caption in _captions(before, image.get("paragraph")):
        words = _CAPTION_WORD.findall(caption)
        for said in (instruction, *previous.splitlines()):
            if len(caption) >= MIN_TITLE_CHARS and caption in grounding.loose(said):
                return True
            spoken = {w for w in words if re.search(rf"(?<![^\W\d_]){re.escape(w)}(?:e?s)?(?![^\W\d_])", said,
                                                    re.IGNORECASE)}
            if len(words) >= 2 and words[-1] in spoken and len(spoken) >= 2:
                return True
    return False


def _captions(before: State, paragraph: Any) -> Iterator[str]:
    """The loose captions, label and number left out, of the picture in paragraph `paragraph`: the text of that
    paragraph and of the lines with text right before and after it (past empty ones) that are captions: styled as
    one, or opening with a caption's label and number ("Figure 18.33-1: Draft Parking Map*")."""
    paras = before.get("paragraphs", [])
    at = next((n for n, p in enumerate(paras) if p.get("id") == paragraph), None)
    if at is None:
        return
    near = [paras[at]]
    for step in (-1, 1):
        n = at + step
        while 0 <= n < len(paras) and not paras[n].get("text", "").strip():
            n += step
        if 0 <= n < len(paras):
            near.append(paras[n])
    for p in near:
        text = grounding.loose(p.get("text", ""))
        if text and ("caption" in (p.get("style") or "").casefold() or _FIGURE_LABEL.match(text)):
            yield _FIGURE_LABEL.sub("", text).strip(" *.:;,")


def _chart_picture(args: dict[str, Any], before: State, said: str) -> bool:
    """Whether the call's ``image`` is a picture of a document that has no chart, and `said` names a chart (the words
    of resize_chart in ``api_words.json``): the chart the request means is that picture."""
    image = drawing(args.get("image"), before)
    return image is not None and image.get("type") == "picture" and \
        not any(i.get("type") == "chart" for i in before.get("images", [])) and api_words()["resize_chart"][0].search(said) is not None


def _joins_list(api: str, args: dict[str, Any], before: State) -> bool:
    """Whether the call adds entries to the list right beside them, of its kind: set_list_format making paragraphs
    outside any list items of the list right before or after each of them ("add another case after it"), or
    insert_list putting its items right after or before an item of a list of its kind ("午餐后面再加一项"). An entry
    added to a list joins it, which no request says."""
    paras = before.get("paragraphs", [])
    at = {p.get("id"): i for i, p in enumerate(paras)}

    def kind_at(j: int) -> Any:
        return (paras[j].get("list") or {}).get("kind") if 0 <= j < len(paras) else None

    if api == "insert_list":
        position = args.get("position")
        side, anchor = next(iter(position.items())) if isinstance(position, dict) and len(position) == 1 else (None, None)
        return side in ("after", "before") and anchor in at and kind_at(at[anchor]) == list_kind_made(args, before)
    paragraphs, kind = args.get("paragraphs"), args.get("kind")
    if api != "set_list_format" or not paragraphs or not isinstance(paragraphs, list) or not isinstance(kind, str):
        return False

    def joins(pid: Any) -> bool:
        i = at.get(pid)
        if i is None or paras[i].get("list"):
            return False
        return any(kind_at(j) == kind for j in (i - 1, i + 1))
    return all(joins(pid) for pid in paragraphs)


#: a field of a template ("{PAGE}"), and what a request writes in its place when it quotes the template's output: a
#: letter ("X"), a number or a hash
_TEMPLATE_FIELD = re.compile(r"\\\{[a-z]+\\\}")
_FIELD_SHOWN = r"(?:[a-z]|\d+|#)"


def _template_quoted(args: dict[str, Any], request: str) -> bool:
    """Whether `request` quotes what the call's ``template`` shows, with a letter, number or hash in place of each of
    its fields, spacing, case and punctuation width ignored ("第X页 共Y页" for "第 {PAGE} 页 共 {NUMPAGES} 页")."""
    template = args.get("template")
    if not isinstance(template, str):
        return False
    pattern = re.escape(grounding.unspaced(template))
    if _TEMPLATE_FIELD.search(pattern) is None:
        return False
    shown = re.compile(_TEMPLATE_FIELD.sub(lambda _: _FIELD_SHOWN, pattern))
    return any(shown.fullmatch(grounding.unspaced(q.text)) for q in grounding.quotes(request))


#: a caption's or title's label and number ("Table 1: ", "表2 "), which a request leaves out
_TABLE_LABEL = re.compile(rf"^(?:{grounding.caption_labels(tables_only=True)})\s*\d*\s*[:：.\-–—]?\s*", re.IGNORECASE)
MIN_TITLE_CHARS = 6  # a shorter title ("Q1") is found in too many requests


def _table_titled(request: str, table: Any, before: State) -> bool:
    """Whether `request` says the caption or title of the call's table (``table``: its id), its label left out: the
    caption-styled paragraph right after or before it, or the line with text right before it (past empty ones) when
    that is a heading or a short title (:func:`_titles_before`; "In the glossary at the end" of a glossary table under
    the line "Glossary" styled as a page header, dwh-366#6)."""
    if not isinstance(table, str):
        return False
    said = grounding.loose(request)
    return any(len(title) >= MIN_TITLE_CHARS and title in said for title in _table_titles(before, table))


def _table_titles(before: State, table: str) -> Iterator[str]:
    """The loose captions and titles of table `table` (module :func:`_table_titled`)."""
    found = next((t for t in before.get("tables", []) if t.get("id") == table), None)
    if found is None:
        return
    paragraphs, after = grounding.table_surroundings(before, found)
    others = {t.get("after_paragraph") for t in before.get("tables", []) if t is not found}
    for n, paragraph in enumerate(paragraphs):  # the line with text right before it, not another table's
        if n and paragraph["id"] in others:
            break
        if paragraph.get("text", "").strip():
            if _titles_before(paragraph):
                yield _TABLE_LABEL.sub("", grounding.loose(paragraph["text"])).strip()
            break
    if after is not None and "caption" in (after.get("style") or "").casefold():
        yield _TABLE_LABEL.sub("", grounding.loose(after.get("text", ""))).strip()


MAX_TITLE_WORDS = 4  # words of an unstyled line right before a table that is its title ("Glossary", "Staff list")


def _titles_before(paragraph: dict[str, Any]) -> bool:
    """Whether `paragraph`, the line with text right before a table, is its title: styled as a heading, title or
    caption, or a short line (up to :data:`MAX_TITLE_WORDS` words) not ending as a sentence or a lead-in does."""
    text = paragraph.get("text", "").strip()
    if any(k in (paragraph.get("style") or "").casefold() for k in ("caption", "heading", "title")):
        return True
    return 0 < len(text.split()) <= MAX_TITLE_WORDS and not re.search(r"[.:;,!?。：；，！？]$", text)


def _in_word(char: str) -> bool:
    """Whether `char` is a letter or digit of a word written with spaces between words."""
    return char.isascii() and char.isalnum()


def _lost(story: dict[str, Any], text: str) -> str | None:
    """What writing `text` over a header or footer loses (set_header_footer keeps its first run's formatting and
    gives every paragraph one style and alignment), or None when it loses nothing."""
    if any(len([r for r in p.get("runs", []) if r.get("text")]) > 1 for p in story.get("paragraph_details", [])):
        return "its runs of other formatting"
    if story.get("fields") and "{" not in text:
        return "its fields"
    paragraphs = story.get("paragraph_details", [])
    for key in ("alignment", "style"):
        if len({p.get(key) for p in paragraphs}) > 1:
            return f"its paragraphs' {key}s"
    for key in ("tables", "images", "hyperlinks"):
        if story.get(key):
            return f"its {key}"
    return None


@check("whole_story_for_words", certain=Certainty.WRONG_API,
       tuned_on=("dwbench-2.0/hand/dev", "dwbench-2.0/templated/dev"))
def whole_story_for_words(api: str, args: dict[str, Any], request: str, before: State) -> list[CheckFinding]:
    """set_header_footer writing a header's or footer's text again with one part changed ("Acme Inc - Confidential"
    -> "Acme Ltd - Confidential") when the request gives the new words but not that whole text, and writing it loses
    what the old one had (runs of other formatting, fields, paragraphs of other styles or alignments, tables,
    pictures, links): replace_text changes only those words."""
    text, where = args.get("text"), args.get("where")
    if api != "set_header_footer" or not isinstance(text, str) or where not in ("header", "footer") or \
            grounding.loose(text) in grounding.loose(request):
        return []
    shown = f"{where}:{args.get('kind', 'default')}"
    for story in (story for _, name, story in header_footer_stories(before) if name == shown):  # each section's
        old = story.get("text", "")
        head = len(os.path.commonprefix([old, text]))
        tail = len(os.path.commonprefix([old[head:][::-1], text[head:][::-1]]))
        while head and _in_word(old[head - 1]):  # whole words: "Acme Inc" -> "Acme Ltd" changes "Inc"
            head -= 1
        while tail and _in_word(old[len(old) - tail]):
            tail -= 1
        changed, kept = old[head:len(old) - tail], (old[:head] + old[len(old) - tail:]).strip()
        new = text[head:len(text) - tail].strip()
        named = not new or grounding.loose(new) in grounding.loose(request)  # the words the request gives
        lost = _lost(story, text) if changed.strip() and kept and named else None
        if lost:
            ids = ", ".join(story.get("paragraphs", []))
            return [CheckFinding("whole_story_for_words", f'the call writes the whole {where} again to change '
                                 f'"{changed}" to "{new}", losing {lost}; replace_text '
                                 f"(paragraphs {ids}) changes only those words", True)]
    return []
