"""autodw's systems, declared: the agent and its rollback ablations, the gold oracles, the paper's baselines.

Only declarations (:func:`~autodw.eval.system_registry.register_system`), light to import: the command line lists
them without loading the agent. Each assembler imports its system's module when it runs. What the systems are:
:mod:`autodw.eval.systems`, :mod:`autodw.eval.baselines`.
"""

from __future__ import annotations

from typing import Any, Callable

from autodw.eval import AGENT_ROLLBACK, BASELINES, VALIDATORS
from autodw.eval.system_registry import Option, SystemInputs, SystemMaker, positive_int, register_system

#: the one-line help of each agent system (one per entry of AGENT_ROLLBACK) and baseline (one per BASELINES)
AGENT_HELP = {
    "autodw": "the agent (its backend's profile; the paper's full rollback)",
    "no-rollback": "the agent without rollback (an ablation)",
    "arg-rollback": "the agent with argument-level rollback only (an ablation)",
    "two-round": "the agent with two rounds of full rollback (an ablation)",
}
BASELINE_HELP = {
    "hybrid": "baseline (PPTC-style): the whole plan up front, each step's call as the agent's; no validation",
    "retrieval-only": "baseline: every call in one answer, the APIs offered those similar to the instruction",
    "reasoning-only": "baseline: every call in one answer, the whole API library in the prompt",
}


def _named(name: str, load: Callable[[], Callable[..., Any]]) -> Callable[[SystemInputs], SystemMaker]:
    """The assembler of a system made as ``make(name, llm, classifier, config)``, `load` importing ``make``."""

    def assemble(given: SystemInputs) -> SystemMaker:
        make = load()
        return lambda: make(name, given.llm, given.classifier, given.config)

    return assemble


def _agent_system() -> Callable[..., Any]:
    from autodw.eval.systems import AgentSystem

    return AgentSystem


def _baseline() -> Callable[..., Any]:
    from autodw.eval.baselines import make_baseline

    return make_baseline


for _name in AGENT_ROLLBACK:
    register_system(_name, help=AGENT_HELP[_name], uses_classifier=True)(_named(_name, _agent_system))


@register_system("oracle", help="replays the gold calls (proves the harness and the judge: must score 100%)",
                 uses_llm=False, uses_agent_settings=False, options=(
                     Option("alternative", "play each turn's N-th accept alternative where it has one (the gold "
                                           "elsewhere)", type=positive_int, metavar="N"),))
def oracle(given: SystemInputs) -> SystemMaker:
    from autodw.eval.systems import OracleSystem

    alternative = given.options["alternative"] or 0
    return lambda: OracleSystem(alternative)


@register_system("noop", help="does nothing (its iACC must be 0: a turn it passes is a fault of the data)",
                 uses_llm=False, uses_agent_settings=False)
def noop(given: SystemInputs) -> SystemMaker:
    from autodw.eval.systems import NoopSystem

    return NoopSystem


@register_system("noisy-oracle", help="the gold steps, each call perturbed with probability P, through a validator "
                                      "and rollback (faults caught, false rejections)",
                 uses_llm=lambda options: options["validator"] == "llm", options=(
                     Option("p", "probability that a gold call is perturbed", type=float, default=0.2),
                     Option("validator", "the agent's LLM validator (with its rule checks), the rule checks alone "
                                         "(rules) or a perfect one (oracle)", choices=VALIDATORS, default="oracle"),
                     Option("seed", "seed of the fault draws", type=int, default=0),
                     Option("rollback", "rollback levels after a rejection", choices=("none", "arg", "full"),
                            default="full", setting="rollback")))
def noisy_oracle(given: SystemInputs) -> SystemMaker:
    from autodw.apis import registry
    from autodw.eval.systems import NoisyOracleSystem

    o, apis = given.options, registry()  # loaded once as the run is built, not by every worker's system at its start
    return lambda: NoisyOracleSystem(o["p"], o["validator"], given.llm, given.config, seed=o["seed"], registry=apis)


for _name in BASELINES:
    register_system(_name, help=BASELINE_HELP[_name], uses_classifier=True)(_named(_name, _baseline))


@register_system("ceiling", help="the agent of --profile with a perfect model that sees only its prompts: the ceiling "
                                 "our prompts put on any model, each failure attributed (autodw bench ceiling)",
                 uses_llm=False, uses_classifier=True, options=(
                     Option("prompts", "'all': the traces keep each prompt's text (about 30,000 tokens an instruction), "
                                       "to read what a role was shown; by default only each answer and its usage",
                            choices=("all",)),))
def ceiling(given: SystemInputs) -> SystemMaker:
    import os

    from autodw.eval.ceiling.system import CeilingSystem, own_classifier

    loaded_in, prompts = os.getpid(), given.options["prompts"] == "all"
    return lambda: CeilingSystem(own_classifier(given.classifier, loaded_in), given.config, prompts=prompts)
