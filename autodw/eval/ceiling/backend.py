"""The ceiling backend: an LLM backend that answers every role of the agent as a perfect model would, using only what
its prompt shows.

It knows the instruction's gold calls (what the user wants) and reads each prompt as the model receives it
(:mod:`autodw.eval.ceiling.reading`):

- planner: the next gold step not yet carried out (the step history's accepted calls say which are), phrased from the
  gold API's description, its elements and values (:func:`~autodw.eval.ceiling.needs.phrase`), when the prompt shows
  them (:func:`~autodw.eval.ceiling.needs.seen`); else it stops, the obstacle attributed to the planner's view. For
  one request of a split message, only the gold steps that serve it (:func:`assign_requests`);
- API chooser and generator: the gold API or call when the API is offered, the call fits the answer schema (and, for
  the embedded model, its answer limit) and the prompt shows its ids and values; else an answer marked forced-wrong
  (no API of the list: the agent sees an invalid answer and makes no call), the obstacle attributed to the intent
  filter (to the rollback when a retry leaves out the API the ceiling already answered), the schema or the
  generator's view;
- validator: pass exactly for the gold call of the step (the same call on the same document makes the gold change),
  compared as the agent executes and shows calls (:func:`executed_gold`).

Each obstacle is sent as a ``ceiling`` event (``emit``): role, gold step, cause and what was missing.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace
from typing import Any, Callable

from jsonschema import Draft202012Validator

from autodw.agent.assembly import Assembly
from autodw.agent.grounding import loose
from autodw.agent.requests import split
from autodw.agent.views import history_call, history_step
from autodw.analysis.state.render import estimate_tokens
from autodw.apis.calls import validate_arguments
from autodw.apis.registry import Registry
from autodw.core.errors import ArgumentError, BenchmarkDataError, InternalError
from autodw.dwbench.records import Instruction
from autodw.eval.ceiling.needs import evidence, needs, phrase, seen
from autodw.eval.ceiling.reading import document_text, executed_call, fields, offered_apis, request_of, users_words
from autodw.eval.ceiling.searches import MAX_SEARCHES, best_search
from autodw.llm.base import Completion, Message
from autodw.llm.tokens import estimate_usage

#: the causes an obstacle is attributed to (autodw.eval.ceiling.causes describes them)
INTENT_FILTER, PLANNER_VIEW, GENERATOR_VIEW, SCHEMA, LOOP = ("intent filter", "planner view", "generator view",
                                                             "schema", "loop mechanics")
SEARCH_API = "find_text"  # the API a perfect planner searches with (autodw.eval.ceiling.searches)
FORCED_API = "(forced wrong: no API)"  # the API of a forced-wrong answer: no offered API has this name
LOCAL_ANSWER_TOKENS = 512  # the embedded model's answer limit (autodw.llm.local.LocalBackend's max_tokens)
REMAINING_ITEMS, REMAINING_CHARS, REASON_CHARS = 6, 200, 300  # the planner schema's bounds


def executed_gold(registry: Registry, instruction: Instruction) -> list[tuple[str, Any]]:
    """Each gold call of `instruction` as the agent executes it and its prompts and trace show it: its arguments
    validated (:func:`~autodw.apis.calls.validate_arguments`: a bare paragraph spacing of 6 is the call's "6pt"), so
    that the gold call the agent made compares equal to its gold. BenchmarkDataError for a gold call the APIs refuse."""
    out = []
    for k, call in enumerate(instruction.gold, 1):
        try:
            out.append((call.api, validate_arguments(registry.get(call.api), call.args)))
        except ArgumentError as exc:
            raise BenchmarkDataError(f"{instruction.key}: gold call {k} ({call.api}) does not fit the APIs at this "
                                     f"commit: {exc}; check the session's data") from exc
    return out


def assign_requests(requests: list[str], registry: Registry, gold: list[Any],
                    elements: dict[str, str] | None = None) -> list[int]:
    """The request (0-based) of a split message each gold call serves: the request that names it best (its copied
    texts and the elements it acts on, then the words of its kind of change, then its other values; `elements`: each
    id's text in the document: :func:`~autodw.eval.ceiling.needs.evidence`),
    never one before the previous call's (the gold order is kept); a call that no request names serves the previous
    call's request, unless the next request names it as well as that one and the calls left are no more than the
    requests after it (each request serves a call: "add a row ... . and make the top row bold")."""
    out, current = [], 0
    for i, call in enumerate(gold):
        scores = [evidence(registry.get(call.api), call.args, r, elements) for r in requests]
        best = max(range(len(requests)), key=lambda k: (scores[k], -k))
        if any(scores[best]) and best > current:
            current = best
        elif len(gold) - i <= len(requests) - 1 - current and scores[current + 1] >= scores[current]:
            current += 1
        out.append(current)
    return out


class CeilingBackend:
    """Answers each role's prompt as a perfect model would for `instruction` (module docstring). `document`: the
    document as the instruction begins, rendered whole (where a value the view does not show could have been read);
    `elements`: each element id's text then (which request of a split message names a call's target); `emit`
    receives the obstacles."""

    name = "ceiling"

    def __init__(self, instruction: Instruction, assembly: Assembly, registry: Registry, document: str,
                 emit: Callable[[str, dict[str, Any]], None] | None = None, elements: dict[str, str] | None = None,
                 row_cells: dict[tuple[str, int], list[str]] | None = None):
        self.profile = assembly.profile
        self.instruction, self.registry, self.emit, self.elements = instruction, registry, emit, elements or {}
        self.row_cells = row_cells or {}  # (table, row) -> its cells' paragraph ids: a search's targets for a row
        self.document = loose(document_text(document))  # what it shows of the document, not the renderer's labels
        self.gold = list(instruction.gold)
        self.executed = executed_gold(registry, instruction)  # the gold calls as the agent's prompts show them
        self.needs = [needs(registry.get(g.api), g.args) for g in self.gold]
        self.phrases = [phrase(registry.get(g.api), g.args) for g in self.gold]
        chars = assembly.numbers.history_chars
        self.history_calls = [history_call(api, args, chars) for api, args in self.executed]
        self.history_steps = [history_step(p, chars) for p in self.phrases]
        self.answer_limit = LOCAL_ANSWER_TOKENS if assembly.profile == "local" else None
        self.current: int | None = None  # the gold step the planner gave last
        self._done: set[int] = set()  # the gold steps the last step history read showed carried out
        self._answered: set[int] = set()  # the gold steps whose API the ceiling answered a chooser or generator with
        self._answers: dict[str, dict[str, Any]] = {}
        self._searches: dict[str, tuple[int, dict[str, Any]]] = {}  # a search's sub-instruction -> (gold step, args)
        self._tried: dict[int, set[str]] = {}  # the queries searched before each gold step

    # --- the backend interface ----------------------------------------------------------------------------------

    def complete(self, messages: list[Message], *, role: str, schema: dict[str, Any] | None = None,
                 temperature: float | None = None, max_tokens: int | None = None) -> Completion:
        """The role's answer to the prompt (the first two messages; a retry's are the same prompt again)."""
        roles = {"planner": self._plan, "api_chooser": self._choose, "api_generator": self._generate,
                 "validator": self._judge}
        if role not in roles:
            raise InternalError(f"the ceiling backend answers the agent's roles, not {role!r}")
        key = hashlib.sha256(json.dumps([role, messages[:2], schema, max_tokens], sort_keys=True,
                                        ensure_ascii=False).encode()).hexdigest()
        if key not in self._answers:
            self._answers[key] = roles[role](messages, schema, max_tokens)
        text = json.dumps(self._answers[key], ensure_ascii=False)
        return Completion(text, estimate_usage(messages, text), model="ceiling")

    # --- the roles ------------------------------------------------------------------------------------------------

    def _plan(self, messages: list[Message], schema: Any, max_tokens: int | None) -> dict[str, Any]:
        f = fields("planner", messages)
        done = self._carried_out(f["history"])
        scope = request_of(f["session_context"])
        own = range(len(self.gold)) if scope is None else [
            i for i, r in enumerate(self._requests(*scope)) if r == scope[1] - 1]
        todo = [i for i in own if i not in done]
        if not todo:
            return _stop("ceiling: every gold step of this request is carried out")
        step = todo[0]
        if self._failed(step, f["history"]):
            return _stop(f"ceiling: gold step {step + 1} failed; a perfect model has no other way to it")
        words = users_words(f["instruction"], f["session_context"])
        found = seen(self.needs[step], state=f["state"], history=f["history"], words=words, document=self.document)
        remaining = [self.phrases[i][:REMAINING_CHARS] for i in todo[1:1 + REMAINING_ITEMS]]
        if not found.shown:
            search = self._search(step, [*found.missing_ids, *self._row_targets(found.missing_rows)], words)
            if search is not None:  # a search for the targets first, with the user's words (ceiling.searches)
                return {"done": False, "sub_instruction": search,
                        "remaining": [self.phrases[step], *remaining][:REMAINING_ITEMS],
                        "reason": f"ceiling: a search for gold step {step + 1}'s targets"}
            tried = len(self._tried.get(step, ()))
            detail = found.detail() + (f" (after {tried} search(es))" if tried else "")
            self._obstacle("planner", step, [(PLANNER_VIEW, detail)], found.interpreted)
            return _stop(f"ceiling forced stop: {PLANNER_VIEW}: {detail}")
        self.current = step
        return {"done": False, "sub_instruction": self.phrases[step], "remaining": remaining,
                "reason": f"ceiling: gold step {step + 1} of {len(self.gold)}"}

    def _choose(self, messages: list[Message], schema: Any, max_tokens: int | None) -> dict[str, Any]:
        f = fields("api_chooser", messages)
        search = self._searches.get(f["sub_instruction"].strip())
        if search is not None:
            offered = offered_apis(f["api_list"], one_line=True)
            return {"api": SEARCH_API} if self._search_offered(search, offered) else {"api": FORCED_API}
        step = self._step_of(f["sub_instruction"], None)
        if step is None:
            return self._no_gold_step("api_chooser", f["sub_instruction"])
        offered = offered_apis(f["api_list"], one_line=True)
        api = self.gold[step].api
        if api not in offered:
            self._obstacle("api_chooser", step, [self._not_offered(step, offered, f["feedback"])])
            return {"api": FORCED_API}
        self._answered.add(step)
        return {"api": api}

    def _generate(self, messages: list[Message], schema: Any, max_tokens: int | None) -> dict[str, Any]:
        f = fields("api_generator", messages)
        search = self._searches.get(f["sub_instruction"].strip())
        if search is not None:
            offered = offered_apis(f["api_docs"])
            return {"api": SEARCH_API, "args": search[1]} if self._search_offered(search, offered) else \
                {"api": FORCED_API, "args": {}}
        step = self._step_of(f["sub_instruction"], f["history"])
        if step is None:
            return self._no_gold_step("api_generator", f["sub_instruction"])
        gold = self.gold[step]
        answer = {"api": gold.api, "args": gold.args}
        obstacles = []
        offered = offered_apis(f["api_docs"])
        if gold.api not in offered:
            obstacles.append(self._not_offered(step, offered, f["feedback"]))
        else:
            errors = [] if schema is None else sorted(Draft202012Validator(schema).iter_errors(answer),
                                                      key=lambda e: list(e.path))
            if errors:
                obstacles.append((SCHEMA, "the answer schema refuses the gold call: " + "; ".join(
                    f"{'.'.join(map(str, e.path)) or 'answer'}: {e.message[:160]}" for e in errors[:3])))
        # the rows were the planner's to see: its step names them by number, which the generator copies
        found = seen(replace(self.needs[step], rows=()), state=f["state"], history=f["history"],
                     words=f["instruction"], document=self.document)
        if not found.shown:
            obstacles.append((GENERATOR_VIEW, found.detail()))
        limit = max_tokens or self.answer_limit
        tokens = estimate_tokens(json.dumps(answer, ensure_ascii=False))
        if limit is not None and tokens > limit:
            obstacles.append((SCHEMA, f"the gold call's answer (~{tokens} tokens) exceeds the answer limit of {limit}"))
        if obstacles:
            self._obstacle("api_generator", step, obstacles, found.interpreted)
            return {"api": FORCED_API, "args": {}}
        self.current = step
        self._answered.add(step)
        return answer

    def _judge(self, messages: list[Message], schema: Any, max_tokens: int | None) -> dict[str, Any]:
        f = fields("validator", messages)
        api, args = executed_call(f["call"])
        step = self._step_of(f["sub_instruction"], f["history"])
        if step is not None and (api, args) == self.executed[step]:
            return {"decision": "pass", "confidence": 1.0, "explanation": f"ceiling: the gold call of step {step + 1}"}
        return {"decision": "fail", "confidence": 1.0,
                "explanation": "ceiling: not the gold call of this step" if step is not None else
                "ceiling: no gold call is left to carry out"}

    # --- searching ------------------------------------------------------------------------------------------------

    def _search(self, step: int, targets: list[str], words: str) -> str | None:
        """The sub-instruction of a search for gold step `step`'s `targets` not shown (at most
        :data:`~autodw.eval.ceiling.searches.MAX_SEARCHES` of them), with `words` (the user's), or None."""
        tried = self._tried.setdefault(step, set())
        if not targets or len(tried) >= MAX_SEARCHES:
            return None
        args = best_search(self.elements, targets, words, tried)
        if args is None:
            return None
        tried.add(args["query"])
        text = phrase(self.registry.get(SEARCH_API), args)
        self._searches[text] = (step, args)
        return text

    def _row_targets(self, rows: tuple[tuple[str, int], ...]) -> list[str]:
        """The cell paragraphs of `rows` not shown (a new row's place: of the row before it), as a search's targets."""
        return [pid for table, row in rows
                for pid in self.row_cells.get((table, row if row >= 0 else max(-2 - row, 0)), [])]

    def _search_offered(self, search: tuple[int, dict[str, Any]], offered: list[str]) -> bool:
        """Whether the prompt offers the search API; if not, the obstacle is the intent filter's."""
        if SEARCH_API in offered:
            return True
        self._obstacle("api_chooser", search[0], [(INTENT_FILTER, f"{SEARCH_API} (a search for the step's targets) "
                                                                  f"not among the offered {', '.join(offered)}")])
        return False

    # --- reading the prompt ---------------------------------------------------------------------------------------

    def _carried_out(self, history: str) -> set[int]:
        """The gold steps the step history shows carried out (accepted), each matched once, in order."""
        done: set[int] = set()
        for line in history.splitlines():
            if " -> ok: " not in line:
                continue
            step = next((i for i, call in enumerate(self.history_calls)
                         if i not in done and f" -> {call} -> ok: " in line), None)
            if step is not None:
                done.add(step)
        self._done = done
        return done

    def _failed(self, step: int, history: str) -> bool:
        """Whether the step history shows the step's phrasing failed (a perfect model has no other way to it)."""
        line = re.compile(rf"^\d+\. {re.escape(self.history_steps[step])} -> .* -> FAILED: ", re.M)
        return line.search(history) is not None

    def _step_of(self, sub_instruction: str, history: str | None) -> int | None:
        """The gold step a sub-instruction stands for: the one the planner phrased so; for a step the ceiling did not
        write (the loop carrying a request out as the user worded it), the first gold step not carried out."""
        text = sub_instruction.strip()
        if self.current is not None and self.phrases[self.current] == text:
            return self.current
        done = self._carried_out(history) if history is not None else self._done
        same = [i for i, p in enumerate(self.phrases) if p == text]
        if same:
            return next((i for i in same if i not in done), same[0])
        return next((i for i in range(len(self.gold)) if i not in done), None)

    def _requests(self, of: int, number: int, message: str) -> list[int]:
        """The request each gold call serves, for a message the agent split into `of` requests."""
        requests = split(message)
        if len(requests) != of:
            raise InternalError(f"the planner's prompt says the message makes {of} requests; split gives "
                                f"{len(requests)}")
        return assign_requests(requests, self.registry, self.gold, self.elements)

    # --- obstacles ----------------------------------------------------------------------------------------------

    def _not_offered(self, step: int, offered: list[str], feedback: str) -> tuple[str, str]:
        """The cause of a prompt that does not offer gold step `step`'s API: the intent filter; or, for a retry (the
        prompt tells of a rejected or failed attempt) after the ceiling answered with that API, the rollback, which
        leaves out the APIs already tried."""
        api = self.gold[step].api
        if feedback.strip() and step in self._answered:
            return LOOP, f"the rollback left out {api}, already tried at this step (its call was rejected or failed)"
        return INTENT_FILTER, f"{api} not among the offered {', '.join(offered)}"

    def _obstacle(self, role: str, step: int, causes: list[tuple[str, str]], interpreted: tuple[str, ...] = ()) -> None:
        if self.emit is not None:
            self.emit("ceiling", {"role": role, "gold_step": step + 1, "api": self.gold[step].api,
                                  "cause": causes[0][0], "detail": causes[0][1],
                                  "also": [{"cause": c, "detail": d} for c, d in causes[1:]],
                                  "interpreted": list(interpreted)})

    def _no_gold_step(self, role: str, sub_instruction: str) -> dict[str, Any]:
        """A forced-wrong answer to a step asked for when every gold step is carried out."""
        if self.emit is not None:
            self.emit("ceiling", {"role": role, "gold_step": None, "api": None, "cause": LOOP,
                                  "detail": f"a step with no gold call left: {sub_instruction[:200]}", "also": [],
                                  "interpreted": []})
        return {"api": FORCED_API} if role == "api_chooser" else {"api": FORCED_API, "args": {}}


def _stop(reason: str) -> dict[str, Any]:
    return {"done": True, "sub_instruction": None, "remaining": [], "reason": reason[:REASON_CHARS]}
