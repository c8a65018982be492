"""The document API library: every edit the agent can make, registered with a JSON Schema.

Three kinds of module, one folder each:

- here, the framework: ``registry`` (the :func:`api` decorator and :class:`Registry`), ``schema``
  (argument schema fragments) and ``calls`` (validate and run one call);
- ``catalogue/``: one module per intent, named after it, that only declares APIs (``@api``) and calls
  mechanisms;
- ``ooxml/``: the mechanisms that read and write WordprocessingML (runs, tables, notes, styles, charts, ...).
  They never import the catalogue.

``registry()`` loads the catalogue and returns the :class:`~autodw.apis.registry.Registry`;
``execute(doc, name, args)`` validates and runs one call.
"""

from __future__ import annotations

import importlib

from autodw.apis.registry import INTENTS, REGISTRY, ApiSpec, Example, Registry, api

__all__ = ["ApiSpec", "Example", "Registry", "api", "registry", "execute", "ApiResult"]


def registry() -> Registry:
    """The registry with every API loaded (importing ``autodw.apis.catalogue.<intent>`` for each of the eight intents)."""
    for intent in INTENTS:
        importlib.import_module(f"autodw.apis.catalogue.{intent}")
    return REGISTRY


def __getattr__(name: str):  # execute/ApiResult import the document model; load them on first use
    if name in ("execute", "ApiResult", "validate_arguments"):
        return getattr(importlib.import_module("autodw.apis.calls"), name)
    raise AttributeError(name)
