"""The registry of rule checks: each check declares its name, how certain its findings are and what it was tuned on.

A check is a function registered with :func:`check`. Its parameters are named after the fields of :class:`Call` it
reads (``api``, ``args``, ``request``...), so each check says what it looks at and is called with exactly that.
Its declaration is binding: a finding that does not match it (another name, another certainty, a fix from a check
that has none) is our bug (:class:`~autodw.core.errors.InternalError`), never the model's mistake.

``tuned_on`` has the schema of :mod:`autodw.core.provenance` (``dwbench-VERSION/TRACK/SPLIT`` names): the splits the
check's code was made or narrowed on, and for a check that reads word lists, also the splits
``autodw/core/provenance.json`` says those lists were derived from.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, fields
from enum import Enum
from functools import cached_property
from typing import Any, Callable, Iterable

from autodw.core import provenance
from autodw.agent import requests
from autodw.agent.checks.reading import own_request
from autodw.core.errors import InternalError
from autodw.analysis.state import State


#: the splits every check's code was made and narrowed on: DWBench 1.1 dev's gold calls and the noisy oracle's
#: injected faults, measured at each change of a check (eff9629 ... 3715b47), while the suite asserted that no gold
#: call of 1.1 mini was rejected (eff9629 to aec70eb)
BUILT_ON = ("dwbench-1.1/templated/dev", "dwbench-1.1/templated/mini")
#: a check whose code was also held against the gold calls of 1.1 test (part_for_whole: 4044c98; unasked_api: d79b036)
ALSO_1_1_TEST = ("dwbench-1.1/templated/test",)
#: where the word lists are, as provenance.json names them
WORD_LIST_FOLDER = "autodw/agent"


class Certainty(Enum):
    """What a check's finding does to the call (:attr:`meaning` says it in words)."""

    HINT = "hint"
    REJECTS = "rejects"
    FIXES = "rejects, with a fix"
    WRONG_API = "rejects the API"

    @property
    def certain(self) -> bool:
        """Whether the finding rejects the call without asking the validator."""
        return self is not Certainty.HINT

    @property
    def meaning(self) -> str:
        return _MEANING[self]


_MEANING = {
    Certainty.HINT: "shown to the LLM validator among the change's analysis; rejects nothing on its own.",
    Certainty.REJECTS: "rejects the call without asking the validator; the step's arguments are generated again.",
    Certainty.FIXES: "rejects the call and, when it knows them, carries the argument values that answer it "
                     "(:func:`repair` applies them when the model regenerates the very call that was rejected).",
    Certainty.WRONG_API: "rejects the call's API: an argument-level retry is bound to the same API and cannot answer "
                         "it, so the step goes straight to API-level rollback (:func:`wrong_api`).",
}


@dataclass(frozen=True)
class CheckFinding:
    """What one check found; `certain` findings reject on their own."""

    check: str
    text: str
    certain: bool
    fix: dict[str, Any] | None = None  # argument values that answer the finding, when it knows them


@dataclass(frozen=True)
class Call:
    """An executed call as the checks see it: ``api(args)`` took the document from `before` to `after`, serving
    `sub_instruction` (the planner's step) of `instruction` (the user's request the step serves: the whole
    instruction, or one of its requests when it is split)."""

    sub_instruction: str
    instruction: str
    api: str
    args: dict[str, Any]
    before: State
    after: State
    previous: str = ""  # the session's instruction before this one ("" for the first)
    message: str = ""  # the whole instruction when `instruction` is one of its requests ("" when it is not split)

    @cached_property
    def request(self) -> str:
        """The call's own request (:func:`~autodw.agent.checks.reading.own_request`)."""
        return own_request(self.instruction, self.args)

    @cached_property
    def single(self) -> bool:
        """Whether the call's own request is a single request."""
        return len(requests.split(self.request)) == 1


#: the fields a check's parameters may name (``single`` is declared, not read: see :func:`check`)
CALL_FIELDS = frozenset({f.name for f in fields(Call)} | {"request"})


#: a check: its parameters name the Call fields it reads
CheckFunction = Callable[..., list[CheckFinding]]


