"""Write DWBench: build the initial documents, write every session turn by turn (edit templates
joined into instructions, gold calls run as they are chosen), split, and save JSONL shards.

Run: ``python -m autodw.dwbench.generate`` (deterministic for a seed; needs the shared corpus). A templated tuning
split (``provenance.TEMPLATED_LATER``) is made with its own seed beside the dev and test shards, which it leaves alone:
``python -m autodw.dwbench.generate --tuning-split dev-outside --seed S --sessions 40`` writes
``data/templated/dev-outside-NN.jsonl`` from dev's templates only (no template held out for test, never a phrasing dev
holds out), on the tuning corpus files (``data/document_splits.json`` "tuning") and on generated documents of seed S
(``data/docs/tuning/``; neither dev's nor test's), and writes no clause test has word for word (test's clauses are
read for that exclusion only). A split of ``TUNING_ONLY_SPLITS`` also draws the tuning-only templates of the modules
it names there (dev-outside-third those of ``autodw/dwbench/edits/tuning.py``, dev-outside-fourth those of
``tuning_second.py``), which dev and test never draw.
The checks `autodw bench validate` makes are also made here, per instruction, so a session that
would fail them is never written: each call must change the document and each instruction must
change it; ids are right by construction (calls run on the live document).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import sys
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from autodw.apis import registry
from autodw.core import provenance
from autodw.core.document import WordDocument
from autodw.core.progress import progress
from autodw.dwbench import documents
from autodw.dwbench.context import Call, Ctx, Skip
from autodw.dwbench import records
from autodw.dwbench.edits import TEMPLATES, THEMES
from autodw.dwbench.leakage import clauses_of, verbatim
from autodw.dwbench.validate import check_turn, validate_session
from autodw.dwbench.records import (DATA_DIR, DOCS_DIR, corpus_dir, difficulty_of, fingerprint,
                                    fingerprint_members, instruction_record)

SEED = 20251124
N_SESSIONS = 160
N_DEV = 32
N_CORPUS = 36
ZH_SHARE = 0.45
CORPUS_SHARE = 0.44
TURN_WEIGHTS = {4: 0.08, 5: 0.10, 6: 0.17, 7: 0.25, 8: 0.40}
CALL_TARGETS = {1: 7, 2: 11, 3: 13, 4: 13, 5: 11, 6: 9, 7: 7.5, 8: 6, 9: 5, 10: 5.2, 11: 4.4, 12: 3.6, 13: 2.9, 14: 2.3,
                15: 1.9, 16: 1.5, 17: 1.2, 18: 1.0, 19: 0.8, 20: 0.6, 21: 0.5, 22: 0.4}
"""Weights of the number of gold calls an instruction is written to take (1-22): a smooth, long-tailed shape (mean
about 5, one call at most 10%, ten or more at least 10%), so that no count spikes where a stopping rule would stop."""
CALLS_PER_SESSION = (15, 75)
MAX_CLAUSES = 3
"""Requests (clauses) per instruction; a target of ten calls or more may take one more. Large instructions come from
requests that take several calls (a styled table with its caption, a section with text and a list), not from glue."""
HELD_OUT_SHARE = 0.25
HELD_OUT_FILE = DATA_DIR / "templated" / "held_out.json"
TUNING_SPLITS = provenance.TEMPLATED_LATER
TUNING_ONLY_SPLITS: dict[str, tuple[str, ...]] = {"dev-outside-third": ("tuning",), "dev-outside-fourth": ("tuning_second",)}
"""The templated tuning splits that also draw tuning-only templates (``Template.tuning_only``: never drawn for dev or
test), each -> the modules of :mod:`autodw.dwbench.edits` whose tuning-only templates it draws (and no others): a set
written later never enters the draws of a split made before it. The other splits, like dev and test, draw exactly the
templates they drew before any tuning-only one was written."""
TUNING_ONLY_SHARE = 0.5
"""In a split of :data:`TUNING_ONLY_SPLITS`, the share of the drawing weight given to the tuning-only templates among
those a clause may draw (so that about half its clauses come from them)."""
TUNING_FIRST_ID = 100
"""Session ids of the n-th templated tuning split start at n times this (dwo-001.., dwo-101..)."""
TUNING_MAX_PARAGRAPHS = 400
"""Paragraphs a tuning corpus file may have at most (the bar dev's and test's files passed)."""
TUNING_DOCS = DOCS_DIR / "tuning"
"""Where the generated documents of the templated tuning splits are kept (named by kind, language and seed)."""


@dataclass
class Turn:
    instruction: str
    calls: list[Call]
    edits: list[str]
    free_text: bool
    clauses: list[str] = field(default_factory=list)
    phrasings: list[str] = field(default_factory=list)


def tuning_only_templates(split: str) -> frozenset[str]:
    """The tuning-only templates `split` draws: those of its modules in :data:`TUNING_ONLY_SPLITS` (none for any other
    split)."""
    modules = TUNING_ONLY_SPLITS.get(split, ())
    return frozenset(n for n, t in TEMPLATES.items() if t.tuning_only and t.func.__module__.rsplit(".", 1)[-1] in modules)


def held_out_templates(seed: int = SEED) -> list[str]:
    """The templates test holds out of dev: a seeded HELD_OUT_SHARE of each theme's templates (none of the removals,
    which only ever open an instruction, so that dev keeps every theme's openings). Tuning-only templates are not
    counted: the draw sees the names it saw before they were written."""
    rng = random.Random(f"{seed}-held-out")
    out = []
    for theme in sorted(THEMES):
        names = sorted(n for n, t in TEMPLATES.items() if t.theme == theme and not t.undoing and not t.tuning_only)
        out += rng.sample(names, max(1, round(len(names) * HELD_OUT_SHARE)))
    return sorted(out)


@dataclass
class Session:
    session_id: str
    language: str
    doc_language: str
    doc_kind: str
    source: dict[str, str]
    split: str = ""
    turns: list[Turn] = field(default_factory=list)


# ----------------------------------------------------------------------------- instructions
_EN_VERBS = frozenset("""add align alphabetise append apply attach bold bookmark break bring caption centre change chart clean clear colour
comment complete copy correct create crop cut define delete demote divide draw drop duplicate extend fill finish flag follow format frame
get give go highlight indent insert join justify label lay leave lock make mark merge move number order pick point protect pull put
re-sort record redefine refresh remove replace resize restrict restyle retitle retype rewrite scale set shade show sort split start strip
style swap tack take trim turn undo unlink update use watermark write""".split())
"""Imperative verbs English clauses start with: only then may "Please"/"Could you" go in front."""


def join_clauses(clauses: list[str], lang: str, rng: random.Random) -> str:
    """One instruction from one or more clauses, with the politeness and connectives people use."""
    if lang == "en":
        verb_first = clauses[0].split(" ", 1)[0] in _EN_VERBS
        if len(clauses) == 1:
            forms = ["{c}.", "{c}, thanks.", "{c}, please.", "Quick one: {c}."]
            if verb_first:
                forms += ["Please {c}.", "Could you {c}?", "Can you {c}, please?", "I'd like you to {c}.", "Please could you {c}?",
                          "When you get a moment, {c}.", "I need you to {c}."]
            text = rng.choice(forms).format(c=clauses[0])
        else:
            head, last = clauses[:-1], clauses[-1]
            forms = [1, 2, 4, 5] + ([0, 3] if verb_first else [])
            form = rng.choice(forms)
            if form == 0:
                text = "Please " + "; ".join(head) + "; and then " + last + "."
            elif form == 1:
                text = _cap(clauses[0]) + "".join(". Then " + x for x in clauses[1:]) + "."
            elif form == 2:
                text = "A few changes: " + "; ".join(clauses) + "."
            elif form == 3:
                text = "Could you " + "; ".join(head) + "; and " + last + "?"
            elif form == 5:
                text = ("A couple of edits, please. First, " if len(clauses) == 2 else "Several edits, please. First, ") + \
                    "; next, ".join(head) + "; finally, " + last + "."
            else:
                text = "; ".join(head) + ". Also, " + last + "."
        return _tidy(_cap(text))
    verb_first = clauses[0].startswith(_ZH_VERBS) and not re.match(r"新(?:加|插|建)的|修订", clauses[0])
    if len(clauses) == 1:
        forms = ["{c}。", "{c}，谢谢！", "{c}，麻烦了。"] + (["请{c}。", "帮我{c}。", "麻烦{c}，谢谢。", "能不能{c}？", "辛苦{c}。"] if verb_first else [])
        return _tidy(rng.choice(forms).format(c=clauses[0]))
    out = rng.choice(["", "有几处要改：", "改几个地方："] + (["请", "帮我", "麻烦"] if verb_first else [])) + clauses[0]
    for cl in clauses[1:]:
        joiners = ["，然后", "；另外，", "。接着"] + (["，再"] if cl.startswith(_ZH_VERBS) and not cl.startswith("在") else [])
        out += rng.choice(joiners) + cl
    return _tidy(out + rng.choice(["。", "，谢谢。"]))


_ZH_VERBS = tuple("把在给删将用插加去设取打更刷修新添合拆复移调按隐让限发统")


def _tidy(text: str) -> str:
    """No doubled full stops after a quoted sentence that already ends with one."""
    text = re.sub(r'([.!?])"\.', r'\1"', text)
    text = re.sub(r"\b([Tt])he text of the text in\b", r"\1he text in", text)
    text = re.sub(r"，再(新(?:加|插|建)的|修订)", r"，然后\1", text)  # "再" before a noun phrase reads as a verb slip
    return text.replace("。”。", "。”").replace("。”；", "。”；")


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def write_turn(ctx: Ctx, rng: random.Random, used_texts: set[str], turn_no: int, banned: frozenset[str] = frozenset(),
               avoid: frozenset[str] = frozenset(), tuning_only: frozenset[str] = frozenset()) -> Turn | None:
    """One instruction on the live document (left changed), or None when no good one was found; `banned`: templates
    this session may not use (dev's held-out ones); `avoid`: clauses (as :func:`leakage.verbatim` compares them) it may
    not write (test's, for a tuning split); `tuning_only`: the tuning-only templates that may be drawn too (those of a
    split of :data:`TUNING_ONLY_SPLITS`, :func:`tuning_only_templates`)."""
    lo = rng.choices(list(CALL_TARGETS), list(CALL_TARGETS.values()))[0]
    hi = lo + lo // 5
    hard = lo >= 7
    memory = dict(ctx.memory)
    best: tuple | None = None  # (how far from the target, turn, end state, memory) of the closest attempt so far
    for _attempt in range(8):
        ctx.memory = dict(memory)
        start = ctx.doc.snapshot()
        ctx.calls, ctx.free_text, ctx.named, ctx.fresh, ctx.phrasings = [], False, {}, set(), []
        clauses, names = [], []
        seen: set[tuple] = set()
        tries = 0
        while len(ctx.calls) < lo and len(clauses) < MAX_CLAUSES + (lo >= 10) and tries < 40:
            tries += 1
            name = _choose_edit(ctx, rng, names, turn_no, hard=hard, banned=banned, tuning_only=tuning_only)
            before, n_before, mem, named, fresh = ctx.doc.snapshot(), len(ctx.calls), dict(ctx.memory), dict(ctx.named), set(ctx.fresh)
            n_phrasings = len(ctx.phrasings)
            ctx.template = name
            try:
                clause = TEMPLATES[name].func(ctx)
                _check_each_call_changes(ctx, before, n_before)
            except (Skip, Exception) as exc:  # noqa: BLE001 - any failure: undo this edit and try another
                if not isinstance(exc, Skip) and not isinstance(exc, _NoChange):
                    _log(f"  edit {name} failed: {type(exc).__name__}: {exc}")
                ctx.doc.restore(before)
                ctx._state = None
                del ctx.calls[n_before:]
                del ctx.phrasings[n_phrasings:]
                ctx.memory, ctx.named, ctx.fresh = mem, named, fresh
                continue
            if len(ctx.calls) > hi or (ctx.free_text and len(clauses) > 0):
                ctx.doc.restore(before)
                ctx._state = None
                del ctx.calls[n_before:]
                del ctx.phrasings[n_phrasings:]
                ctx.memory, ctx.named, ctx.fresh = mem, named, fresh
                continue
            touched = touches(ctx, ctx.calls[n_before:])
            if touched & seen or (avoid and verbatim(clause) in avoid):
                # a second clause setting what an earlier one set reads as a contradiction; an avoided clause is redrawn
                ctx.doc.restore(before)
                ctx._state = None
                del ctx.calls[n_before:]
                del ctx.phrasings[n_phrasings:]
                ctx.memory, ctx.named, ctx.fresh = mem, named, fresh
                continue
            seen |= touched
            clauses.append(clause)
            names.append(name)
        miss = max(lo - len(ctx.calls), len(ctx.calls) - hi, 0)
        if ctx.calls and (best is None or miss < best[0]):  # checking an attempt no closer than the best is wasted
            text = join_clauses(clauses, ctx.lang, rng)
            end = ctx.doc.snapshot()
            ctx.doc.restore(start)
            problems = check_turn(ctx.doc, ctx.calls)  # leaves the document at the turn's end state
            ctx._state = None
            if problems:
                _log(f"  turn rejected: {problems[0]}")
            elif text not in used_texts and fingerprint_members(end.members) != _fp_members(start):
                turn = Turn(text, list(ctx.calls), names, ctx.free_text, clauses, list(ctx.phrasings))
                if miss == 0:
                    used_texts.add(text)
                    return turn
                if best is None or miss < best[0]:
                    best = (miss, turn, end, dict(ctx.memory))
        ctx.doc.restore(start)
        ctx._state = None
    if best is None:
        return None
    # no attempt hit the target: the one closest to it (not whichever came last, which piles up common call counts)
    _, turn, end, ctx.memory = best
    ctx.doc.restore(end)
    ctx._state = None
    used_texts.add(turn.instruction)
    return turn


_FONT_KEYS = {"font": "font", "east_asia_font": "font", "size_pt": "size", "color": "color", "bold": "bold", "italic": "italic",
              "highlight": "highlight", "underline": "underline"}
_SIDE_KEYS = {"paragraphs", "paragraph", "span", "table", "chart", "image", "section", "name", "where", "kind", "apply_to"}


def _ids(value) -> list[str]:
    return [value] if isinstance(value, str) else list(value or [])


def _sections(ctx: Ctx, value) -> list:
    return list(range(len(ctx.sections()))) if value in ("all", None) else [value]


def touches(ctx: Ctx, calls: list[Call]) -> set[tuple]:
    """(target, property) pairs the calls set, with a style change counted on every paragraph of that style and the
    default font on every paragraph, so that two clauses of one instruction setting the same property of the same
    thing (a heading coloured directly and then through its style; Roman page numbers for section 1 and plain numbers
    on every page) can be told apart from clauses that merely touch the same element."""
    out: set[tuple] = set()
    paras = ctx.paragraphs()
    for call in calls:
        a, api = call.args, call.api
        if api in ("set_text_format", "modify_style", "set_default_font", "clear_text_format"):
            props = {_FONT_KEYS[k] for k in a if k in _FONT_KEYS} if api != "clear_text_format" else set(_FONT_KEYS.values())
            if api == "modify_style":
                targets = [p["id"] for p in paras if p.get("style") == a.get("name")] + [("style", a.get("name"))]
            elif api == "set_default_font":
                targets = [p["id"] for p in paras]
            else:
                targets = _ids(a.get("paragraphs"))
            out |= {(t, prop) for t in targets for prop in props}
        elif api in ("set_paragraph_format", "set_paragraph_shading", "set_paragraph_border"):
            out |= {(t, api, k) for t in _ids(a.get("paragraphs")) for k in a if k not in _SIDE_KEYS}
        elif api in ("apply_style", "change_heading_level", "create_style"):
            out |= {(t, "style") for t in _ids(a.get("paragraphs") or a.get("apply_to"))}
        elif api in ("set_list_format", "remove_list"):
            out |= {(t, "list") for t in _ids(a.get("paragraphs"))}
        elif api in ("insert_page_numbers", "set_header_footer"):
            where = a.get("where", "footer")
            out |= {(("section", k), where, a.get("kind", "default")) for k in _sections(ctx, a.get("section"))}
        elif api in ("set_page_setup", "set_columns"):
            out |= {(("section", k), api, key) for k in _sections(ctx, a.get("section")) for key in a if key != "section"}
        elif api in ("add_watermark", "remove_watermark"):
            out |= {(("section", k), "watermark") for k in _sections(ctx, a.get("section"))}
        elif api in ("set_table_properties", "set_table_borders", "set_header_row", "set_cell_alignment", "set_row_height", "sort_table"):
            out |= {(a.get("table"), api, k) for k in a if k not in ("table", "cells", "row", "header_rows", "scope")}
        elif api in ("resize_image", "crop_image"):  # the width a crop leaves depends on the order of the two
            out.add((a.get("image"), "size"))
        elif api in ("set_chart_title", "set_chart_legend", "change_chart_type", "resize_chart"):
            out.add((a.get("chart"), api))
        elif api in ("set_properties",):
            out |= {("properties", k) for k in a}
    return out


class _NoChange(Exception):
    pass


def _check_each_call_changes(ctx: Ctx, before, n_before: int) -> None:
    """Replay the edit's calls from `before`, one by one, and refuse a call that changes nothing."""
    from autodw.apis import execute

    after = ctx.doc.snapshot()
    calls = ctx.calls[n_before:]
    if len(calls) == 1:
        if _fp_members(before) == _fp_members(after):
            raise _NoChange()
        return
    ctx.doc.restore(before)
    prev = fingerprint(ctx.doc)
    for call in calls:
        execute(ctx.doc, call.api, call.args)
        now = fingerprint(ctx.doc)
        if now == prev:
            raise _NoChange()
        prev = now
    ctx._state = None


def _fp_members(snapshot) -> str:
    return fingerprint_members(snapshot.members)


def _choose_edit(ctx: Ctx, rng: random.Random, taken: list[str], turn_no: int, hard: bool = False,
                 banned: frozenset[str] = frozenset(), tuning_only: frozenset[str] = frozenset()) -> str:
    """The next template of an instruction. A tuning-only template is a candidate only if it is one of `tuning_only`
    (the split's, :func:`tuning_only_templates`; together they then get a :data:`TUNING_ONLY_SHARE` of the weight);
    without any the names and weights are those of before they were written, and with a split's those of before any
    later set was written, so the draws of a seed are unchanged."""
    names, weights = [], []
    theme = TEMPLATES[taken[0]].theme if taken and rng.random() < 0.8 else None
    for name, t in TEMPLATES.items():
        if name in taken or name in banned or (theme and t.theme != theme) or (taken and t.undoing):
            continue
        if t.tuning_only and name not in tuning_only:
            continue
        w = t.weight * (8 if hard and t.multi_call else 1)
        if t.needs:
            if not all(k in ctx.memory for k in t.needs):
                continue
            w *= 3
        if name.startswith("free_") and (taken or rng.random() < 0.4):
            continue
        names.append(name)
        weights.append(w)
    if tuning_only:
        weights = _tuning_only_share(names, weights)
    return rng.choices(names, weights)[0]


def _tuning_only_share(names: list[str], weights: list[float]) -> list[float]:
    """`weights` with the tuning-only templates' scaled to a :data:`TUNING_ONLY_SHARE` of the total (unchanged when
    only one kind is among `names`)."""
    mine = sum(w for n, w in zip(names, weights) if TEMPLATES[n].tuning_only)
    rest = sum(weights) - mine
    if not mine or not rest:
        return weights
    k = rest * TUNING_ONLY_SHARE / (1 - TUNING_ONLY_SHARE) / mine
    return [w * k if TEMPLATES[n].tuning_only else w for n, w in zip(names, weights)]


# ----------------------------------------------------------------------------- sessions
def write_session(session: Session, data: bytes, rng: random.Random, used_texts: set[str], n_turns: int,
                  avoid: frozenset[str] = frozenset()) -> bool:
    doc = WordDocument.from_bytes(data, name=session.source["file"])
    doc.asset_roots = [documents.ASSETS_DIR]
    dev = session.split == "dev" or session.split in TUNING_SPLITS
    ctx = Ctx(doc, session.language, rng, doc_lang=session.doc_language, kind=session.doc_kind, dev=dev)
    banned = frozenset(held_out_templates()) if dev else frozenset()
    for k in range(n_turns):
        turn = write_turn(ctx, rng, used_texts, k + 1, banned, avoid, tuning_only=tuning_only_templates(session.split))
        if turn is None:
            return False
        session.turns.append(turn)
    total = sum(len(t.calls) for t in session.turns)
    if not CALLS_PER_SESSION[0] <= total <= CALLS_PER_SESSION[1]:
        for t in session.turns:
            used_texts.discard(t.instruction)
        return False
    return True


def corpus_candidates() -> list[tuple[str, bytes]]:
    """Real corpus files the document model opens and that have enough text to edit."""
    return [(path.name, path.read_bytes()) for path in sorted(corpus_dir().glob("*.docx")) if usable_corpus_file(path)]


def usable_corpus_file(path: Path, max_paragraphs: int = 400, english_text: bool = True) -> bool:
    """Whether a corpus file can start a session: at most 700 kB, opened by the document model, four body paragraphs
    or more and at most `max_paragraphs` paragraphs, and (if `english_text`) English prose or Chinese."""
    from autodw.analysis.state import extract_state

    if path.stat().st_size > 700_000:
        return False
    data = path.read_bytes()
    try:
        doc = WordDocument.from_bytes(data, name=path.name)
        st = extract_state(doc)
    except Exception:  # noqa: BLE001 - files the model refuses are simply not used
        return False
    ctx = Ctx(doc, "en", random.Random(0))
    text = " ".join(p["text"] for p in st["paragraphs"]).lower()
    english_or_chinese = not english_text or text.count(" the ") >= 5 or corpus_language(data) == "zh"
    return len(ctx.body()) >= 4 and len(st["paragraphs"]) <= max_paragraphs and english_or_chinese


def corpus_language(data: bytes) -> str:
    """zh when at least a fifth of the document's letters are Chinese, else en."""
    from autodw.analysis.state import extract_state

    text = "".join(p["text"] for p in extract_state(WordDocument.from_bytes(data))["paragraphs"])
    cjk = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    letters = sum(1 for ch in text if ch.isalpha())
    return "zh" if letters and cjk / letters >= 0.2 else "en"


@dataclass
class Plan:
    """What one session starts from, fixed before any session is written (so workers can run in parallel)."""

    index: int
    language: str
    choices: list[tuple[dict[str, str], str, str, str]]  # (source, file path, doc language, doc kind) per attempt
    n_turns: list[int]
    split: str = "test"
    prefix: str = "dwb"
    seed: int = SEED
    avoid: frozenset[str] = frozenset()  # clauses its sessions may not write (write_turn)


def make_plans(seed: int, n_sessions: int) -> list[Plan]:
    """Build the generated documents that are missing, and plan every session: the first N_DEV are dev and start
    only from dev's documents, the rest test and start only from test's (``data/document_splits.json``); a
    CORPUS_SHARE of each split starts from a real corpus file."""
    rng = random.Random(seed)
    documents.make_assets()
    DOCS_DIR.mkdir(parents=True, exist_ok=True)
    docs: list[tuple[documents.DocSpec, Path]] = []
    for kind in documents.KINDS:
        for lang in ("en", "zh"):
            for v in range(4):
                spec = documents.random_spec(f"{kind}-{lang}-{v + 1}.docx", kind, lang, rng)
                path = DOCS_DIR / spec.name
                if not path.is_file():  # the committed files are kept: sessions of both tracks name their sha256
                    path.write_bytes(documents.build(spec))
                docs.append((spec, path))
    splits = records.document_splits()
    plans: list[Plan] = []
    for split, n in (("dev", min(N_DEV, n_sessions // 5)), ("test", n_sessions - min(N_DEV, n_sessions // 5))):
        corpus = [(name, (corpus_dir() / name).read_bytes()) for name in splits[split]["corpus"]]
        generated = [d for d in docs if d[1].name in splits[split]["generated"]]
        plans += _plan_split(rng, split, n, corpus, generated, len(plans))
    _log(f"{len(docs)} generated documents; {len(plans)} sessions planned")
    return plans


def make_tuning_plans(split: str, seed: int, n_sessions: int) -> list[Plan]:
    """Plan the sessions of a templated tuning split, which writes no clause of test (:func:`test_clauses`): a
    CORPUS_SHARE from the tuning corpus files the generator can use (few hold the English prose dev's and test's files were chosen for, so any text is taken here), the rest from
    one generated document of each kind and language built from `seed` (kept in :data:`TUNING_DOCS`); none of them is
    a document of dev or test."""
    if split not in TUNING_SPLITS:
        raise ValueError(f"{split!r} is not a templated tuning split; choose one of {', '.join(TUNING_SPLITS)}")
    if seed == SEED:
        raise ValueError(f"a tuning split takes a seed other than the benchmark's ({SEED})")
    rng = random.Random(f"{seed}-{split}")
    documents.make_assets()
    TUNING_DOCS.mkdir(parents=True, exist_ok=True)
    docs: list[tuple[documents.DocSpec, Path]] = []
    for kind in documents.KINDS:
        for lang in ("en", "zh"):
            spec = documents.random_spec(f"tuning/{kind}-{lang}-s{seed}.docx", kind, lang, rng)
            path = DOCS_DIR / spec.name
            if not path.is_file():
                path.write_bytes(documents.build(spec))
            docs.append((spec, path))
    splits = records.document_splits()
    taken = {n for side in ("dev", "test") for n in splits[side]["corpus"]}
    names = [n for n in splits["tuning"]["corpus"]
             if n not in taken and usable_corpus_file(corpus_dir() / n, TUNING_MAX_PARAGRAPHS, english_text=False)]
    corpus = [(name, (corpus_dir() / name).read_bytes()) for name in names]
    first = TUNING_FIRST_ID * TUNING_SPLITS.index(split)  # each tuning split's session ids apart from the others'
    plans = _plan_split(rng, split, n_sessions, corpus, docs, first, prefix="dwo", seed=seed)
    avoid = test_clauses()
    plans = [replace(p, avoid=avoid) for p in plans]
    _log(f"{split}: {len(docs)} generated documents, {len(corpus)} tuning corpus files; {len(plans)} sessions planned")
    return plans


def test_clauses() -> frozenset[str]:
    """The clauses of the templated test split as compared verbatim (:func:`leakage.verbatim`), read for one use: a
    tuning split writes none of them, so that it shares no clause with test word for word (nothing of test is shown)."""
    return frozenset(verbatim(c) for r in records.iter_records("test", "templated") for c in clauses_of(r))


def _plan_split(rng: random.Random, split: str, n: int, corpus: list[tuple[str, bytes]],
                generated: list[tuple[documents.DocSpec, Path]], first: int, prefix: str = "dwb",
                seed: int = SEED) -> list[Plan]:
    """Plan `n` sessions of `split` (indices from `first`): a CORPUS_SHARE from `corpus`, the rest from `generated`."""
    langs = records.document_splits()["languages"]
    plans: list[Plan] = []
    n_corpus = math.ceil(CORPUS_SHARE * n)
    origins = ["corpus"] * n_corpus + ["generated"] * (n - n_corpus)
    rng.shuffle(origins)
    corpus_order = corpus[:]
    rng.shuffle(corpus_order)
    doc_uses: Counter[str] = Counter()
    ci = 0
    for origin in origins:
        lang = "zh" if rng.random() < ZH_SHARE else "en"
        choices = []
        if origin == "corpus":
            # A Chinese file gets Chinese instructions; an English file either language (people do write Chinese
            # requests about English documents; the text they insert is then quoted English).
            if langs[corpus_order[ci % len(corpus_order)][0]] == "zh":
                lang = "zh"
            ring = [corpus_order[(ci + k) % len(corpus_order)] for k in range(len(corpus_order))]
            for name, data in [f for f in ring if lang == "zh" or langs[f[0]] == "en"][:6]:
                choices.append(({"kind": "corpus", "file": name, "sha256": hashlib.sha256(data).hexdigest()},
                                str(corpus_dir() / name), langs[name], "corpus"))
            ci += 1
        else:
            pool = sorted((d for d in generated if d[0].lang == lang), key=lambda d: (doc_uses[d[0].name], rng.random()))
            doc_uses[pool[0][0].name] += 1
            for spec, path in pool[:6]:
                choices.append(({"kind": "generated", "file": f"docs/{spec.name}", "sha256": hashlib.sha256(path.read_bytes()).hexdigest()},
                                str(path), lang, spec.kind))
        n_turns = [rng.choices(list(TURN_WEIGHTS), list(TURN_WEIGHTS.values()))[0] for _ in range(12)]
        plans.append(Plan(first + len(plans), lang, choices, n_turns, split, prefix))
    return plans


def run_plan(plan: Plan, seed: int | None = None, avoid: frozenset[str] = frozenset()) -> Session | None:
    """Write the session of one plan (None if no attempt gave a valid session); `seed`: the plan's unless given."""
    seed = plan.seed if seed is None else seed
    used = set(avoid)
    for attempt in range(12):
        source, path, doc_lang, kind = plan.choices[min(attempt // 2, len(plan.choices) - 1)]
        session = Session(f"{plan.prefix}-{plan.index + 1:03d}", plan.language, doc_lang, kind, source, plan.split)
        if write_session(session, Path(path).read_bytes(), random.Random(f"{seed}-{plan.index}-{attempt}"), used, plan.n_turns[attempt],
                         plan.avoid):
            failures = validate_session(as_records(session), needed=False)
            if not failures:
                return session
            _log(f"  {session.session_id} attempt {attempt} rejected: {failures[0]}")
            for t in session.turns:
                used.discard(t.instruction)
    return None


def as_records(session: Session) -> records.Session:
    """The loader's view of a session being written (to check it exactly as `autodw bench validate` will)."""
    reg = registry()
    items = tuple(records.instruction_from_record(instruction_record(
        session_id=session.session_id, turn=n, instruction=t.instruction, language=session.language,
        doc_language=session.doc_language, doc_kind=session.doc_kind, source=session.source,
        calls=[(c.api, c.args) for c in t.calls], intents=[reg.get(c.api).intent for c in t.calls],
        free_text=t.free_text, split="", templates=t.edits)) for n, t in enumerate(session.turns, 1))
    return records.Session(session.session_id, session.language, items[0].source, items)


def _run_plan(plan: Plan) -> Session | None:
    session = run_plan(plan)
    if session is None:
        _log(f"session {plan.index + 1}: no valid session after 12 attempts")
    else:
        _log(f"{session.session_id} {session.language} {session.source['file']}: {len(session.turns)} turns, "
             f"{sum(len(t.calls) for t in session.turns)} calls")
        for t in session.turns:
            _log(f"    [{len(t.calls)}] {t.instruction}")
    return session


def generate(seed: int = SEED, n_sessions: int = N_SESSIONS, workers: int = 3,
             plans: list[Plan] | None = None) -> list[Session]:
    """Plan and write every session (in `workers` processes), or those of `plans`; duplicated instructions are
    rewritten."""
    import multiprocessing

    plans = make_plans(seed, n_sessions) if plans is None else plans
    with multiprocessing.Pool(workers) as pool:
        results = list(progress(pool.imap(_run_plan, plans, chunksize=1), "generating sessions", len(plans), unit="session"))
    sessions = [s for s in results if s is not None]
    seen: set[str] = set()
    for k, s in enumerate(sessions):
        texts = [t.instruction for t in s.turns]
        if seen & set(texts) or len(set(texts)) < len(texts):
            plan = plans[int(s.session_id.split("-")[1]) - 1]
            redo = run_plan(plan, plan.seed + 7, frozenset(seen))
            if redo is None:
                raise RuntimeError(f"{s.session_id}: could not rewrite a session with a duplicated instruction")
            sessions[k] = s = redo
        seen.update(t.instruction for t in s.turns)
    return sessions


def assign_splits(sessions: list[Session]) -> dict[str, list[Session]]:
    """dev and test as planned (each from its own documents)."""
    return {split: [s for s in sessions if s.split == split] for split in ("dev", "test")}


def held_out_flags(dev: list[dict], test: list[dict]) -> list[bool]:
    """Per test record, whether it is in test's held-out part: it uses a template or a phrasing dev never contains,
    and none of its clauses is word for word a clause of dev (test's documents are never dev's)."""
    from autodw.dwbench.leakage import verbatim_clauses

    banned = set(held_out_templates())
    dev_phrasings = {p for r in dev for p in r["phrasings"]}
    dev_clauses = {c for r in dev for c in verbatim_clauses(r)}
    return [(bool(banned & set(r["templates"])) or any(p not in dev_phrasings for p in r["phrasings"]))
            and not dev_clauses.intersection(verbatim_clauses(r)) for r in test]


def mark_held_out() -> int:
    """Set ``held_out`` on the templated track's test records (and mini's, the same turns); returns how many are."""
    folder = DATA_DIR / "templated"
    dev = [r for p in sorted(folder.glob("dev-[0-9]*.jsonl")) for r in map(json.loads, p.read_text(encoding="utf-8").splitlines())]
    flags: dict[tuple[str, int], bool] = {}
    for name in ("test", "mini"):
        for path in sorted(folder.glob(f"{name}-[0-9]*.jsonl")):
            recs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
            marks = held_out_flags(dev, recs) if name == "test" else [flags[(r["session_id"], r["turn"])] for r in recs]
            for r, flag in zip(recs, marks):
                r["held_out"] = flag
                flags[(r["session_id"], r["turn"])] = flag
            path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in recs) + "\n", encoding="utf-8")
    return sum(1 for (sid, _), f in flags.items() if f)


def write(splits: dict[str, list[Session]]) -> None:
    """The JSONL shards of the templated track (``data/templated/{split}-NN.jsonl``), replacing the old ones."""
    reg = registry()
    folder = DATA_DIR / "templated"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.jsonl"):
        if not any(old.name.startswith(f"{t}-") for t in TUNING_SPLITS):  # tuning splits are made on their own
            old.unlink()
    for split, sessions in splits.items():
        records.write_shards(folder, split, [session_records(s, split, reg) for s in sessions])
    HELD_OUT_FILE.write_text(json.dumps({
        "about": "What test holds out of dev: these templates never occur in dev, nor the last phrasing of any list of "
                 "three or more phrasings (context.HELD_OUT_FROM); a test instruction using a template or phrasing dev "
                 "never contains, with no clause that is word for word a dev clause, is in test's held-out part "
                 "(held_out: true; generate.held_out_flags).",
        "templates": held_out_templates()}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def session_records(s: Session, split: str, reg=None) -> list[dict]:
    """The JSON records of one written session in `split`."""
    reg = reg or registry()
    out = []
    for n, t in enumerate(s.turns, 1):
        rec = instruction_record(
            session_id=s.session_id, turn=n, instruction=t.instruction, language=s.language,
            doc_language=s.doc_language, doc_kind=s.doc_kind, source=s.source,
            calls=[(c.api, c.args) for c in t.calls], intents=[reg.get(c.api).intent for c in t.calls],
            free_text=t.free_text, split=split, templates=t.edits)
        rec.update(track="templated", written_by="template", requests=len(t.clauses), tags=[], ambiguous=None,
                   accept=None, held_out=False, clauses=t.clauses,
                   phrasings=[p.removesuffix("/held-out") for p in t.phrasings])
        out.append(rec)
    return out


def write_tuning(split: str, sessions: list[Session]) -> None:
    """The shards of a templated tuning split (``data/templated/{split}-NN.jsonl``), replacing only that split's."""
    if split not in TUNING_SPLITS:
        raise ValueError(f"{split!r} is not a templated tuning split; choose one of {', '.join(TUNING_SPLITS)}")
    folder = DATA_DIR / "templated"
    for old in folder.glob(f"{split}-[0-9]*.jsonl"):
        old.unlink()
    reg = registry()
    records.write_shards(folder, split, [session_records(s, split, reg) for s in sessions])


def choose_subset(sessions: list[Session], seed: int, per_language: int, turns: tuple[int, int], tries: int = 20000) -> list[Session]:
    """A fixed stratified subset: `per_language` sessions of each language, `turns` instructions in all, a corpus
    session, every difficulty and every intent."""
    from autodw.apis.registry import INTENTS

    reg = registry()
    rng = random.Random(seed)
    en = [s for s in sessions if s.language == "en"]
    zh = [s for s in sessions if s.language == "zh"]
    for _ in range(tries):
        pick = rng.sample(en, per_language) + rng.sample(zh, per_language)
        n = sum(len(s.turns) for s in pick)
        if not turns[0] <= n <= turns[1] or not any(s.source["kind"] == "corpus" for s in pick):
            continue
        diffs = {difficulty_of(len(t.calls)) for s in pick for t in s.turns}
        intents = {reg.get(c.api).intent for s in pick for t in s.turns for c in t.calls}
        if diffs == {"easy", "medium", "hard"} and set(INTENTS) <= intents:
            return sorted(pick, key=lambda s: s.session_id)
    raise RuntimeError("no subset satisfies the constraints")


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Write DWBench's templated track (dev, test and their subsets), or "
                                                 "with --tuning-split one templated tuning split beside them.")
    parser.add_argument("n", nargs="?", type=int, default=None, help=f"sessions (default {N_SESSIONS})")
    parser.add_argument("workers_pos", nargs="?", type=int, default=None, metavar="workers")
    parser.add_argument("--tuning-split", choices=TUNING_SPLITS, default=None,
                        help="write only this tuning split, from dev's templates (and, for a split of TUNING_ONLY_SPLITS, "
                             "its tuning-only ones) on the tuning documents")
    parser.add_argument("--seed", type=int, default=None, help="required with --tuning-split: a seed of its own")
    parser.add_argument("--sessions", type=int, default=None, help="sessions (same as n)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default 3)")
    args = parser.parse_args(argv)
    n = args.sessions or args.n or N_SESSIONS
    workers = args.workers or args.workers_pos or 3
    if args.tuning_split:
        if args.seed is None:
            parser.error("--tuning-split takes --seed (a seed other than the benchmark's)")
        sessions = generate(workers=workers, plans=make_tuning_plans(args.tuning_split, args.seed, n))
        write_tuning(args.tuning_split, sessions)
        _log(f"wrote {args.tuning_split}: {len(sessions)} sessions, {sum(len(s.turns) for s in sessions)} instructions")
        return
    if args.seed is not None and args.seed != SEED:
        parser.error(f"the benchmark is written with seed {SEED}; another seed only makes a tuning split")
    sessions = generate(n_sessions=n, workers=workers)
    splits = assign_splits(sessions)
    splits["mini"] = choose_subset(splits["test"], SEED + 2, 4, (45, 60))
    splits["dev-mini"] = choose_subset(splits["dev"], SEED + 3, 2, (20, 32))
    write(splits)
    _log(f"wrote {len(sessions)} sessions: " + ", ".join(f"{k} {len(v)}" for k, v in splits.items())
         + f"; {mark_held_out()} test instructions held out")


if __name__ == "__main__":
    main()
