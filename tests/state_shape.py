"""Does a state have the shape the TypedDicts of autodw.analysis.state.types give it? Every record's keys (the
required ones there, no others) and every value's JSON type, recursively."""

from __future__ import annotations

import types
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

from autodw.analysis.state import State


def shape_errors(value: Any, hint: Any = State, path: str = "state") -> list[str]:
    """Where `value` departs from `hint`, one line each (empty: it conforms)."""
    origin = get_origin(hint)
    if hint is Any:
        return []
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__}, not a {hint.__name__}"]
        missing = hint.__required_keys__ - value.keys()
        unknown = value.keys() - hint.__required_keys__ - hint.__optional_keys__
        errors = [f"{path}: {hint.__name__} lacks {sorted(missing)}"] if missing else []
        errors += [f"{path}: {hint.__name__} has no key {sorted(unknown)}"] if unknown else []
        hints = get_type_hints(hint)
        for key in sorted(value.keys() & hints.keys()):
            errors += shape_errors(value[key], hints[key], f"{path}.{key}")
        return errors
    if origin in (Union, types.UnionType):
        found = [shape_errors(value, arg, path) for arg in get_args(hint)]
        if any(not f for f in found):
            return []
        if value is not None and len(found) == 2 and type(None) in get_args(hint):  # an optional value: its errors
            return next(f for f, arg in zip(found, get_args(hint)) if arg is not type(None))
        return [f"{path}: {value!r:.60} is none of {hint}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {type(value).__name__}, not a list"]
        (item,) = get_args(hint)
        return [e for i, v in enumerate(value) for e in shape_errors(v, item, f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__}, not a dict"]
        _, item = get_args(hint)
        return [e for k, v in value.items() for e in shape_errors(v, item, f"{path}[{k!r}]")]
    if hint is type(None):
        return [] if value is None else [f"{path}: {value!r:.60}, not None"]
    if hint is float:  # JSON numbers: an int is a float's value too
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, hint)
    return [] if ok else [f"{path}: {value!r:.60} is not {hint.__name__}"]
