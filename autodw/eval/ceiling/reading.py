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
from autodw.core.errors import InternalError
from autodw.core.ids import ID_IN_TEXT
from autodw.llm.base import Message

#: a render line saying which blocks a windowed view leaves out ("… 5 block(s) omitted (p3…p9) …"): it names ids
#: without showing them
_ELISION = re.compile(r"^… \d+ block\(s\) omitted \(.*\) …$")
#: the context a split message's request is planned with (autodw.agent.loop): which request of how many
_REQUEST = re.compile(r"The user's message makes (\d+) requests; this is request (\d+):.*?The whole message: (.*)",
                      re.S)
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


#: a run of ids a view writes as its ends ("cells p24-p26": the row's cell paragraphs)
_ID_RUN = re.compile(r"\b([a-z]+)(\d+)-\1(\d+)\b")


def shown_ids(*texts: str) -> set[str]:
    """The element ids `texts` show, runs written as their ends included ("p24-p26"; a state's elision lines name
    ids without showing them)."""
    lines = [line for text in texts for line in shown_lines(text)]
    ids = {i for line in lines for i in ID_IN_TEXT.findall(line)}
    for line in lines:
        for prefix, first, last in _ID_RUN.findall(line):
            ids.update(f"{prefix}{n}" for n in range(int(first), int(last) + 1))
    return ids


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
