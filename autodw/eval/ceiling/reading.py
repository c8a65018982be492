"""Reading a role's prompt as the model receives it: the values the template's placeholders were filled with.

Each role's prompt is its template (:func:`autodw.agent.prompts.template`) filled in; the template, read as a pattern
whose placeholders match anything, gives each part back (the document state, the user's words, the step history, the
offered APIs, the sub-instruction, the executed call). The patterns come from the templates themselves, so a prompt
whose wording changes is still read, as long as it keeps its placeholders; a prompt the pattern does not match is our
bug (:class:`~autodw.core.errors.InternalError`), never guessed at.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from string import Template
from typing import Any

from autodw.agent import prompts
from autodw.agent.views import EARLIER_HEADING
from autodw.analysis.state.render import PARTS
from autodw.core.errors import InternalError
from autodw.core.ids import ID_IN_TEXT
from autodw.llm.base import Message

#: a render line saying which blocks a windowed view leaves out ("… 5 block(s) omitted (p3…p9) …"): it names ids
#: without showing them
_ELISION = re.compile(r"^… \d+ block\(s\) omitted \(.*\) …$")
#: the context a split message's request is planned with (autodw.agent.loop): which request of how many
_REQUEST = re.compile(r"The user's message makes (\d+) requests; this is request (\d+):.*?The whole message: (.*)",
                      re.S)
_STATUS = re.compile(r" \([a-z_]+\)\s*$")  # an earlier instruction's status after it (views.session_context)
#: the first line of an API's documentation (ApiSpec.prompt_doc: ``name(a, b?)``), and of its one-line summary
_DOC_LINE = re.compile(r"^([a-z][a-z0-9_]*)\(", re.M)
_SUMMARY_LINE = re.compile(r"^([a-z][a-z0-9_]*): ", re.M)


@lru_cache(maxsize=None)
def _pattern(template: str) -> re.Pattern[str]:
    """`template` as a regular expression: its text literal, each placeholder a lazy named group (a placeholder used
    twice must hold the same text)."""
    parts, seen, at = [], set(), 0
    for m in Template.pattern.finditer(template):
        parts.append(re.escape(template[at:m.start()]))
        name = m.group("named") or m.group("braced")
        if m.group("escaped") is not None:
            parts.append(re.escape("$"))
        elif name in seen:
            parts.append(f"(?P={name})")
        else:
            seen.add(name)
            parts.append(f"(?P<{name}>.*?)")
        at = m.end()
    parts.append(re.escape(template[at:]))
    return re.compile("".join(parts) + r"\Z", re.S)


def fields(role: str, messages: list[Message]) -> dict[str, str]:
    """The values `role`'s template was filled with in `messages` (the first system and user messages: later ones
    are a retry's conversation). InternalError if the prompt is not its template filled in."""
    system_template, user_template = prompts.template(role)
    if len(messages) < 2 or messages[0]["role"] != "system" or messages[1]["role"] != "user":
        raise InternalError(f"the ceiling expects a {role} prompt of a system and a user message, not "
                            f"{[m.get('role') for m in messages[:2]]}")
    out: dict[str, str] = {}
    for template, message in ((system_template.template, messages[0]), (user_template.template, messages[1])):
        match = _pattern(template).match(message["content"])
        if match is None:
            raise InternalError(f"the {role} prompt is not its template filled in (autodw/agent/prompts); the ceiling "
                                f"cannot read it: {message['content'][:200]!r}")
        out.update({k: v for k, v in match.groupdict().items() if v is not None})
    return out


def shown_lines(state: str) -> list[str]:
    """The lines of a rendered document state that show something: all but the windowing's elision lines."""
    return [line for line in state.splitlines() if not _ELISION.match(line.strip())]


#: a run of ids a view writes as its ends ("cells p24-p26": the row's cell paragraphs, one a cell, each shown)
_ID_RUN = re.compile(r"(?<!…)\b([a-z]+)(\d+)-\1(\d+)\b(?!…)")
#: an id a line names cut or as the end of an elided stretch ("p33…(+500 chars)", "p101…p147"): not shown
_CUT_ID = re.compile(rf"{ID_IN_TEXT.pattern}(?=…)|(?<=…){ID_IN_TEXT.pattern}")
#: a table row line (render._row_line): its cells' paragraph ids by grid position, then its cells' texts
_ROW_LINE = re.compile(r"^\s*r\d+ \(cells (?P<ids>[^)]*)\): \|(?P<cells>.*)\|\s*$")


