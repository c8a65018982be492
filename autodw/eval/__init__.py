"""The evaluation harness: the judge, the systems under test, the runner, metrics and reports.

The systems are registered (:mod:`autodw.eval.system_registry`; autodw's own declared in
:mod:`autodw.eval.system_catalogue`, light to import: the command line lists them without loading the agent)."""

from __future__ import annotations

from autodw.eval import system_registry
from autodw.eval.system_registry import SystemRegistry

#: Agent systems and the rollback setting each runs with (Fig. 3 of the paper).
AGENT_ROLLBACK = {"autodw": "full", "no-rollback": "none", "arg-rollback": "arg", "two-round": 2}
BASELINES = ("hybrid", "retrieval-only", "reasoning-only")
VALIDATORS = ("llm", "oracle", "rules")


def registered_systems() -> SystemRegistry:
    """The registry with autodw's systems loaded (importing :mod:`autodw.eval.system_catalogue`)."""
    from autodw.eval import system_catalogue  # noqa: F401 - its declarations register the systems

    return system_registry.REGISTRY
