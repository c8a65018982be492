"""The agent that the chat session and the MCP server run instructions with: the one place they make it."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class AgentOptions:
    """How to make the agent: the LLM spec and endpoint (as for ``autodw run``) and the intent classifier."""

    llm: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    intents_model: str | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "AgentOptions":
        """The options of a parsed command line (flags added by :func:`add_arguments`)."""
        return cls(args.llm, args.base_url, args.api_key_env, args.intents_model)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The LLM flags of ``autodw chat`` and ``autodw mcp`` (the same meaning as for ``autodw run``)."""
    parser.add_argument("--llm", default=None, help="LLM spec, as for autodw run (default: $AUTODW_LLM, an endpoint "
                                                    "from OPENAI_BASE_URL/OPENAI_API_KEY, else the local model)")
    parser.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint URL")
    parser.add_argument("--api-key-env", default=None, metavar="VAR", help="environment variable holding the API key")
    parser.add_argument("--intents-model", default=None, metavar="DIR", help="trained intent classifier directory")


def make_session_agent(options: AgentOptions, console: bool) -> Any:
    """An agent made with the public :func:`autodw.make_agent` (`console`: print the live step display)."""
    from autodw import make_agent

    classifier = None
    if options.intents_model:
        from autodw.intents.classifier import IntentClassifier

        classifier = IntentClassifier.load(options.intents_model)
    api_key = os.environ.get(options.api_key_env) if options.api_key_env else None
    return make_agent(options.llm, classifier=classifier, console=console, base_url=options.base_url, api_key=api_key)
