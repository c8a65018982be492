"""Run one API call: validate the arguments against its schema, execute, and undo on failure."""

from __future__ import annotations

import copy
import json
import math
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from autodw.apis.registry import ApiSpec, Registry, describe_schema
from autodw.apis.schema import BARE_UNIT, LENGTH_PATTERN
from autodw.core.document import Snapshot, WordDocument
from autodw.core.errors import ApiError, ArgumentError, InternalError, clipped
from autodw.core.units import LENGTH_FORMS, length_text
from autodw.core.xml import NOT_IN_XML


@dataclass
class ApiResult:
    """What a call did: its message, the ids it created or removed, data for read-only APIs."""

    api: str
    args: dict[str, Any]
    message: str
    created: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    data: Any = None
    seconds: float = 0.0
    snapshot: Snapshot | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (without the snapshot)."""
        out = {"api": self.api, "args": self.args, "message": self.message, "created": self.created,
               "removed": self.removed, "seconds": round(self.seconds, 4)}
        if self.data is not None:
            out["data"] = self.data
        return out


def execute(doc: WordDocument, name: str, args: Any, registry: Registry | None = None) -> ApiResult:
    """Validate and run API `name` on `doc`. On any failure the document is restored: a bad call raises a typed
    ApiError (its message is for the caller or the LLM); any other exception is our bug and raises InternalError."""
    if registry is None:
        from autodw.apis import registry as get_registry

        registry = get_registry()
    spec = registry.get(name)
    args = validate_arguments(spec, args)
    start = time.perf_counter()
    snapshot = None if spec.read_only else doc.snapshot()
    before, revision = set(doc.ids()), doc.revision
    try:
        out = spec.func(doc, **args)
        doc.refresh_ids()
    except ApiError:
        if snapshot is not None:
            doc.restore(snapshot)
        raise
    except Exception as exc:  # a bug of ours, not a bad call: never shown to the LLM, never a half-edit left behind
        if snapshot is not None:
            doc.restore(snapshot)
        raise InternalError.wrap(exc, f"API {name}") from exc
    try:
        doc.name_edit(revision, json.dumps([name, args], sort_keys=True, ensure_ascii=False))
    except TypeError:  # arguments that are not JSON (a caller's own objects) name no revision: the new one stays
        pass
    after = doc.ids()
    message, data = (out, None) if isinstance(out, str) or out is None else (out.pop("message", ""), out)
    return ApiResult(api=name, args=args, message=message or f"{name} done", created=[i for i in after if i not in before],
                     removed=sorted(before - set(after)), data=data, seconds=time.perf_counter() - start,
                     snapshot=snapshot)


#: how deep arguments may nest (a table's rows of cells are three levels); deeper is a degenerate answer
MAX_NESTING = 16

#: integers are whole numbers without a fraction; a whole float such as 2.0 (small models write them) is turned
#: into the int the API expects, any other float refused (the standard checker lets 2.0 through as an integer)
_Validator = validators.extend(Draft202012Validator, type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda _checker, x: isinstance(x, int) and not isinstance(x, bool)))


@lru_cache(maxsize=None)
def _validator(spec_name: str, schema_json: str) -> Draft202012Validator:
    return _Validator(json.loads(schema_json))


def validate_arguments(spec: ApiSpec, args: Any) -> dict[str, Any]:
    """Check `args` against the spec's schema; ArgumentError says what is wrong and what is allowed. Returns a copy
    with whole floats where integers are expected made ints."""
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise ArgumentError(f"{spec.name}: arguments must be a JSON object, got {type(args).__name__}; usage: {spec.signature_text()}")
    _check_values(spec.name, args)  # before the schema: its checks recurse
    validator = _validator(spec.name, json.dumps(spec.parameters, sort_keys=True))
    args = copy.deepcopy(args)
    errors = list(validator.iter_errors(args))
    if errors and _whole_floats_to_ints(args, errors):
        errors = list(validator.iter_errors(args))
    if errors:
        errors.sort(key=lambda e: (list(e.path), e.validator))
        problems = list(dict.fromkeys(_explain(spec, e) for e in errors))
        raise ArgumentError(f"{spec.name}: " + "; ".join(problems[:6]) + f". Usage: {spec.signature_text()}")
    return _with_units(args, spec.parameters)


def _with_units(value: Any, schema: dict[str, Any]) -> Any:
    """`value` (valid against `schema`) with every bare number the schema gives a unit (:data:`BARE_UNIT`) written
    with that unit, so that an API is always given lengths as "12pt"."""
    if schema.get(BARE_UNIT) and isinstance(value, (int, float)) and not isinstance(value, bool):
        return length_text(value, bare_unit=schema[BARE_UNIT])
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        return {k: _with_units(v, schema["properties"].get(k, {})) for k, v in value.items()}
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [_with_units(v, schema["items"]) for v in value]
    return value


def _check_values(api: str, args: dict[str, Any]) -> None:
    """ArgumentError for arguments nested deeper than MAX_NESTING, a number that is not finite (NaN, Infinity) or a
    string holding a character XML cannot hold."""
    stack: list[tuple[str, Any, int]] = [(clipped(str(k), 80), v, 1) for k, v in args.items()]  # a key may be huge
    while stack:
        path, value, depth = stack.pop()
        if depth > MAX_NESTING:
            raise ArgumentError(f"{api}: argument {path.split('.')[0]!r} is nested more than {MAX_NESTING} levels deep")
        if isinstance(value, dict):
            stack += [(f"{path}.{clipped(str(k), 80)}", v, depth + 1) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(f"{path}.{n}", v, depth + 1) for n, v in enumerate(value)]
        elif isinstance(value, float) and not math.isfinite(value):
            raise ArgumentError(f"{api}: argument {path!r} is {value}, not a number")
        elif isinstance(value, str) and (bad := NOT_IN_XML.search(value)):
            raise ArgumentError(f"{api}: argument {path!r} holds a character a Word document cannot contain "
                                f"(U+{ord(bad.group()):04X} at position {bad.start()}); leave it out "
                                "(a line break is \\n, a tab \\t)")


_EXACT_FLOAT_INTS = 2 ** 53  # beyond it a float is no exact integer (1e308 would become a 309-digit number)


def _whole_floats_to_ints(args: dict[str, Any], errors: list[ValidationError]) -> bool:
    """Make the whole floats `errors` find where an integer is expected ints, in place; whether any was."""
    fixed = False
    todo = list(errors)
    while todo:
        error = todo.pop()
        expected = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        if error.validator == "type" and "integer" in expected and isinstance(error.instance, float) \
                and error.instance.is_integer() and abs(error.instance) <= _EXACT_FLOAT_INTS and error.absolute_path:
            *parents, last = error.absolute_path
            holder: Any = args
            for key in parents:
                holder = holder[key]
            holder[last], fixed = int(error.instance), True
        elif error.context:  # oneOf/anyOf: the branches' own errors
            todo += error.context
    return fixed


def _is_length(schema: Any) -> bool:
    """Whether `schema` is that of a length with unit (or allows one among other forms)."""
    return isinstance(schema, dict) and (schema.get("pattern") == LENGTH_PATTERN
                                         or any(_is_length(branch) for branch in schema.get("anyOf", ())))


def _explain(spec: ApiSpec, error: ValidationError) -> str:
    """One LLM-readable sentence for a schema violation."""
    props = spec.parameters["properties"]
    path = ".".join(str(p) for p in error.absolute_path)
    top = str(error.absolute_path[0]) if error.absolute_path else None
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        where = f" in {path}" if path else ""
        arg_schema = props.get(missing, {})
        return f"missing required argument {missing!r}{where}" + (f" ({describe_schema(arg_schema)})" if arg_schema else "")
    if error.validator == "additionalProperties" and not path:
        extra = sorted(set(error.instance) - set(props))
        shown = ", ".join(clipped(repr(name), 80) for name in extra[:5]) + (f" and {len(extra) - 5} more" if len(extra) > 5 else "")
        return f"unknown argument(s) {shown}; allowed: {', '.join(props)}"
    schema = props.get(top, {}) if top else {}
    got = clipped(json.dumps(error.instance, ensure_ascii=False), 80)
    if error.validator in ("oneOf", "anyOf") or (error.validator == "additionalProperties" and path):
        return f"argument {path!r} is invalid (got {got}); expected {describe_schema(schema) or error.message}"
    if error.validator == "enum":
        return f"argument {path!r} must be one of {', '.join(map(str, error.validator_value))} (got {got})"
    if error.validator == "pattern":
        return f"argument {path!r} has the wrong form (got {got}); expected {describe_schema(schema) or error.validator_value}"
    if error.validator == "type" and isinstance(error.instance, (int, float)) and _is_length(error.schema):
        return f"argument {path!r} is a bare number ({got}), which says no unit; write {LENGTH_FORMS}"
    if error.validator == "type":
        return f"argument {path!r} must be of type {error.validator_value} (got {got})"
    return f"argument {path!r}: {clipped(error.message, 300)}"  # jsonschema's message quotes the whole value