#: a table's head line and a row line as the renderer writes them (autodw.analysis.state.render._table_head and
#: _row_line; _ROW_LINE above is the row line with its cells' ids)
_TABLE_HEAD = re.compile(r"^\s*(?P<id>t\d+) #\d+ TABLE (?P<rows>\d+)x\d+")
_ROW_SHOWN = re.compile(r"^\s*r(?P<row>\d+)(?: \(cells [^)]*\))?: \|")


def shown_rows(*texts: str) -> dict[str, tuple[int, set[int]]]:
    """Table id -> (its number of rows, the rows whose line `texts` show under its head line): "t3 #2 TABLE 12x4"
    then "  r0 (cells p5-p8): | … |" lines; a table shown twice has the rows of both."""
    out: dict[str, tuple[int, set[int]]] = {}
    for text in texts:
        table = None
        for line in shown_lines(text):
            head, row = _TABLE_HEAD.match(line), _ROW_SHOWN.match(line)
            if head is not None:
                table = head.group("id")
                out.setdefault(table, (int(head.group("rows")), set()))
            elif row is not None and table is not None:
                out[table][1].add(int(row.group("row")))
            elif not line.startswith(" "):
                table = None
    return out


def shown_ids(*texts: str) -> set[str]:
    """The element ids `texts` show: those a line names, runs written as their ends included ("p24-p26"), but not the
    ids a state's elision lines name, an id cut or named as the end of an elided stretch ("p101…p147"), nor the later
    paragraphs of a table cell whose text its row line cuts (:func:`_unshown_in_row`)."""
    lines = [line for text in texts for line in shown_lines(text)]
    ids: set[str] = set()
    for line in lines:
        unshown = set(_CUT_ID.findall(line)) | _unshown_in_row(line)
        ids.update(i for i in ID_IN_TEXT.findall(line) if i not in unshown)
        for prefix, first, last in _ID_RUN.findall(line):
            ids.update(f"{prefix}{n}" for n in range(int(first), int(last) + 1))
    return ids


def _unshown_in_row(line: str) -> set[str]:
    """The paragraphs a table row line names but does not show: of a cell of several paragraphs (``p318+p319+…``), all
    but the first when the line cuts the cell's text ("Box 2: Governance issues related to i…"; each when the cells
    cannot be told apart), the line showing only the start of the cell's text."""
    row = _ROW_LINE.match(line)
    if row is None:
        return set()
    positions = row.group("ids").split(", ")
    cells = row.group("cells").split(" | ")
    out: set[str] = set()
    for n, position in enumerate(positions):
        members = position.split("+")
        if len(members) > 1 and (len(cells) != len(positions) or cells[n].rstrip().endswith("…")):
            out.update(members[1:])
    return out


#: the words a rendered state's parts start with (render.PARTS, the document's and body's heads, a table's head), longest
#: first: a line of the document's own that starts in capitals ("ACME LTD signs...") is not one
_HEADS = "|".join(sorted(map(re.escape, (*PARTS, "DOCUMENT", "BODY", "IMAGES AND CHARTS", "STYLES IN USE", "TABLE")),
                         key=len, reverse=True))
