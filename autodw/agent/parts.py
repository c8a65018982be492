"""The parts an agent is composed of, and :func:`assemble`, which puts them together as an
:class:`~autodw.agent.assembly.Assembly` describes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

from autodw.agent import heuristics, requests
from autodw.agent.assembly import Assembly
from autodw.agent.context import StepContext
from autodw.agent.generator import CallGenerator, LLMCallGenerator, RepairRejected
from autodw.agent.intent_filter import ClassifierIntentFilter, IntentClassifier, IntentFilter, apis_named
from autodw.agent.outcomes import Executed
from autodw.agent.planner import LLMPlanner, Planner, UpFrontPlanner
from autodw.agent.validator import LLMValidator, RuleChecks, Validation, Validator
from autodw.agent.views import CurrentView, PlannerView, StartView
from autodw.apis.registry import Registry
from autodw.core.errors import ConfigError


class AttemptObserver(Protocol):
    """Sees every attempt of a step as soon as it has run (a system's measurement, not a decision)."""

    def attempted(self, ctx: StepContext, executed: Executed) -> None: ...


def whole(message: str) -> list[str]:
    """The message as one request."""
    return [message]


@dataclass(frozen=True)
class Parts:
    """What an :class:`~autodw.agent.loop.Agent` is made of."""

    split: Callable[[str], list[str]]  # the requests of a message, planned one after the other
    planner_view: PlannerView
    planner: Planner
    intents: IntentFilter
    generator: CallGenerator
    validator: Validator
    observers: tuple[AttemptObserver, ...] = ()


#: the parts an assembly may name that a system brings itself (the agent cannot build them from a description)
SYSTEM_PARTS = {"planner": ("gold",), "intents": ("gold",), "generator": ("faulty",), "validator": ("oracle",)}


def assemble(assembly: Assembly, classifier: IntentClassifier, registry: Registry) -> Parts:
    """The parts `assembly` names, put together (ConfigError if it names a part only a system brings)."""
    brought = [f"the {name} {part}" for part, names in SYSTEM_PARTS.items() for name in names
               if name in _names(assembly, part)]
    if brought:
        raise ConfigError(f"an agent cannot build {', '.join(brought)}: the system that uses it brings it")
    return Parts(split=requests.split if assembly.requests == "split" else whole,
                 planner_view=planner_view(assembly), planner=planner(assembly),
                 intents=ClassifierIntentFilter(classifier, registry, assembly.numbers.intent_min_probability,
                                                 apis_named),
                 generator=repairing(assembly, llm_generator(assembly, registry), registry),
                 validator=validation(assembly, registry))


def _names(assembly: Assembly, part: str) -> set[str]:
    """The names a part of `assembly` gives (one, or a list's)."""
    value = getattr(assembly, part)
    return set(value) if isinstance(value, tuple) else {value}


def planner_view(assembly: Assembly) -> PlannerView:
    """How the planner sees the document: now, or as the request began."""
    view = StartView if assembly.planner_view == "start" else CurrentView
    return view(grounded=assembly.grounding == "quotes", budget=assembly.numbers.planner_state_budget,
                history_chars=assembly.numbers.history_chars)


def planner(assembly: Assembly) -> Planner:
    """The planner the assembly names, inside the heuristics it chooses (in their order)."""
    core, *wrappers = assembly.planner
    built: Planner = UpFrontPlanner() if core == "up_front" else LLMPlanner()
    for name in wrappers:
        if name == "refuse_repeated_steps":
            built = heuristics.RefuseRepeatedSteps(built)
        elif name == "end_on_repeated_call":
            built = heuristics.EndOnRepeatedCall(built)
        else:
            built = heuristics.StopWhenNothingRemains(built, assembly.numbers.restate_ratio)
    return built


def llm_generator(assembly: Assembly, registry: Registry) -> LLMCallGenerator:
    """The model writing each call, with the views, API choice and documentation the assembly chooses."""
    return LLMCallGenerator(registry, grounded=assembly.grounding == "quotes", two_stage=assembly.api_choice == "two_stage",
                            compact_docs=assembly.api_docs == "compact", budget=assembly.numbers.generator_state_budget,
                            history_chars=assembly.numbers.history_chars, max_id_items=assembly.numbers.max_id_items)


def repairing(assembly: Assembly, generator: CallGenerator, registry: Registry) -> CallGenerator:
    """`generator`, inside the repair of repeated rejected calls if the assembly chooses it."""
    return RepairRejected(generator, registry) if assembly.has("generator", "repair") else generator


def validation(assembly: Assembly, registry: Registry) -> Validation:
    """The rule checks and the LLM validator, as far as the assembly's validator stages name them."""
    numbers = assembly.numbers
    llm = (LLMValidator(threshold=numbers.threshold, verdict_rule=assembly.verdict_rule,
                        budget=numbers.validator_state_budget, history_chars=numbers.history_chars)
           if assembly.has("validator", "llm") else None)
    return Validation(RuleChecks(registry, assembly.absence_findings) if assembly.has("validator", "rules") else None, llm)
