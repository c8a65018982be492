"""The API registry: one :class:`ApiSpec` per API, registered with the :func:`api` decorator.

A spec's JSON Schema is written once and feeds the LLM prompt, the argument validator and the
``autodw apis`` catalogue. Registration checks that the function's signature matches the schema.
"""

from __future__ import annotations

import difflib
import inspect
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from autodw.core.errors import UnknownApiError

# The eight intents of the AutoDW paper: every API belongs to one (its catalogue module is named after it).
# The intent classifier (autodw.intents) predicts these same names.
INTENTS: tuple[str, ...] = (
    "content_creation",
    "content_modification",
    "table_operation",
    "image_operation",
    "chart_operation",
    "format_style_editing",
    "structure_update",
    "lifecycle_update",
)

DEFAULT_DOCUMENT = "examples/report.docx"


@dataclass(frozen=True)
class Example:
    """An example call: arguments and the sample document (path relative to the repository root) it runs on."""

    args: dict[str, Any]
    document: str = DEFAULT_DOCUMENT


@dataclass(frozen=True)
class ApiSpec:
    """One API: what it is called, what it is for, its argument schema and examples."""

    name: str
    intent: str
    description: str
    parameters: dict[str, Any]
    examples: tuple[Example, ...]
    func: Callable[..., Any] = field(repr=False, compare=False)
    read_only: bool = False  # leaves the document as it is
    writes_files: bool = False  # writes a file of its own (a copy, an export): not read-only for an MCP client

    def to_json(self) -> dict[str, Any]:
        """The catalogue entry: name, intent, description, parameters, examples."""
        return {"name": self.name, "intent": self.intent, "description": self.description,
                "parameters": self.parameters,
                "examples": [{"args": e.args, "document": e.document} for e in self.examples]}

    def signature_text(self) -> str:
        """``name(a, b, c?)``: required arguments plain, optional ones with a question mark."""
        required = set(self.parameters.get("required", []))
        args = [p if p in required else f"{p}?" for p in self.parameters["properties"]]
        return f"{self.name}({', '.join(args)})"

    @property
    def purpose(self) -> str:
        """The first sentence of the description."""
        return _first_sentence(self.description)

    def summary(self) -> str:
        """One line for choosing among APIs: name and the first sentence of the description."""
        return f"{self.name}: {self.purpose}"

    def prompt_doc(self, compact: bool = False) -> str:
        """Tool documentation for an LLM prompt: signature, description, one line per argument and an
        example. `compact` (for small local models) keeps the first sentence of each description and
        drops the example."""
        import json

        description = self.purpose if compact else self.description
        lines = [f"{self.signature_text()}: {description}"]
        required = set(self.parameters.get("required", []))
        for name, schema in self.parameters["properties"].items():
            text = describe_schema(schema)
            if compact:
                text = _first_sentence(text)
            lines.append(f"  - {name}{'' if name in required else ' (optional)'}: {text}")
        if self.examples and not compact:
            lines.append(f"  example: {json.dumps(self.examples[0].args, ensure_ascii=False)}")
        return "\n".join(lines)


_SENTENCE_END = re.compile(r"(?<!e\.g)(?<!i\.e)\.\s")


def _first_sentence(text: str) -> str:
    """Text up to the first full stop that ends a sentence (not "e.g."), or all of it."""
    m = _SENTENCE_END.search(text)
    return text if m is None else text[: m.start() + 1]


def describe_schema(schema: dict[str, Any]) -> str:
    """A short human description of an argument schema (its description, enum, type and bounds)."""
    text = schema.get("description", "")
    if "enum" in schema and "one of" not in text:
        text += (" " if text else "") + "one of: " + ", ".join(map(str, schema["enum"]))
    kind = schema.get("type")
    if kind and not text:
        text = kind if isinstance(kind, str) else "/".join(kind)
    if "default" in schema:
        text += f" (default {schema['default']!r})"
    return text


class Registry:
    """Named APIs; a name registered twice, an unknown intent or a schema/signature mismatch is an error."""

    def __init__(self) -> None:
        self._specs: dict[str, ApiSpec] = {}

    def add(self, spec: ApiSpec) -> None:
        """Register `spec` after checking it."""
        if spec.name in self._specs:
            raise ValueError(f"API {spec.name!r} is registered twice")
        if spec.intent not in INTENTS:
            raise ValueError(f"API {spec.name!r}: unknown intent {spec.intent!r}")
        _check_signature(spec)
        self._specs[spec.name] = spec

    def get(self, name: str) -> ApiSpec:
        """The spec called `name`; UnknownApiError names the closest APIs otherwise."""
        try:
            return self._specs[name]
        except (KeyError, TypeError):
            close = difflib.get_close_matches(str(name), list(self._specs), n=5, cutoff=0.5)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise UnknownApiError(f"there is no API called {name!r}{hint}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self) -> Iterator[ApiSpec]:
        return iter(self._specs.values())

    def __len__(self) -> int:
        return len(self._specs)

    def names(self) -> list[str]:
        """All API names in registration order."""
        return list(self._specs)

    def by_intent(self, intent: str) -> list[ApiSpec]:
        """The APIs of one intent."""
        return [s for s in self._specs.values() if s.intent == intent]

    def names_for_intents(self, intents: Iterable[str]) -> list[str]:
        """API names of several intents, in intent order, without duplicates."""
        return [s.name for intent in intents for s in self.by_intent(intent)]


REGISTRY = Registry()


def api(*, intent: str, description: str, params: dict[str, dict[str, Any]] | None = None,
        examples: Iterable[Example | dict[str, Any]] = (), read_only: bool = False,
        writes_files: bool = False) -> Callable:
    """Register the decorated function ``f(doc, **args)`` as an API.

    Arguments without a default in the signature are the schema's required ones.
    """

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        sig = inspect.signature(func)
        names = list(sig.parameters)[1:]
        required = [n for n in names if sig.parameters[n].default is inspect.Parameter.empty]
        schema = {"type": "object", "properties": dict(params or {}), "required": required, "additionalProperties": False}
        spec = ApiSpec(
            name=func.__name__, intent=intent, description=" ".join(description.split()), parameters=schema,
            examples=tuple(e if isinstance(e, Example) else Example(e) for e in examples),
            func=func, read_only=read_only, writes_files=writes_files,
        )
        REGISTRY.add(spec)
        return func

    return decorate


def _check_signature(spec: ApiSpec) -> None:
    sig = inspect.signature(spec.func)
    params = list(sig.parameters)
    if not params or params[0] != "doc":
        raise ValueError(f"API {spec.name!r}: the first parameter must be 'doc'")
    declared = set(spec.parameters["properties"])
    actual = set(params[1:])
    if declared != actual:
        raise ValueError(f"API {spec.name!r}: schema arguments {sorted(declared)} differ from the signature {sorted(actual)}")
    if not spec.examples:
        raise ValueError(f"API {spec.name!r} has no example call")
    for name, schema in spec.parameters["properties"].items():
        if "description" not in schema:
            raise ValueError(f"API {spec.name!r}: argument {name!r} has no description")
