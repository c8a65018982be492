"""The evaluation harness: the judge, the systems under test, the runner, metrics and reports.

The names of the systems live here (light to import: the command line lists them without loading the agent)."""

#: Agent systems and the rollback setting each runs with (Fig. 3 of the paper).
AGENT_ROLLBACK = {"autodw": "full", "no-rollback": "none", "arg-rollback": "arg", "two-round": 2}
BASELINES = ("hybrid", "retrieval-only", "reasoning-only")
SYSTEMS = (*AGENT_ROLLBACK, "oracle", "noop", "noisy-oracle", *BASELINES)
VALIDATORS = ("llm", "oracle", "rules")