@dataclass(frozen=True)
class Check:
    """One registered rule check."""

    name: str
    certain: Certainty
    function: CheckFunction
    tuned_on: tuple[str, ...]  # the DWBench splits it was tuned on, in provenance's schema
    finding: str  # the name its findings carry (several checks give "unnamed_value")
    hint: str | None = None  # the name of the hint findings it also gives
    word_lists: tuple[str, ...] = ()  # the word lists it reads (files of WORD_LIST_FOLDER)
    single_request: bool = False  # run only when the call's own request is a single request
    reads: tuple[str, ...] = ()  # the Call fields it is given
    absence: bool = False  # its certain findings read absence: the request does not mention what the call does

    @property
    def family(self) -> str:
        """The family of checks it belongs to: its module's name."""
        return self.function.__module__.rpartition(".")[2]

    @property
    def purpose(self) -> str:
        """What it finds: the first paragraph of its docstring, on one line."""
        return " ".join(inspect.cleandoc(self.function.__doc__ or "").split("\n\n")[0].split())

    @property
    def entry(self) -> provenance.Entry:
        """Its provenance, as :mod:`autodw.core.provenance` reads it (:func:`provenance.label` takes such entries)."""
        return provenance.Entry(f"autodw/agent/checks/{self.family}.py#{self.name}", "heuristic", self.tuned_on,
                                self.purpose, ())

    def run(self, call: Call) -> list[CheckFinding]:
        """Its findings on `call`, each checked against its declaration."""
        found = self.function(**{name: getattr(call, name) for name in self.reads})
        for f in found:
            declared = self.certain if f.check == self.finding else Certainty.HINT if f.check == self.hint else None
            fixes = declared is Certainty.FIXES
            if declared is None or f.certain != declared.certain or (f.fix is not None and not fixes):
                raise InternalError(f"rule check {self.name} gave a finding it does not declare: {f}")
        return found


#: every registered check by name, in the order the family modules were imported
REGISTRY: dict[str, Check] = {}


def check(name: str, *, certain: Certainty, tuned_on: Iterable[str], finding: str | None = None,
          hint: str | None = None, word_lists: Iterable[str] = (), single_request: bool = False,
          absence: bool = False, registry: dict[str, Check] = REGISTRY) -> Callable[[CheckFunction], CheckFunction]:
    """Register a rule check (a decorator; the function is returned unchanged).

    `certain`: what its findings do; `tuned_on`: the splits its code was tuned on (its `word_lists` add the splits
    provenance.json names for them); `finding`: the name its findings carry when not `name`; `hint`: the name of
    the hint findings it also gives; `single_request`: it reads words another request of a compound instruction
    may own, so it runs only for a single request; `absence`: its certain findings read the absence of words (the
    request does not mention what the call does), open-vocabulary evidence that the ``absence_findings`` part of an
    assembly may turn into hints for the LLM validator (:class:`~autodw.agent.validator.RuleChecks`)."""
    lists = tuple(word_lists)
    splits = set(tuned_on).union(*(provenance.tuned_on(f"{WORD_LIST_FOLDER}/{words}") for words in lists))
    tuned = provenance.check_tuned_on(sorted(splits), f"rule check {name}")

    def register(function: CheckFunction) -> CheckFunction:
        reads = tuple(inspect.signature(function).parameters)
        if name in registry:
            raise InternalError(f"two rule checks are named {name}")
        if not set(reads) <= CALL_FIELDS:
            raise InternalError(f"rule check {name} reads {', '.join(sorted(set(reads) - CALL_FIELDS))}, which a "
                                f"call does not have (it has {', '.join(sorted(CALL_FIELDS))})")
        if not (function.__doc__ or "").strip():
            raise InternalError(f"rule check {name} has no docstring to say what it finds")
        if absence and not certain.certain:
            raise InternalError(f"rule check {name} reads absence but its findings are hints already")
        registry[name] = Check(name, certain, function, tuned, finding or name, hint, lists, single_request, reads,
                               absence)
        return function

    return register


def in_order(order: Iterable[str], registry: dict[str, Check] = REGISTRY) -> tuple[Check, ...]:
    """The registered checks in `order`, which must name every one of them once."""
    order = tuple(order)
    missing, unknown = set(registry) - set(order), set(order) - set(registry)
    if missing or unknown or len(set(order)) != len(order):
        raise InternalError(f"the rule checks' order does not name each registered check once: never run "
                            f"{sorted(missing)}, not registered {sorted(unknown)}")
    return tuple(registry[name] for name in order)
