"""Load and check the template data files of the intent dataset (``autodw/intents/templates/*.yaml``).

One file per intent (``<intent>.yaml``: template families and hand-written sentences), ``slots.yaml``
(slot values per language, sentence openers and closers) and ``batches.yaml`` (the writing batch of
every family, in the order the generator renders them). :func:`load_templates` checks that every
slot a template uses is defined for its language, that the ``[a|b]`` choices and ``{slot}`` braces are
well formed, that every value is a string, and that every family is listed in exactly one batch; a
problem raises :class:`~autodw.core.errors.TemplateDataError` naming the file and the template.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Union

import yaml

from autodw.core.errors import TemplateDataError
from autodw.intents.labels import INTENTS

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"
LANGS: tuple[str, ...] = ("en", "zh")
SLOTS_FILE = "slots.yaml"
BATCHES_FILE = "batches.yaml"

Op = Union[str, tuple[str, ...]]
"""One operation: a single template, or a tuple of templates that are paraphrases of each other."""

SLOT = re.compile(r"\{([a-z]+)(\d?)\}")
"""A slot reference: ``{name}``, or ``{name2}`` for a second, different value of the same slot."""
ALTERNATION = re.compile(r"\[([^\[\]]*\|[^\[\]]*)\]")
"""A wording choice ``[a|b|c]``."""
_BROKEN_SLOT = re.compile(r"\{\s*[A-Za-z_][^{}]*\}")
"""Something that looks like a slot but is not one (``{Para}``, ``{para }``); braces around digits are text (``\\d{4}``)."""


@dataclass(frozen=True)
class Family:
    """A group of related operations of one intent, phrased in English and Chinese, from one writing batch."""

    name: str
    intent: str
    batch: str
    en: tuple[Op, ...]
    zh: tuple[Op, ...]


@dataclass(frozen=True)
class Templates:
    """Everything the dataset generator renders from, checked."""

    families: tuple[Family, ...]
    """In generation order: batch by batch, in the order of ``batches.yaml``."""
    handwritten: dict[str, dict[str, tuple[str, ...]]]
    """intent -> language -> hand-written sentences (batch after batch)."""
    slots: dict[str, dict[str, tuple[str, ...]]]
    """language -> slot name -> values (the shared table merged with the language's own)."""
    prefixes: dict[str, tuple[str, ...]]
    suffixes: dict[str, tuple[str, ...]]


def templates_of(op: Op) -> tuple[str, ...]:
    """The templates of one operation (one, or the members of a paraphrase group)."""
    return (op,) if isinstance(op, str) else op


@lru_cache(maxsize=4)
def load_templates(folder: Path = TEMPLATES_DIR) -> Templates:
    """Read and check the template files of ``folder`` (default: the packaged ones)."""
    folder = Path(folder)
    slots, prefixes, suffixes = _read_slots(folder / SLOTS_FILE)
    batch_of, order = _read_batches(folder / BATCHES_FILE)
    by_name: dict[str, Family] = {}
    handwritten: dict[str, dict[str, tuple[str, ...]]] = {}
    for intent in INTENTS:
        path = folder / f"{intent}.yaml"
        data = _mapping(_read_yaml(path), path, "the file", {"families", "handwritten"})
        for i, raw in enumerate(_list(data.get("families", []), path, "families")):
            fam = _read_family(raw, intent, path, f"families[{i}]", batch_of)
            if fam.name in by_name:
                raise TemplateDataError(f"{path}: family {fam.name!r} is defined twice (also in {by_name[fam.name].intent}.yaml)")
            by_name[fam.name] = fam
            for lang in LANGS:
                for op in getattr(fam, lang):
                    for template in templates_of(op):
                        _check_template(template, slots[lang], path, f"family {fam.name!r} ({lang})")
        handwritten[intent] = _read_handwritten(data.get("handwritten", {}), path, list(order))
    unknown = sorted(set(batch_of) - set(by_name))
    if unknown:
        raise TemplateDataError(f"{folder / BATCHES_FILE} lists families that no intent file defines: {unknown}")
    unlisted = sorted(set(by_name) - set(batch_of))
    if unlisted:
        raise TemplateDataError(f"{folder / BATCHES_FILE} does not list the families {unlisted}: add each to its writing batch")
    families = tuple(by_name[name] for names in order.values() for name in names)
    return Templates(families, handwritten, slots, prefixes, suffixes)


def _read_yaml(path: Path) -> Any:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        with path.open(encoding="utf-8") as fh:
            return yaml.load(fh, Loader=loader)  # noqa: S506 - a safe loader
    except OSError as exc:
        raise TemplateDataError(f"cannot read template file {path}: {exc}") from exc
    except yaml.YAMLError as exc:
        raise TemplateDataError(f"{path} is not valid YAML: {exc}") from exc


def _mapping(value: Any, path: Path, where: str, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TemplateDataError(f"{path}: {where} must be a mapping, got {type(value).__name__}")
    extra = sorted(str(k) for k in set(value) - allowed)
    if extra:
        raise TemplateDataError(f"{path}: {where} has unknown keys {extra} (allowed: {sorted(allowed)})")
    return value


def _any_mapping(value: Any, path: Path, where: str) -> dict[str, Any]:
    return _mapping(value, path, where, set(value) if isinstance(value, dict) else set())


def _list(value: Any, path: Path, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise TemplateDataError(f"{path}: {where} must be a list, got {type(value).__name__}")
    return value


def _strings(value: Any, path: Path, where: str, allow_empty: bool = False) -> tuple[str, ...]:
    items = _list(value, path, where)
    if not items and not allow_empty:
        raise TemplateDataError(f"{path}: {where} is empty")
    for item in items:
        if not isinstance(item, str) or not item.strip():
            raise TemplateDataError(f"{path}: {where} holds {item!r}; every value must be a non-empty string (quote numbers)")
    return tuple(items)


def _read_slots(path: Path) -> tuple[dict[str, dict[str, tuple[str, ...]]], dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    data = _mapping(_read_yaml(path), path, "the file", {"shared", *LANGS, "prefixes", "suffixes"})
    tables = {name: _any_mapping(data.get(name, {}), path, name) for name in ("shared", *LANGS)}
    slots: dict[str, dict[str, tuple[str, ...]]] = {}
    for lang in LANGS:
        clash = sorted(set(tables["shared"]) & set(tables[lang]))
        if clash:
            raise TemplateDataError(f"{path}: slots {clash} are defined both in shared and in {lang}")
        merged = {**tables["shared"], **tables[lang]}
        slots[lang] = {str(name): _strings(values, path, f"slot {name!r} ({lang})") for name, values in merged.items()}
        for name in slots[lang]:
            if not re.fullmatch(r"[a-z]+", name):
                raise TemplateDataError(f"{path}: slot name {name!r} must be lower-case letters (a digit after it picks a second value)")
    if slots["en"].keys() != slots["zh"].keys():
        raise TemplateDataError(f"{path}: en and zh define different slots: {sorted(set(slots['en']) ^ set(slots['zh']))}")
    for lang in LANGS:  # slot values may contain slots themselves
        for name, values in slots[lang].items():
            for value in values:
                _check_template(value, slots[lang], path, f"slot {name!r} ({lang})")
    decorations = []
    for key in ("prefixes", "suffixes"):
        table = _mapping(data.get(key, {}), path, key, set(LANGS))
        decorations.append({lang: _strings(table.get(lang, []), path, f"{key}.{lang}") for lang in LANGS})
    return slots, decorations[0], decorations[1]


def _read_batches(path: Path) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    data = _any_mapping(_read_yaml(path), path, "the file")
    batch_of: dict[str, str] = {}
    order: dict[str, tuple[str, ...]] = {}
    for batch, names in data.items():
        order[str(batch)] = _strings(names, path, f"batch {batch!r}")
        for name in order[str(batch)]:
            if name in batch_of:
                raise TemplateDataError(f"{path}: family {name!r} is listed twice (batches {batch_of[name]!r} and {batch!r})")
            batch_of[name] = str(batch)
    return batch_of, order


def _read_family(raw: Any, intent: str, path: Path, where: str, batch_of: dict[str, str]) -> Family:
    data = _mapping(raw, path, where, {"name", *LANGS})
    name = data.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9_]+", name):
        raise TemplateDataError(f"{path}: {where} needs a name of lower-case letters, digits and underscores, got {name!r}")
    ops: dict[str, tuple[Op, ...]] = {}
    for lang in LANGS:
        entries = _list(data.get(lang), path, f"family {name!r} ({lang})")
        if not entries:
            raise TemplateDataError(f"{path}: family {name!r} has no {lang} operations")
        ops[lang] = tuple(
            entry if isinstance(entry, str) else _strings(entry, path, f"family {name!r} ({lang}), operation {i}")
            for i, entry in enumerate(entries)
        )
        bad = [e for e in ops[lang] if isinstance(e, str) and not e.strip()]
        if bad:
            raise TemplateDataError(f"{path}: family {name!r} ({lang}) has an empty template")
    return Family(name, intent, batch_of.get(name, ""), ops["en"], ops["zh"])


def _read_handwritten(raw: Any, path: Path, batches: list[str]) -> dict[str, tuple[str, ...]]:
    data = _mapping(raw or {}, path, "handwritten", set(batches))
    out: dict[str, tuple[str, ...]] = {lang: () for lang in LANGS}
    for batch in batches:  # batch after batch, in the order of batches.yaml
        by_lang = _mapping(data.get(batch, {}) or {}, path, f"handwritten.{batch}", set(LANGS))
        for lang in LANGS:
            out[lang] += _strings(by_lang.get(lang, []), path, f"handwritten.{batch}.{lang}", allow_empty=True)
    return out


def _check_template(template: str, slots: dict[str, tuple[str, ...]], path: Path, where: str) -> None:
    """Every ``{slot}`` is defined, and no brace or bracket is left over once slots and choices are taken out."""
    missing = sorted({m.group(1) for m in SLOT.finditer(template)} - set(slots))
    if missing:
        raise TemplateDataError(f"{path}: {where}: template {template!r} uses undefined slots {missing} (define them in {SLOTS_FILE})")
    rest = SLOT.sub("", ALTERNATION.sub("", template))
    broken = _BROKEN_SLOT.search(rest)
    if broken:
        raise TemplateDataError(f"{path}: {where}: template {template!r} has {broken.group(0)!r}, which is not a slot "
                                "like {para} or {para2} (slot names are lower-case letters)")
    if "|" in rest and ("[" in template or "]" in template):
        raise TemplateDataError(f"{path}: {where}: template {template!r} has an unbalanced [a|b] choice")
