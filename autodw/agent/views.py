"""What each LLM role is shown besides its request: the document state rendered to a budget around the elements in
play, the steps done so far, and (for a planner that sees the request's start state) the changed elements now.

How the planner sees the document is a part of the agent (:class:`PlannerView`): :class:`CurrentView` (the document
as it is now, at every step) or :class:`StartView` (as the request began, then the changed elements as they are now;
its prompt then starts the same at every step of a request, so a prompt cache reuses it).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol

from autodw.agent import grounding, pointing, prompts
from autodw.agent.distinctive import distinctive_blocks, drawings_described, names_held
from autodw.agent.records import Attempt, InstructionResult, Step
from autodw.core.ids import ID_IN_TEXT
from autodw.analysis.state import State
from autodw.analysis.state.render import custom_headings, heading_level, render_elements, render_state

ELEMENT_ID = ID_IN_TEXT  # an element id in free text
MAX_TOUCHED_SHOWN = 8  # elements shown as they are now to a planner that sees the instruction's start state
MAX_NEW_IDS = 16  # ids a step created that the step history lists
MAX_EARLIER_BESIDE = 12  # blocks the previous instruction pointed at, shown beside those a request points at itself


def named_ids(attempt: Attempt) -> list[str]:
    """Element ids an attempt's arguments name, then those its call created or found (a search's)."""
    return ELEMENT_ID.findall(json.dumps(attempt.args or {})) + list(attempt.created) + list(attempt.found)


def found_last(record: InstructionResult) -> list[str]:
    """The elements the request's last step found, when it was a search (a call that only reads, accepted): the
    planner looked for them, so its view goes there first."""
    last = record.steps[-1].accepted if record.steps else None
    return list(last.found) if last is not None else []


def state_view(state: State, text: str, record: InstructionResult, budget: int | None,
               extra_focus: Iterable[str] = (), parts: Iterable[str] = (), pointed: Iterable[str] = (),
               listed: Iterable[str] = (), named: Iterable[str] = ()) -> str:
    """`state` rendered to `budget` tokens, focused on (in this order) the ids `text` names, what the last step found
    when it was a search (:func:`found_last`) and the lists under it (:func:`found_lists`), `extra_focus` and the ids
    the last two steps' attempts named, created or found, the sections of the headings their searches found
    (:func:`found_sections`) and the `pointed` blocks shown next (the window not centred on them), then the `listed`
    ones at least by their short lines; the ids `text` names and `named` shown at least by their id and the start of
    their text however small the budget; the header and footer lines of `parts` kept first, the styles `text` names
    first in the styles line."""
    named = [*ELEMENT_ID.findall(text), *named]
    found = found_last(record)
    focus = [*named, *found, *found_lists(state, text, found), *extra_focus]
    for step in record.steps[-2:]:
        for attempt in step.attempts:
            focus += named_ids(attempt) + where_removed(state, attempt)
    # the sections of the headings the last two steps' searches found (the generator's view of the step after one)
    searched = [f for step in record.steps[-2:] for attempt in step.attempts if attempt.accepted for f in attempt.found]
    pointed = [*found_sections(state, searched), *pointed]
    return render_state(contents_marked(state), budget_tokens=budget, focus=focus, parts=parts, pointed=pointed,
                        listed=listed, styles=styles_said(state, text), named=named)


def found_lists(state: State, text: str, found: Iterable[str]) -> list[str]:
    """The list items right under each paragraph a search `found` (:func:`~autodw.agent.pointing.items_under`), when
    `text` speaks of a list (:func:`~autodw.agent.pointing.speaks_of_list`): the search found the list's lead-in ("the
    bulleted list of the other PNDU guidelines" of a Spanish report: a search for "PNDU" finds "... la PNDU establece
    lineamientos en otras áreas ...", the list after it, dwh-527#6)."""
    return [i for f in found for i in pointing.items_under(state, f)] if pointing.speaks_of_list(text) else []


