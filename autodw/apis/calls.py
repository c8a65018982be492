"""Run one API call: validate the arguments against its schema, execute, and undo on failure."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterator

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from autodw.apis.registry import ApiSpec, Registry, describe_schema
from autodw.document import Snapshot, WordDocument
from autodw.errors import ApiError, ArgumentError, InternalError
from autodw.xml import NOT_IN_XML


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
    before = set(doc.ids())
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
    after = doc.ids()
    message, data = (out, None) if isinstance(out, str) or out is None else (out.pop("message", ""), out)
    return ApiResult(api=name, args=args, message=message or f"{name} done", created=[i for i in after if i not in before],
                     removed=sorted(before - set(after)), data=data, seconds=time.perf_counter() - start,
                     snapshot=snapshot)


@lru_cache(maxsize=None)
def _validator(spec_name: str, schema_json: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(schema_json))


def validate_arguments(spec: ApiSpec, args: Any) -> dict[str, Any]:
    """Check `args` against the spec's schema; ArgumentError says what is wrong and what is allowed."""
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise ArgumentError(f"{spec.name}: arguments must be a JSON object, got {type(args).__name__}; usage: {spec.signature_text()}")
    validator = _validator(spec.name, json.dumps(spec.parameters, sort_keys=True))
    errors = sorted(validator.iter_errors(args), key=lambda e: (list(e.path), e.validator))
    if errors:
        problems = list(dict.fromkeys(_explain(spec, e) for e in errors))
        raise ArgumentError(f"{spec.name}: " + "; ".join(problems[:6]) + f". Usage: {spec.signature_text()}")
    for path, text in _strings(args):
        bad = NOT_IN_XML.search(text)
        if bad:
            raise ArgumentError(f"{spec.name}: argument {path!r} holds a character a Word document cannot contain "
                                f"(U+{ord(bad.group()):04X} at position {bad.start()}); leave it out "
                                "(a line break is \\n, a tab \\t)")
    return dict(args)


def _strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string in `value` (arguments, nested) with its path, as ``text`` or ``cells.0.1``."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _strings(item, f"{path}.{n}")


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
        return f"unknown argument(s) {', '.join(map(repr, extra))}; allowed: {', '.join(props)}"
    schema = props.get(top, {}) if top else {}
    got = json.dumps(error.instance, ensure_ascii=False)
    if len(got) > 80:
        got = got[:77] + "..."
    if error.validator in ("oneOf", "anyOf") or (error.validator == "additionalProperties" and path):
        return f"argument {path!r} is invalid (got {got}); expected {describe_schema(schema) or error.message}"
    if error.validator == "enum":
        return f"argument {path!r} must be one of {', '.join(map(str, error.validator_value))} (got {got})"
    if error.validator == "pattern":
        return f"argument {path!r} has the wrong form (got {got}); expected {describe_schema(schema) or error.validator_value}"
    if error.validator == "type":
        return f"argument {path!r} must be of type {error.validator_value} (got {got})"
    return f"argument {path!r}: {error.message}"
