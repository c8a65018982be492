"""The document API library: every edit the agent can make, registered with a JSON Schema.

``registry()`` loads the catalogue (one module per intent, named after the intent) and returns
the :class:`~apis.registry.Registry`; ``execute(doc, name, args)`` validates and runs one call.
"""

from __future__ import annotations

import importlib

from autodw.apis.registry import INTENTS, REGISTRY, ApiSpec, Example, Registry, api

__all__ = ["ApiSpec", "Example", "Registry", "api", "registry", "execute", "ApiResult"]


def registry() -> Registry:
    """The registry with every API loaded (importing ``apis.<intent>`` for each of the eight intents)."""
    for intent in INTENTS:
        importlib.import_module(f"autodw.apis.{intent}")
    return REGISTRY


def __getattr__(name: str):  # execute/ApiResult import the document model; load them on first use
    if name in ("execute", "ApiResult", "validate_arguments"):
        return getattr(importlib.import_module("autodw.apis.calls"), name)
    raise AttributeError(name)
