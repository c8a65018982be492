"""How often the planner's document view shows the element a request names, on long documents that no test session
starts from (no model; no DWBench session or split is read).

    python scripts/pointing_recall.py [--profile hosted] [--profile local] [--doc NAME] [--missed] [--limit N]

Documents: the dev documents of ``dwbench/data/document_splits.json`` (corpus and generated) and the corpus files in
neither split, less any whose text overlaps a test document's (the same first 1,000 characters of body text, or a
word-set Jaccard above 0.5: test documents are read for this exclusion only, and nothing of them is printed), kept
when they have at least :data:`MIN_PARAGRAPHS` non-empty body paragraphs. Test documents are refused by name.

Requests: for targets in each document's second half (the last table, the final paragraph...), requests that name
them as people do, a few phrasings per kind (:data:`KINDS`), written before the view's code was read: by a heading's
words, the first or last paragraph of a heading's section, a paragraph's rare words, a quoted phrase, a table by a
header cell or its caption, a row by its first cell, positions (the last table, the final paragraph, the
second-to-last item of the list under a heading) and a follow-up with a pronoun after a quoting request.

For each request and profile the planner's prompt is built as the agent builds it at a request's first step
(:func:`autodw.agent.parts.planner_view` of the profile's assembly, the message split as the profile splits it,
:func:`autodw.agent.prompts.messages`), read back as the ceiling reads it
(:func:`autodw.eval.ceiling.reading.fields`), and the target counts as shown when
:func:`~autodw.eval.ceiling.reading.shown_ids` of its state and history holds its id (a row also when a line names it
by its index, "row r18 (index 18) of t5": a call on the row can name it so). Reported per kind and profile: recall,
and the median planner prompt (characters) and document view (estimated tokens).

Tuned on these documents with these requests, no benchmark split (autodw/core/provenance.json): the last paragraph
with text (pointing.end_blocks; docx2python__libreoffice_conversion), "the final table" and headings named without
their filler words (grounding; docx4j__Docx4j_GettingStarted, docx4j__headers_footers, oxsdk__632399964516872542_1),
words of every alphabetic script (distinctive; docx4j__Docx4j_Russian, poi__bug65649). Targets shown, 488 requests
over 28 documents: hosted 381 -> 465 (78.1% -> 95.3%), local 359 -> 445 (73.6% -> 91.2%); the hosted planner prompt's
median 26,512 -> 26,539 characters (d31cea2 -> 9ef21ab). Then (b3d34f4 -> 093e5a6): blocks holding the most of a
request's words when each word is in many (distinctive), the tables a request names by words before "table" in any
script or by a header cell it says whole (pointing, grounding), a heading named without its determiners ("Other")
and a named section's end before the document's (grounding, pointing): hosted 465 -> 480 (95.3% -> 98.4%), local
451 -> 471 (92.4% -> 96.5%); planner prompt medians hosted 26,564 -> 26,575, local 9,575 -> 9,584 characters.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from autodw.agent import prompts, requests
from autodw.agent.assembly import PROFILES
from autodw.agent.parts import planner_view
from autodw.agent.records import InstructionResult
from autodw.agent.views import session_context
from autodw.analysis.state import extract_state
from autodw.analysis.state.render import estimate_tokens
from autodw.core.document import WordDocument
from autodw.dwbench import outside
from autodw.eval.ceiling.reading import fields, shown_ids

ROOT = Path(__file__).resolve().parents[1]
SPLITS = ROOT / "dwbench/data/document_splits.json"
GENERATED = ROOT / "dwbench/data/docs"
MIN_PARAGRAPHS = 60  # non-empty body paragraphs of a long document
PER_KIND = 3  # targets per kind and document

STOP = set("""a an the and or of to in on for with by at from as is are was were be been this that these those it its
which who whom what when where why how all any each other such no not only own same so than too very can will just
should now shall may must our their your his her they we you he she them us i me my do does did have has had into
over under after before between about above below up down out off again further then once here there more most some
""".split())

# --- phrasings (written before the view's code was read) -------------------------------------------------------------

HEADING = ["In the section on {w}, make the heading bold.", "Center the heading about {w}.",
           "Rename the {w} heading to 'Overview'."]
SECTION_FIRST = ["In the section on {w}, make the first paragraph italic.",
                 "Under {w}, indent the opening paragraph by 1 cm.",
                 "The first paragraph of the {w} section should be justified."]
SECTION_LAST = ["In the section on {w}, delete the last paragraph.", "Make the final paragraph of the {w} section bold.",
                "Add a sentence 'See the appendix.' to the end of the last paragraph under {w}."]
ABOUT = ["Make the paragraph about {w} bold.", "Delete the paragraph that talks about {w}.",
         "Highlight the bit mentioning {w} in yellow."]
QUOTE = ['Italicize the sentence "{q}".', 'Add a comment on "{q}" saying "check this".', 'Underline the words "{q}".']
TABLE_HEADER = ["In the table with the '{c}' column, bold the header row.",
                "Add a row to the table whose columns include {c}.", "Make the borders of the {c} table thicker."]
CAPTION = ["Center the table captioned '{c}'.", "Add a row at the end of the table under '{c}'.",
           "Make the '{c}' table's first row bold."]
ROW = ["Delete the row for {c}.", "Make the {c} row bold.", "Highlight the row starting with {c} in yellow."]
LAST_TABLE = ["Delete the last table.", "Make the final table's header row bold.", "Add a row at the end of the last table."]
FINAL_PARAGRAPH = ["Make the final paragraph italic.", "Delete the last paragraph.",
                   "Right-align the closing paragraph of the document."]
LIST_ITEM = [("Make the second-to-last bullet of the list under {w} bold.", -2),
             ("In the {w} section, delete the last item of the list.", -1),
             ("Italicize the penultimate list item under {w}.", -2)]
FOLLOW_FIRST = ['Make the paragraph that says "{q}" bold.', 'Find the sentence "{q}" and underline it.',
                'Highlight "{q}" in yellow.']
FOLLOW_UP = ["Now make it italic too.", "Also change its font to Arial.", "And center that paragraph as well."]


@dataclass(frozen=True)
class Request:
    """A request naming `target` (an element id) of a document; `previous`: the session's instruction before it."""

    doc: str
    kind: str
    text: str
    target: str
    previous: str = ""
    row: tuple[str, int] | None = None  # (table id, row index) of a row: a line naming it shows it too