def found_sections(state: State, found: Iterable[str]) -> list[str]:
    """The blocks of the sections under the headings among the paragraphs a search `found` (each whole when it fits,
    else by its outline: :func:`~autodw.agent.pointing.fits`), in document order: a heading holding the words looked
    for titles the part of the document that is about them, which a broad search's scattered matches would otherwise
    leave out ("后面讲TOC域语法那里有三张开关说明的表": a search for "TOC" found 31 lines, among them the heading "TOC
    Field Syntax", whose section holds the three tables, dwh-545#4)."""
    custom = custom_headings(state)
    found = set(found)
    headings = [p["id"] for p in state.get("paragraphs", [])
                if p["id"] in found and heading_level(p.get("style"), custom) is not None]
    if not headings:
        return []
    order = pointing.body_ids(state)
    at = {bid: n for n, bid in enumerate(order)}
    out: list[str] = []
    for pid in headings:
        under = grounding.heading_section(state, pid)
        if under is None or pid not in at or under[1] not in at:
            continue
        section = pointing.section_blocks(state, order, at[pid], at[under[1]])
        out += section if pointing.fits(state, section) else pointing.outline(state, section)
    return list(dict.fromkeys(out))


def styles_said(state: State, text: str) -> list[str]:
    """The document's styles `text` names (:func:`~autodw.agent.grounding.names_in`: 'name "Caption"', dwh-310#9)."""
    return [s["name"] for s in (state.get("styles") or {}).get("styles", []) if grounding.names_in(text, s["name"])]


def where_removed(state: State, attempt: Attempt) -> list[str]:
    """The paragraphs now either side of those an accepted attempt removed (the window stays where a deletion was:
    the next block of a section being deleted one by one is there)."""
    paras = state.get("paragraphs", [])
    present = {p["id"] for p in paras}
    out = []
    for pid, n in attempt.removed if attempt.accepted else ():
        if pid not in present:
            out += [paras[i]["id"] for i in (n, n - 1) if 0 <= i < len(paras)]
    return out


def contents_marked(state: State) -> State:
    """`state` with each table of contents entry's text saying that it is an entry and which paragraph is its heading
    (a small model otherwise takes the first line with a heading's text, the entry, for the heading)."""
    entries = grounding.contents_entries(state)
    if not entries:
        return state

    def marked(p: dict[str, Any]) -> dict[str, Any]:
        heading = entries[p["id"]]
        note = f"a contents entry; the heading is {heading}" if heading else "a contents entry"
        return {**p, "text": f"{p.get('text', '')} ({note})"}

    return {**state, "paragraphs": [marked(p) if p["id"] in entries else p for p in state.get("paragraphs", [])]}


