"""Fault injection for the ``noisy-oracle`` system: a gold call turned into the kind of mistake an LLM makes.

Four kinds (drawn with equal chance, each falling back to the next when it does not apply to the call):

- ``target``: an element id argument replaced by another id of the same kind that exists in the document;
- ``value``: another argument's value changed (a boolean flipped, a number moved, another enum value or
  colour, a text with a word dropped or added);
- ``api``: a neighbouring API of the same intent that accepts the same arguments (``set_bold`` -> ``set_italic``);
- ``skip``: the step is left out altogether (the planner forgot it; no validator ever sees it).

Every perturbed call is schema-valid (it passes :func:`autodw.apis.calls.validate_arguments`): the validator, not
the argument checker, must catch it. Draws are seeded by the instruction and step, so a run is reproducible.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

from autodw.apis.calls import validate_arguments
from autodw.apis.registry import Registry
from autodw.core.errors import ApiError
from autodw.core.ids import ID_RE
from autodw.core.units import NAMED_COLORS

KINDS = ("target", "value", "api", "skip")


@dataclass(frozen=True)
class Fault:
    """A perturbed call (``api``/``args``; both None for a skipped step) and the kind of fault it is."""

    kind: str
    api: str | None
    args: dict[str, Any] | None


def perturb(api: str, args: dict[str, Any], ids: list[str], registry: Registry, rng: random.Random) -> Fault:
    """A faulty version of the call ``api(args)`` (see the module docstring); `ids` are the document's element ids."""
    order = list(KINDS)
    rng.shuffle(order)
    for kind in order:
        fault = _MAKERS[kind](api, args, ids, registry, rng)
        if fault is not None:
            return fault
    return Fault("skip", None, None)  # unreachable: skip always applies


def _valid(registry: Registry, api: str, args: dict[str, Any]) -> dict[str, Any] | None:
    try:
        return validate_arguments(registry.get(api), args)
    except ApiError:
        return None


def _wrong_target(api: str, args: dict[str, Any], ids: list[str], registry: Registry, rng: random.Random) -> Fault | None:
    slots = [k for k, v in args.items() if isinstance(v, str) and ID_RE.match(v)]
    rng.shuffle(slots)
    for key in slots:
        prefix = ID_RE.match(args[key]).group(1)
        others = [i for i in ids if ID_RE.match(i).group(1) == prefix and i != args[key]]
        if others:
            changed = _valid(registry, api, {**args, key: rng.choice(others)})
            if changed is not None:
                return Fault("target", api, changed)
    return None


def _wrong_value(api: str, args: dict[str, Any], ids: list[str], registry: Registry, rng: random.Random) -> Fault | None:
    props = registry.get(api).parameters["properties"]
    keys = [k for k, v in args.items() if not (isinstance(v, str) and ID_RE.match(v))]
    rng.shuffle(keys)
    for key in keys:
        for value in _other_values(args[key], props.get(key, {}), rng):
            changed = _valid(registry, api, {**args, key: value})
            if changed is not None and changed != args:
                return Fault("value", api, changed)
    return None


#: the colour names a fault is drawn from: the API's 25 names when DWBench 2.0's faults were first drawn, kept when the
#: API learns another (light tints, issue 51), so that a seed draws the same faults and noisy-oracle runs stay comparable
FAULT_COLOURS = tuple(NAMED_COLORS)[:25]
_FAULT_HEXES = {NAMED_COLORS[name] for name in FAULT_COLOURS}


def _other_values(value: Any, schema: dict[str, Any], rng: random.Random) -> list[Any]:
    """Candidate replacements for `value`, most plausible mistakes first."""
    enum = schema.get("enum") or next((s["enum"] for s in schema.get("anyOf", []) if "enum" in s), None)
    if enum is not None and set(enum) == set(NAMED_COLORS):
        enum = list(FAULT_COLOURS)
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1, value + 2]
    if isinstance(value, float):
        return [round(value * 1.5, 2), round(value / 2, 2)]
    if isinstance(value, str):
        out: list[Any] = []
        if enum:
            out += rng.sample([e for e in enum if e != value], k=min(3, len(enum) - 1))
        if value.upper() in _FAULT_HEXES or value in FAULT_COLOURS:
            out += [c for c in ("red", "green", "blue", "orange") if c != value]
        number = value.rstrip("cmintpx")
        if number != value and number.replace(".", "", 1).isdigit():
            out.append(f"{float(number) * 1.5:g}{value[len(number):]}")
        words = value.split()
        if len(words) > 1:
            out.append(" ".join(words[:-1]))
        out.append(value + " draft" if value.isascii() else value + "草稿")
        return out
    if isinstance(value, list) and value:
        return [value[:-1]] if len(value) > 1 else []
    return []


def _neighbour_api(api: str, args: dict[str, Any], ids: list[str], registry: Registry, rng: random.Random) -> Fault | None:
    spec = registry.get(api)
    neighbours = [s for s in registry.by_intent(spec.intent) if s.name != api and not s.read_only]
    rng.shuffle(neighbours)
    for other in neighbours:
        accepted = {k: v for k, v in args.items() if k in other.parameters["properties"]}
        changed = _valid(registry, other.name, copy.deepcopy(accepted))
        if changed is not None:
            return Fault("api", other.name, changed)
    return None


def _skip(api: str, args: dict[str, Any], ids: list[str], registry: Registry, rng: random.Random) -> Fault | None:
    return Fault("skip", None, None)


_MAKERS = {"target": _wrong_target, "value": _wrong_value, "api": _neighbour_api, "skip": _skip}