# --- documents ------------------------------------------------------------------------------------------------------


def documents(only: str | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
    """(name, state) of the long documents no test session starts from (see the module's docstring)."""
    splits = json.loads(SPLITS.read_text())
    if only is not None and only in set(splits["test"]["corpus"]) | set(splits["test"]["generated"]):
        raise SystemExit(f"{only} is a test document: refused")
    paths = [GENERATED / n for n in sorted(splits["dev"]["generated"]) if only is None or n == only]
    generated = ((p, extract_state(WordDocument.open(p))) for p in paths)
    for path, state in [*generated, *outside.corpus_documents(MIN_PARAGRAPHS, only=only)]:
        if outside.non_empty_paragraphs(state) >= MIN_PARAGRAPHS:
            yield path.name, state


# --- targets and requests -------------------------------------------------------------------------------------------


def _content(text: str) -> list[str]:
    return [w for w in re.findall(r"[^\W\d_][\w'-]*", text) if w.lower() not in STOP]


def _is_heading(p: dict[str, Any]) -> bool:
    return bool(re.search(r"heading\s*\d|^title$", p.get("style") or "", re.IGNORECASE)) and bool(p["text"].strip())


def _sections(paras: list[dict[str, Any]]) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Each heading and the non-empty paragraphs up to the next heading."""
    out: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    for p in paras:
        if _is_heading(p):
            out.append((p, []))
        elif out and p["text"].strip():
            out[-1][1].append(p)
    return out


def _heading_words(text: str) -> str:
    words = _content(re.sub(r"^[\d.\s]+", "", text))
    return " ".join(words[:6]).lower()


def _pick(rng: random.Random, items: list[Any]) -> list[Any]:
    return rng.sample(items, min(PER_KIND, len(items)))


def requests_of(name: str, state: dict[str, Any]) -> list[Request]:
    """The requests of a document: up to :data:`PER_KIND` targets per kind in its second half."""
    rng = random.Random(name)
    paras = state["paragraphs"]
    half = len(paras) // 2
    late = [p for p in paras if p["index"] >= half and p["text"].strip()]
    out: list[Request] = []

    def add(kind: str, phrasings: list[str], target: str, n: int, previous: str = "", **values: str) -> None:
        out.append(Request(name, kind, phrasings[n % len(phrasings)].format(**values), target, previous))

    sections = [(h, body) for h, body in _sections(paras) if h["index"] >= half]
    words_of = {h["id"]: _heading_words(h["text"]) for h, _ in sections}
    seen = Counter(_heading_words(p["text"]) for p in paras if _is_heading(p))
    named = [(h, body) for h, body in sections if len(words_of[h["id"]]) >= 3 and seen[words_of[h["id"]]] == 1]
    for n, (h, body) in enumerate(_pick(rng, named)):
        add("heading", HEADING, h["id"], n, w=words_of[h["id"]])
    for n, (h, body) in enumerate(_pick(rng, [s for s in named if s[1]])):
        add("section first", SECTION_FIRST, body[0]["id"], n, w=words_of[h["id"]])
    for n, (h, body) in enumerate(_pick(rng, [s for s in named if len(s[1]) >= 2])):
        add("section last", SECTION_LAST, body[-1]["id"], n, w=words_of[h["id"]])
    with_list = []
    for h, body in named:
        run = [p for p in body if p.get("list")]
        if len(run) >= 3:
            with_list.append((h, run))
    for n, (h, run) in enumerate(_pick(rng, with_list)):
        phrasing, at = LIST_ITEM[n % len(LIST_ITEM)]
        out.append(Request(name, "list item", phrasing.format(w=words_of[h["id"]]), run[at]["id"]))

    frequency = Counter(w for p in paras for w in set(x.lower() for x in _content(p["text"])))
    long_paras = [p for p in late if len(p["text"].split()) >= 12 and not _is_heading(p)]
    for n, p in enumerate(_pick(rng, long_paras)):
        rare = sorted({w.lower() for w in _content(p["text"]) if len(w) >= 5}, key=lambda w: (frequency[w], w))[:3]
        if len(rare) == 3:
            order = sorted(rare, key=lambda w: p["text"].lower().find(w))
            add("about words", ABOUT, p["id"], n, w=f"{order[0]}, {order[1]} and {order[2]}")
    texts = "\n".join(p["text"] for p in paras)
    quotable = []
    for p in long_paras:
        words = p["text"].split()
        start = len(words) // 3
        phrase = " ".join(words[start:start + 5]).strip(" ,.;:")
        if len(phrase) >= 15 and texts.count(phrase) == 1 and '"' not in phrase:
            quotable.append((p, phrase))
    for n, (p, phrase) in enumerate(_pick(rng, quotable)):
        add("quoted phrase", QUOTE, p["id"], n, q=phrase)
    for n, (p, phrase) in enumerate(_pick(rng, quotable)):
        first = FOLLOW_FIRST[n % len(FOLLOW_FIRST)].format(q=phrase)
        add("pronoun follow-up", FOLLOW_UP, p["id"], n, previous=first)

    tables = state["tables"]
    at = {p["id"]: p["index"] for p in paras}
    late_tables = [t for t in tables if at.get(t.get("after_paragraph"), -1) >= half] or tables[len(tables) // 2:]
    headers = Counter(c.strip() for t in tables if t.get("cells") for c in t["cells"][0])
    header_named = []
    for t in late_tables:
        cells = [c.strip() for c in (t.get("cells") or [[]])[0]
                 if 3 <= len(c.strip()) <= 30 and headers[c.strip()] == 1 and not re.fullmatch(r"[\d.,%\s-]+", c.strip())]
        if cells:
            header_named.append((t, cells[0]))
    for n, (t, cell) in enumerate(_pick(rng, header_named)):
        add("table by header", TABLE_HEADER, t["id"], n, c=cell)
    by_id = {p["id"]: p for p in paras}
    captioned = []
    for t in late_tables:
        before = by_id.get(t.get("after_paragraph") or "")
        if before and (re.match(r"(?:table|tab\.)\s*\d", before["text"].strip(), re.IGNORECASE)
                       or "caption" in (before.get("style") or "").lower()) and len(before["text"]) <= 120:
            captioned.append((t, before["text"].strip()))
    for n, (t, caption) in enumerate(_pick(rng, captioned)):
        add("table by caption", CAPTION, t["id"], n, c=caption)
    firsts = Counter(row[0].strip() for t in tables for row in (t.get("cells") or []) if row)
    rows = []
    for t in late_tables:
        for r, row in enumerate((t.get("cells") or [])[1:], 1):
            cell = row[0].strip() if row else ""
            details = t.get("cell_details") or []
            if (3 <= len(cell) <= 40 and firsts[cell] == 1 and not re.fullmatch(r"[\d.,%\s-]+", cell)
                    and r < len(details) and details[r] and details[r][0].get("paragraphs")):
                rows.append((details[r][0]["paragraphs"][0]["id"], cell, (t["id"], r)))
    for n, (pid, cell, row) in enumerate(_pick(rng, rows)):
        out.append(Request(name, "row by first cell", ROW[n % len(ROW)].format(c=cell), pid, row=row))
    if tables:
        for n in range(len(LAST_TABLE)):
            add("last table", LAST_TABLE, tables[-1]["id"], n)
    last = [p for p in paras if p["text"].strip()]
    if last:
        for n in range(len(FINAL_PARAGRAPH)):
            add("final paragraph", FINAL_PARAGRAPH, last[-1]["id"], n)
    return out


# --- the planner's view ---------------------------------------------------------------------------------------------


def planner_prompt(profile: str, state: dict[str, Any], request: Request) -> list[tuple[dict[str, str], int]]:
    """(the planner prompt's fields as the ceiling reads them, its size in characters) at the first step of each
    request the profile's agent makes of the message."""
    assembly = PROFILES[profile]()
    view = planner_view(assembly)
    texts = requests.split(request.text) if assembly.requests == "split" else [request.text]
    session = [InstructionResult(request.previous, status="done")] if request.previous else []
    record = InstructionResult(request.text)
    shared = view.for_message(lambda: state, request.text, record, request.previous) if len(texts) > 1 else None
    out = []
    for number, text in enumerate(texts, 1):
        context = "" if len(texts) == 1 else (
            f"The user's message makes {len(texts)} requests; this is request {number}: do it alone (the others are "
            f"done before or after it). The whole message: {request.text}\n\n")
        shown = view.for_step(state, text, record, shared, request.previous)
        messages = prompts.messages("planner", instruction=text, session_context=session_context(session) + context,
                                    history=view.history(record, state), state=shown)
        out.append((fields("planner", messages), sum(len(m["content"]) for m in messages)))
    return out


def _row_named(prompt: dict[str, str], table: str, row: int) -> bool:
    """Whether the prompt names row `row` of `table` by its index (a grounding line: "row r18 (index 18) of t5"), which
    a call on the row can use as the row's first cell's id."""
    return re.search(rf"\brow r{row} \(index {row}\) of {table}\b", prompt["state"]) is not None


@dataclass
class Tally:
    """Shown / all per kind, and the prompts' sizes."""

    shown: Counter
    total: Counter
    chars: list[int]
    tokens: list[int]
    missed: list[str]


def measure(profiles: list[str], only: str | None, limit: int | None,
            progress: Callable[[str], None]) -> dict[str, Tally]:
    tallies = {p: Tally(Counter(), Counter(), [], [], []) for p in profiles}
    for k, (name, state) in enumerate(documents(only)):
        if limit is not None and k >= limit:
            break
        reqs = requests_of(name, state)
        progress(f"{name}: {len(state['paragraphs'])} paragraphs, {len(reqs)} requests")
        for request in reqs:
            for profile in profiles:
                prompts_ = planner_prompt(profile, state, request)
                ids = set().union(*(shown_ids(f["state"], f["history"]) for f, _ in prompts_))
                t = tallies[profile]
                t.total[request.kind] += 1
                t.chars += [size for _, size in prompts_]
                t.tokens += [estimate_tokens(f["state"]) for f, _ in prompts_]
                if request.target in ids or request.row and any(_row_named(f, *request.row) for f, _ in prompts_):
                    t.shown[request.kind] += 1
                else:
                    then = f" (after: {request.previous})" if request.previous else ""
                    t.missed.append(f"{request.kind}: {name} {request.target}: {request.text}{then}")
    return tallies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="append", choices=("hosted", "local"), help="repeatable; default both")
    parser.add_argument("--doc", help="one document (a file name)")
    parser.add_argument("--limit", type=int, help="the first N documents only")
    parser.add_argument("--missed", action="store_true", help="list the requests whose target is not shown")
    args = parser.parse_args(argv)
    profiles = args.profile or ["hosted", "local"]
    tallies = measure(profiles, args.doc, args.limit, lambda line: print(line, file=sys.stderr, flush=True))
    for profile, t in tallies.items():
        total = sum(t.total.values())
        print(f"== {profile}: {sum(t.shown.values())}/{total} targets shown "
              f"({100 * sum(t.shown.values()) / max(total, 1):.1f}%); planner prompt median "
              f"{statistics.median(t.chars or [0]):.0f} chars, view median {statistics.median(t.tokens or [0]):.0f} "
              f"tokens")
        for kind in sorted(t.total):
            print(f"  {kind:20s} {t.shown[kind]:4d}/{t.total[kind]:<4d} {100 * t.shown[kind] / t.total[kind]:5.1f}%")
        if args.missed:
            print("\n".join("  MISSED " + m for m in t.missed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