#: the renderer's own syntax in a line (autodw.analysis.state.render), which shows nothing of the document: a label
#: after a space or a separator (``title=``, ``header[default]=``, ``size_pt=``; not a URL's ``?page=``), an element id
#: and its block's index (``p4 #3``), a row's (``r2``) and its
#: cells' ids, a note of what a cut left out (``…(+565 chars)``, ``+3 more``), a part's heading at the start of a line
#: (``IMAGES AND CHARTS:``, ``SECTION 1:``, ``TABLE 3x4``)
_SYNTAX = re.compile("|".join((
    rf"^\s*(?:{ID_IN_TEXT.pattern} #\d+ )?(?:{_HEADS})(?: \d+(?:x\d+)?)?(?=[:( ]|$)",
    r"(?<![^\s(,;⟨])[a-z][a-z_]*[a-z](?:\[[a-z]+\])?(?: \(linked\))?=",
    rf"{ID_IN_TEXT.pattern}(?: #\d+)?", r"\(cells [^)]*\)", r"^\s*r\d+\b",
    r"…\(\+\d+ chars\)", r"\+\d+ more\b(?: [a-z ]+?(?=[;⟩)]|$))?",
)), re.M)
#: lines all of whose words are the renderer's: the document's counts, the body's legend, a note of what a cut left
#: out ("… 5 rows not shown", "… 4 more image/interactive/style line(s) omitted …")
_SYNTAX_LINE = re.compile(r"^\s*(?:DOCUMENT: |BODY \(|… )")


def document_text(text: str) -> str:
    """What a rendered state (or a line of the step history) shows of the document: its lines, elision and note lines
    left out, each with the renderer's own syntax (:data:`_SYNTAX`) blanked to a line break, so that a value is found
    only in the document's texts and the names the view shows (a style's, a font's, a chart's series), never in a
    label ("title=" is no title)."""
    lines = [line for line in shown_lines(text) if not _SYNTAX_LINE.match(line)]
    return "\n".join(_SYNTAX.sub("\n", line) for line in lines)


#: scripts that write words, or a word and its affixes, without a space between them (Hebrew, Arabic, Thai, Lao,
#: Tibetan, Myanmar, Khmer, kana, Han, Hangul): a value may end inside a written word
_JOINED_SCRIPT = re.compile("[\u0590-\u08ff\u0e00-\u0fff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u9fff"
                            "\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003ffff]")


def holds_words(text: str, key: str) -> bool:
    """Whether `text` holds `key` as whole words: not starting or ending inside a word (a letter or digit next to it;
    in the scripts of :data:`_JOINED_SCRIPT`, any occurrence)."""
    at = text.find(key)
    while at >= 0 and key:
        end = at + len(key)
        if _edge(text[at - 1] if at else "", key[0]) and _edge(text[end] if end < len(text) else "", key[-1]):
            return True
        at = text.find(key, at + 1)
    return False


def _edge(outside: str, inside: str) -> bool:
    """Whether a match may end between `outside` and `inside` (a value's first or last character)."""
    return not (outside.isalnum() and inside.isalnum()) or bool(_JOINED_SCRIPT.match(outside) or _JOINED_SCRIPT.match(inside))


def users_words(instruction: str, context: str) -> str:
    """What the user wrote, of a planner's prompt: the request, the session's earlier instructions (without the
    prompt's own words around them: their numbers, statuses and heading) and, for one request of a split message, the
    whole message."""
    request = _REQUEST.search(context)  # one request's own context, after the list
    listed = context[:request.start()] if request else context
    listed = listed.split(EARLIER_HEADING, 1)[1] if EARLIER_HEADING in listed else ""
    earlier = [_STATUS.sub("", item) for item in re.split(r"(?m)^\d+\. ", listed) if item.strip()]
    return "\n".join([instruction, *earlier, *([request.group(3).strip()] if request else [])])


def request_of(context: str) -> tuple[int, int, str] | None:
    """(how many requests, which one, the whole message) of a planner's context, or None for a message planned
    whole."""
    m = _REQUEST.search(context)
    return (int(m.group(1)), int(m.group(2)), m.group(3).strip()) if m else None


def offered_apis(api_docs: str, one_line: bool = False) -> list[str]:
    """The API names an API list of a prompt offers: documentation (``name(args): ...``) or, `one_line`, one-line
    summaries (``name: ...``)."""
    return (_SUMMARY_LINE if one_line else _DOC_LINE).findall(api_docs)


def executed_call(call: str) -> tuple[str, Any]:
    """The API and arguments of a call as the validator's prompt shows it (``name({...})``)."""
    m = re.fullmatch(r"([a-z][a-z0-9_]*)\((.*)\)", call.strip(), re.S)
    if m is None:
        raise InternalError(f"the validator's prompt shows no call the ceiling can read: {call[:200]!r}")
    return m.group(1), json.loads(m.group(2))
