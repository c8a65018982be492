"""autodw: edit Word documents from natural-language instructions (AutoDW: stepwise planning with rollback).

    import autodw
    doc = autodw.open_document("examples/report.docx")
    agent = autodw.make_agent("openai:gpt-4.1", console=True)
    result = agent.run(doc, ["Make the title blue", "Add a row for the North-East region to the sales table"])
    print(result.completed, result.total_usage.total_tokens)
    doc.save("report-edited.docx")

Importing autodw is cheap: models and ML libraries load only when an agent is made.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the lazily imported names, for type checkers and editors
    from autodw.agent.build import make_agent
    from autodw.agent.config import AgentConfig
    from autodw.agent.loop import Agent
    from autodw.analysis.changes import analyze_change
    from autodw.core.document import WordDocument
    from autodw.analysis.state import extract_state

__version__ = "0.1.0"
__all__ = ["open_document", "make_agent", "Agent", "AgentConfig", "WordDocument", "extract_state", "analyze_change"]


def open_document(path: str | os.PathLike[str]) -> WordDocument:
    """Open and validate a .docx/.docm/.dotx/.dotm file for editing (see :class:`autodw.core.document.WordDocument`)."""
    from autodw.core.document import WordDocument

    return WordDocument.open(path)


def __getattr__(name: str) -> Any:
    if name == "Agent":
        from autodw.agent.loop import Agent

        return Agent
    if name == "AgentConfig":
        from autodw.agent.config import AgentConfig

        return AgentConfig
    if name == "make_agent":
        from autodw.agent.build import make_agent

        return make_agent
    if name == "WordDocument":
        from autodw.core.document import WordDocument

        return WordDocument
    if name == "extract_state":
        from autodw.analysis.state import extract_state

        return extract_state
    if name == "analyze_change":
        from autodw.analysis.changes import analyze_change

        return analyze_change
    raise AttributeError(f"module 'autodw' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
