"""What a split B shares with a split A (test with dev): source documents, templates, phrasings, verbatim clauses and
clause patterns (a clause with its quoted values, numbers, names and colour words masked), and the same for B's
held-out part, which should share no document and no verbatim clause with A (``autodw bench leakage``)."""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable

from autodw.core.colours import _word_pattern

QUOTED = re.compile(r'"[^"]*"|“[^”]*”|‘[^’]*’|「[^」]*」|『[^』]*』|(?<!\w)\'[^\']*\'(?!\w)')
"""A quoted span: "...", “...”, ‘...’, '...' (not an apostrophe), 「...」 or 『...』."""
_CLAUSE_END = re.compile(r";(?!\s*\S*,)\s*|[!?；。！？]\s*|\.(?:\s+|$)|，(?=然后|再)|(?<=\0)(?=接着|另外)")
"""Where the fallback splits an instruction into clauses (outside quoted spans; not at a semicolon between table rows)."""
_JOINERS = re.compile(r"^(?:(?:a few changes|several edits, please|a couple of edits, please|quick one|and then|then|and|also|"
                      r"next|finally|first|please|could you|can you|i'd like you to|i need you to|when you get a moment|"
                      r"有几处要改|改几个地方|另外|接着|然后|再|请|帮我|麻烦|能不能|辛苦)[,:，：]?\s*)+"
                      r"|(?:[,，]\s*(?:thanks|please|谢谢|麻烦了)[!！]?)+$", re.IGNORECASE)
"""Politeness words and connectives the templated track joins clauses with (stripped by the fallback)."""
_END = " \t\n.;,:!?。；，：！？"
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_NAME = re.compile(r"(?<=\W)[A-Z][\w&'-]+(?:\s+[A-Z][\w&'-]*)*")
"""A capitalised word sequence not at the clause start (English person and organisation names, roughly)."""
EXAMPLES = 3


def clauses_of(rec: dict[str, Any]) -> list[str]:
    """A record's clauses: its ``clauses`` field (templated 2.0), else its instruction split at clause punctuation
    outside quotes, without the leading connectives and politeness words."""
    if rec.get("clauses"):
        return list(rec["clauses"])
    quotes: list[str] = []
    masked = QUOTED.sub(lambda m: quotes.append(m.group(0)) or f"\0{len(quotes) - 1}\0", rec["instruction"])
    parts = (_JOINERS.sub("", p.strip()) for p in _CLAUSE_END.split(masked))
    return [re.sub(r"\0(\d+)\0", lambda m: quotes[int(m.group(1))], p) for p in parts if p.strip(_END)]


def verbatim(clause: str) -> str:
    """A clause as compared verbatim: whitespace and end punctuation trimmed, first letter in lower case."""
    text = clause.strip(_END)
    return text[:1].lower() + text[1:]


def verbatim_clauses(rec: dict[str, Any]) -> list[str]:
    """A record's clauses as compared verbatim (:func:`verbatim`)."""
    return [verbatim(c) for c in clauses_of(rec)]


def pattern(clause: str, language: str) -> str:
    """A clause with quoted spans, colour words and numbers masked (and, in English, capitalised word sequences not at
    its start), in lower case."""
    text = QUOTED.sub("{q}", verbatim(clause))
    text = _word_pattern()[0].sub("{colour}", text)
    if language == "en":
        text = _NAME.sub("{name}", text)
    return " ".join(_NUMBER.sub("{n}", text).lower().split())


KINDS: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "documents": lambda r: [r["source_file"]],
    "templates": lambda r: [t for t in r.get("templates") or () if t != "hand"],
    "phrasings": lambda r: list(r.get("phrasings") or ()),
    "verbatim_clauses": verbatim_clauses,
    "clause_patterns": lambda r: [pattern(c, r["language"]) for c in clauses_of(r)],
}
"""What B may share with A: each kind's keys of one record (B's units: one document per instruction, each template,
phrasing or clause)."""
HELD_OUT_KINDS = ("documents", "verbatim_clauses")


def _key(rec: dict[str, Any]) -> str:
    return f"{rec['session_id']}#{rec['turn']}"


def _shared(kind: str, a_records: list[dict[str, Any]], b_records: list[dict[str, Any]]) -> dict[str, Any]:
    """How much of B's units of one kind A holds too: distinct keys shared, units and instructions of B, examples."""
    keys_of = KINDS[kind]
    first_in_a: dict[str, str] = {}
    for rec in a_records:
        for k in keys_of(rec):
            first_in_a.setdefault(k, _key(rec))
    units = matched = instructions = 0
    shared: dict[str, dict[str, str]] = {}
    for rec in b_records:
        keys = keys_of(rec)
        hits = [k for k in keys if k in first_in_a]
        units, matched, instructions = units + len(keys), matched + len(hits), instructions + bool(hits)
        for k in hits:
            shared.setdefault(k, {"value": k, "a": first_in_a[k], "b": _key(rec)})
    return {"shared": len(shared), "matched": matched, "of": units, "share": _share(matched, units),
            "instructions": instructions, "instruction_share": _share(instructions, len(b_records)),
            "examples": list(shared.values())[:EXAMPLES]}


def _share(k: int, n: int) -> float:
    return round(k / n, 4) if n else 0.0


def leakage(a_records: Iterable[dict[str, Any]], b_records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """What B's records share with A's (raw JSON records): one entry per kind of :data:`KINDS`, and B's held-out part."""
    a, b = list(a_records), list(b_records)
    held = [r for r in b if r.get("held_out")]
    out: dict[str, Any] = {"a_instructions": len(a), "b_instructions": len(b),
                           "b_clauses": sum(len(clauses_of(r)) for r in b)}
    out.update({kind: _shared(kind, a, b) for kind in KINDS})
    out["held_out"] = {"instructions": len(held), **{kind: _shared(kind, a, held) for kind in HELD_OUT_KINDS}}
    return out


def render_text(name: str, report: dict[str, Any]) -> str:
    """A readable summary of one :func:`leakage` report titled `name`."""
    lines = [f"{name}: A {report['a_instructions']} instructions; B {report['b_instructions']} instructions, "
             f"{report['b_clauses']} clauses"]
    for kind in KINDS:
        e = report[kind]
        lines.append(f"  {kind.replace('_', ' ')}: {e['shared']} shared; {e['matched']} of B's {e['of']} ({e['share']:.1%}), "
                     f"in {e['instructions']} B instructions ({e['instruction_share']:.1%})")
        lines += [f"      e.g. {x['value'][:100]!r} ({x['a']} / {x['b']})" for x in e["examples"]]
    held = report["held_out"]
    lines.append(f"  held-out part of B: {held['instructions']} instructions; shared documents "
                 f"{held['documents']['shared']}, verbatim clauses {held['verbatim_clauses']['matched']}")
    return "\n".join(lines)