def grounded_view(state: State, text: str, record: InstructionResult, budget: int | None, quoted_in: str,
                  extra_focus: Iterable[str] = (), max_lines: int | None = None, previous: str = "",
                  pointing_in: str | None = None) -> str:
    """:func:`state_view` with the elements the texts quoted in `quoted_in` name kept in view and listed after it, then
    where those naming none are written (:func:`~autodw.agent.grounding.held_lines`)
    (:mod:`autodw.agent.grounding`; at most `max_lines` of them; `previous`: the session's instruction before, which a
    request that only refers back with a pronoun grounds) and the blocks holding its distinctive words and the names
    it says (:mod:`autodw.agent.distinctive`), the window centred on them; then what else it points at
    (:mod:`autodw.agent.pointing`: by its words, its position, the sections of the headings it names; in `pointing_in`,
    by default `quoted_in`; when it points at nothing, the few blocks holding a number it says
    (:func:`~autodw.agent.pointing.numbers_held`, the window centred on them when nothing else is) and what `previous`
    points at), shown ahead of the blocks far from them; every table by its first row when it speaks of a table but names none (:func:`~autodw.agent.pointing.tables_listed`),
    and the line under or above each table it means when it speaks of one (:func:`~autodw.agent.pointing.lines_beside`)."""
    matches = grounding.ground(state, quoted_in, previous=previous)[:max_lines]
    pointing_in, named = ((quoted_in, matches) if pointing_in is None or pointing_in == quoted_in else
                          (pointing_in, grounding.ground(state, pointing_in, previous=previous)[:max_lines]))
    own = [m for m in matches if not m.earlier]  # what the previous instruction named comes after the request's words
    earlier = _matched([m for m in matches if m.earlier])
    # a request pointing at a place itself ("回到封面，那个标题"): the previous instruction's elements are not focus
    # (shown beside it when it leans back: pointing.earlier below)
    alone = [m for m in named if not m.earlier]
    by_itself = pointing.pointed(state, pointing_in, alone) if earlier else []
    # "paragraphs p1, ..., p6 and 14 more": the others like those, after them (:func:`~autodw.agent.pointing.more_named`)
    more = pointing.more_named(state, text)
    focus = [*extra_focus, *more, *_matched(own), *distinctive_blocks(state, quoted_in),
             *drawings_described(state, grounding.undictated(quoted_in)),
             *names_held(state, grounding.undictated(quoted_in)), *([] if by_itself else earlier)]
    # what it points at with all it names: what it points at by itself when none of that is earlier (computed once)
    pointed = list(by_itself) if earlier and len(alone) == len(named) else pointing.pointed(state, pointing_in, named)
    # a request that speaks of a table but names none: every table by its first row, to tell which it means
    listed = pointing.tables_listed(state, pointing_in, [*pointed, *(m.id for m in named)])
    pointed += pointing.lines_beside(state, pointing_in, [*pointed, *listed])  # "the line right under each table"
    drawn: list[str] = []  # the pictures the previous instruction described, when the request refers back to it
    refers = bool(previous) and (not pointed or grounding.leans_back(state, pointing_in)
                                 or grounding.restores(pointing_in) or grounding.recalls_changes(pointing_in))
    own_pointed = list(pointed)  # what the request points at by its own words, before what the previous one did
    # words the document does not share (a request in another language), or that point elsewhere than the numbers it
    # says: those numbers may still name the target (in the section it names, when some are there)
    inside = pointing.within(state, alone)
    numbers = pointing.numbers_missed(state, pointing_in, pointed, inside)
    if refers:
        # a request that points at nothing ("Italic instead"), leans back ("Fix that line") or speaks of what was
        # changed ("这两个改过的格子", dwh-532#3) means what the one(s) before did, or the text they wrote
        # (beside blocks its own words point at, the first MAX_EARLIER_BESIDE: the end of a long document the
        # previous one pointed at took the lines around the request's own target from the view, dwh-234#2)
        before = grounding.ground(state, previous)[:max_lines]
        back = pointing.earlier(state, previous, before)
        # the pictures the nearest one described ("it" after "The class diagram looks tiny ... Make it a bit bigger",
        # beside "the main screen screenshot" it compares to, dwh-534#6): their lines in view
        drawn = drawings_described(state, grounding.undictated(previous.split("\n", 1)[0]))
        numbers = numbers or pointing.numbers_missed(state, previous, back)  # "20号有点夸张了" after "（0590到07BF）…放大到20号"
        listed = listed or pointing.tables_listed(state, previous, [*back, *(m.id for m in before)])
        # (none when only the earlier instructions' names point: "这些行字号也调小一点" after a font set on the 26
        # lines of a long section named then, dwh-484#5)
        beside = back[:MAX_EARLIER_BESIDE] if (by_itself if earlier else pointed) else back
        # grounded by the previous instructions' names: the request's own blocks first, then those the previous ones
        # pointed at (the nearest first), then what their names point at (a heading two turns back, dwh-306#4)
        pointed = list(dict.fromkeys([*by_itself, *beside, *pointed])) if earlier else pointed + beside
        # "do the same for everyone else's": the previous target, then the blocks playing its part under the other
        # headings like its own, ahead of the rest (dwh-403#7)
        others = pointing.counterparts(state, grounding.undictated(pointing_in), back)
        pointed = list(dict.fromkeys([*back[:1], *others, *pointed])) if others else pointed
        # "the check-in paragraph just after it": the block beside the previous target, first (dwh-491#7)
        pointed = list(dict.fromkeys([*pointing.next_to_it(state, pointing_in, back), *pointed]))
    pointed += pointing.rows_through(state, pointing_in, [*pointed, *(m.id for m in named)])  # "the last columns"
    # one that speaks of a chapter but names none: the headings by their short lines, to tell which it means
    # (by its own words: a heading beside the previous instruction's place is not the one it names in another
    # language, "秘书处那一页的标题" after a request on the glossary, dwh-422#4)
    listed = [*listed, *pointing.headings_listed(state, pointing_in, [*own_pointed, *(m.id for m in named)])]
    listed += pointing.chapters_typed(state, pointing_in)  # "none of the chapter titles are real headings"
    pointed = [*numbers, *pointed]
    if pointing_in != quoted_in:  # the names the request says beside the step's quotes ("Kashin ...": "А.Г.Кашин")
        pointed += names_held(state, grounding.undictated(pointing_in))
    if not focus and (pointing.at_end(pointing_in) or refers and pointing.at_end(previous)):
        focus = pointing.end_blocks(state)  # nothing else to centre on: the window is at the end pointed at
    elif not focus:
        # nothing else to centre on: the window is around the blocks holding the numbers it says, with their
        # neighbours ("从第1501项开始另起一页" of 3,482 numbered headings: the break goes after item 1500, dwh-327#6)
        focus = numbers
    else:  # the lines holding its numbers in the section it names, with their neighbours ("2000到2EFF那一项的示例")
        focus += [bid for bid in numbers if bid in inside]
    view = state_view(state, text, record, budget, extra_focus=[*focus, *drawn], parts=pointing.parts(pointing_in),
                      pointed=pointed, listed=listed, named=more)
    lines = "\n\n".join(t for t in (grounding.grounding_lines(matches), grounding.held_lines(state, quoted_in, matches)) if t)
    return f"{view}\n\n{lines}" if lines else view


def _matched(matches: list[grounding.Match]) -> list[str]:
    """The ids of `matches`, then the ids under them (a heading's section, a list's items)."""
    return [*(m.id for m in matches), *(i for m in matches if m.under for i in m.under)]


#: the line before the session's earlier instructions in a planner's prompt
EARLIER_HEADING = "Earlier instructions of this session (already carried out):\n"


def session_context(session: list[InstructionResult]) -> str:
    """The earlier instructions of the session and how they ended ("" for the first)."""
    if not session:
        return ""
    done = "\n".join(f"{i}. {s.instruction} ({s.status})" for i, s in enumerate(session, 1))
    return f"{EARLIER_HEADING}{done}\n\n"


def history(record: InstructionResult, history_chars: int, exclude: Step | None = None) -> str:
    """One line per step: sub-instruction -> call -> outcome. The sub-instruction's first line and the call are each
    cut to `history_chars` (a noisy-oracle step's second line repeats the whole user instruction: kept once per
    step it made the validator's prompt grow with the square of the number of steps)."""
    lines = []
    for step in record.steps:
        if step is exclude:
            continue
        final = step.accepted or (step.attempts[-1] if step.attempts else None)
        if final is None:
            continue
        call = history_call(final.api, final.args, history_chars) if final.api else "(no call)"
        sub_instruction = history_step(step.sub_instruction, history_chars)
        outcome = f"ok: {final.message}{new_ids(final)}{removed(final, history_chars)}" if final.accepted else f"FAILED: {final.error or 'rejected: ' + (final.verdict.explanation if final.verdict else '')}"
        lines.append(f"{step.number}. {sub_instruction} -> {call} -> {outcome}")
    return "\n".join(lines) or "(none yet)"


def says_id(text: str, eid: str) -> bool:
    """Whether `text` names element id `eid` as a whole ("p1" is not in "p12" nor in "row-p1")."""
    return re.search(rf"(?<![\w-]){re.escape(eid)}(?!\w)", text) is not None


def new_ids(attempt: Attempt) -> str:
    """The ids a call created that its message does not name (the cells of a new row or table, a watermark's shape),
    as the history shows them (at most :data:`MAX_NEW_IDS`): later steps can only name what the model has seen."""
    unnamed = [i for i in attempt.created if not says_id(attempt.message, i)]
    if not unnamed:
        return ""
    more = f" and {len(unnamed) - MAX_NEW_IDS} more" if len(unnamed) > MAX_NEW_IDS else ""
    return f" (new: {', '.join(unnamed[:MAX_NEW_IDS])}{more})"


def removed(attempt: Attempt, history_chars: int) -> str:
    """What a call removed, as the history shows it (each removed paragraph's, row's or column's text, together cut to
    `history_chars`): the document no longer shows it, and a later step may need it (a row or paragraph moved by
    deleting it and inserting it again, a caption replaced by a new one with the same words)."""
    if not attempt.removed_texts:
        return ""
    shown = "; ".join(f'{what}: "{text}"' for what, text in attempt.removed_texts)
    return f" (removed {cut(shown, history_chars)})"


def history_call(api: str, args: Any, history_chars: int) -> str:
    """A call as a line of the step history shows it: cut to `history_chars`."""
    return cut(prompts.format_call(api, args), history_chars, "…)")


def history_step(sub_instruction: str, history_chars: int) -> str:
    """A sub-instruction as a line of the step history shows it: its first line, cut to `history_chars`."""
    return cut(sub_instruction.split("\n", 1)[0], history_chars)


def cut(text: str, limit: int, more: str = "…") -> str:
    """`text`, or its first `limit` characters and `more`: a line of the step history."""
    return text if len(text) <= limit else text[:limit] + more


def touched_now(record: InstructionResult, state: State) -> str:
    """The current lines of the elements this instruction's accepted calls named, created or changed
    (at most `MAX_TOUCHED_SHOWN`), then of the blocks now either side of what the last one removed
    (:func:`where_removed`: the next block of a chapter deleted one by one, which the start view may omit, dwh-431#2)."""
    touched: list[str] = []
    last = None
    for step in record.steps:
        if step.accepted:
            found = named_ids(step.accepted) + ELEMENT_ID.findall(step.accepted.changes or "")
            touched = list(dict.fromkeys([*touched, *found]))
            last = step.accepted
    touched = touched[-MAX_TOUCHED_SHOWN:]
    if not touched:
        return ""
    marked = contents_marked(state)
    lines = render_elements(marked, touched)
    gone = [i for i in touched if not any(says_id(line, i) for line in lines)]
    lines += [f"{i}: no longer in the document" for i in gone]
    around = [i for i in where_removed(state, last) if i not in touched] if last else []
    beside = render_elements(marked, around) if around else []
    return "\n\nThose elements now:\n" + "\n".join(lines) + \
        ("\n\nNow either side of what was removed:\n" + "\n".join(beside) if beside else "")


# --- the planner's view of the document ---------------------------------------------------------------------------


class PlannerView(Protocol):
    """How the planner sees the document and the steps done."""

    def for_message(self, state: Callable[[], dict[str, Any]], message: str, record: InstructionResult,
                    previous: str = "") -> str | None:
        """The view the requests of a split message share (None: each request has its own); `state` reads the
        document as the message begins; `previous`: the session's instruction before this one ("" for none)."""
        ...

    def for_step(self, state: State, request: str, record: InstructionResult, kept: str | None,
                 previous: str = "") -> str:
        """The view for planning the next step of `request` (`kept`: the view of the request's previous step, or the
        message's shared one; None at its first step)."""
        ...

    def history(self, record: InstructionResult, state: State) -> str:
        """The steps so far, as the planner sees them."""
        ...


@dataclass(frozen=True)
class CurrentView:
    """The document as it is now, at every step (the paper's). `grounded`: the elements the quoted texts name are
    kept in view and listed (:func:`grounded_view`)."""

    grounded: bool
    budget: int | None
    history_chars: int

    def render(self, state: State, text: str, record: InstructionResult, previous: str = "") -> str:
        if self.grounded:
            return grounded_view(state, text, record, self.budget, quoted_in=text, previous=previous)
        return state_view(state, text, record, self.budget)

    def for_message(self, state: Callable[[], dict[str, Any]], message: str, record: InstructionResult,
                    previous: str = "") -> str | None:
        return None

    def for_step(self, state: State, request: str, record: InstructionResult, kept: str | None,
                 previous: str = "") -> str:
        return self.render(state, request, record, previous)

    def history(self, record: InstructionResult, state: State) -> str:
        return history(record, self.history_chars)


@dataclass(frozen=True)
class StartView(CurrentView):
    """The document as the request began (the message, when its requests are planned one at a time), then the history
    and the current lines of the elements the steps changed; after a search, the document now, around what it found."""

    def for_message(self, state: Callable[[], dict[str, Any]], message: str, record: InstructionResult,
                    previous: str = "") -> str | None:
        return self.render(state(), message, record, previous)

    def for_step(self, state: State, request: str, record: InstructionResult, kept: str | None,
                 previous: str = "") -> str:
        # after a search, the document as it is now, around what it found
        return kept if kept is not None and not found_last(record) else self.render(state, request, record, previous)

    def history(self, record: InstructionResult, state: State) -> str:
        if not record.steps or found_last(record):  # (after a search, the view above is the document now)
            return history(record, self.history_chars)
        searched = next((s.number for s in reversed(record.steps) if s.accepted is not None and s.accepted.found), None)
        when = "before these operations" if searched is None else f"after operation {searched} (a search)"
        return (f"(The document state above is from {when}; the elements they changed are shown as they are now "
                "after the list.)\n" + history(record, self.history_chars) + touched_now(record, state))
