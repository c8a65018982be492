"""Compact text rendering of a state for LLM prompts, within a token budget.

Over budget, the body is windowed: the focus ids (in their order of priority) are kept, each at least as a short
line (its text cut, saying how much) and then whole as the budget allows, then headings, the first and last blocks and
the blocks around the focus; every omitted stretch is replaced by a line that says what was left out. The header and
footer lines are cut to their shares of the budget, the lines of the parts asked for (`parts`) kept first. Nothing is
cut silently.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import AbstractSet, Any, Callable, Iterable

from autodw.analysis.state.effective import Formatting
from autodw.analysis.state.types import State

TokenCounter = Callable[[str], int]

MAX_PARAGRAPH_CHARS = 400
MAX_TABLE_ROWS = 8
MAX_CELL_CHARS = 40
MAX_SHORT = 24  # focus blocks named first by a short line (the rest of the focus is shown whole as the budget allows)
SHORT_CHARS = 16  # text a focus block's short line keeps (it names the block; its whole line follows if it fits)
MAX_NAMED = 40  # ids a view names whatever its budget (a step's targets: the generator cannot write an id not shown)
TIGHT_CHARS = 10  # text a named block's tight line keeps (when the short lines of all named ones do not fit)
MAX_SHORT_CELLS = 8  # cells of a table's first row its short line shows
HEADINGS_SHARE = 0.5  # of the budget, spent up to which the headings nearest the focus are shown when not all fit
MAX_STORY_IDS = 6  # paragraph ids a header's or footer's line lists
MAX_HEADING_CHARS = 120  # characters of the lines of a custom style read as a heading by its look
MAX_LONG_HEADINGS = 0.1  # of those lines, the share that may be longer (a UN report's one long chapter title)
HEAD_SHARE = 0.25  # of the budget, the most the header lines (document, properties, sections, contents) may take
TAIL_SHARE = 0.15  # of the budget, the most the footer lines (images and charts, interactive parts, styles) may take
TARGET_LINE_SHARE = 0.5  # of the budget, up to which the footer takes more to show the target drawing's line whole
_HEADING_NAME = re.compile(r"(?:heading|标题)\s*(\d)", re.IGNORECASE)
#: a table of contents entry's style ("TOC 2", "目录 1"): its level
CONTENTS_STYLE = re.compile(r"^(?:toc|目录)\s*(\d)", re.IGNORECASE)
#: the parts of the header and footer lines `render_state` can keep first, by the words their lines start with
PARTS = ("PROPERTIES", "SECTION", "TABLE OF CONTENTS", "TABLE OF FIGURES", "IMAGES", "HYPERLINKS", "BOOKMARKS", "COMMENTS", "FOOTNOTES",
         "ENDNOTES", "TRACKED CHANGES", "PAGE BREAKS", "STYLES")


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate: ~4 characters per token for ASCII, 1 token per other character."""
    ascii_chars = len(text.encode("ascii", "ignore"))  # in C: a loop over the characters took seconds on long texts
    return ascii_chars // 4 + (len(text) - ascii_chars) + 1


def render_state(state: State, budget_tokens: int | None = None, focus: Iterable[str] = (),
                 count_tokens: TokenCounter = estimate_tokens, parts: Iterable[str] = (),
                 pointed: Iterable[str] = (), listed: Iterable[str] = (), styles: Iterable[str] = (),
                 named: Iterable[str] = ()) -> str:
    """The state as compact text; if over `budget_tokens`, body blocks windowed around `focus` ids, those and then
    the `pointed` ones (the window is not centred on them) shown first, the most wanted first, then the `listed` ones
    at least by their short lines; the `named` blocks (the first :data:`MAX_NAMED`) shown at least by their id and
    the start of their text, over the budget if need be; the header and footer lines of `parts` (:data:`PARTS`) and
    of the focus images kept first, the `styles` named first in the styles line (what of it a cut keeps)."""
    focus, pointed, parts, named = list(dict.fromkeys(focus)), list(pointed), tuple(parts), list(named)
    # a header's or footer's table rows cost every budgeted view; they are shown when the request names those parts
    head = _header(state, None if budget_tokens is None or "SECTION" in parts else set(focus) | set(pointed))
    # the whole rendering shows a box's paragraphs (a one-cell table: a sidebar, "Box 2: ...", is text in a frame)
    boxes = _box_paragraphs(state) if budget_tokens is None else set()
    # the cut cells shown whole: the focus ones, and those pointed at inside a row, not with it (a row pointed at whole,
    # the last one of a table whose next lines a request means, is its row line: dwh-317#8)
    blocks = _blocks(state, cells=set(focus) | set(pointed) | boxes,
                     cut=set(focus) | boxes | _inside_rows(state, set(pointed)))
    tail = _footer(state, tuple(styles))
    if budget_tokens is None:
        chosen = dict.fromkeys(range(len(blocks)), True)
    else:  # the header and footer may take at most 40% of the budget (more for the target chart's line); the body the rest
        rank = _line_rank(parts, focus, named)
        head = _fit_lines(head, int(budget_tokens * HEAD_SHARE), count_tokens, "section/layout line(s)", rank)
        tail = _fit_lines(tail, _tail_share(tail, budget_tokens, count_tokens, rank), count_tokens,
                          "image/interactive/style line(s)", rank)
        fixed = "\n".join(head + tail)
        chosen = _choose(blocks, budget_tokens - count_tokens(fixed), focus, pointed, count_tokens, list(listed),
                         list(named))
        _fill_single_gaps(blocks, chosen, count_tokens)
    body = _with_elisions(blocks, chosen)
    title = "BODY (id #index [style, format] text)"
    if len(chosen) < len(blocks):
        title += f"; windowed to fit {budget_tokens} tokens: {len(blocks) - len(chosen)} of {len(blocks)} blocks omitted"
    cut = sum(1 for whole in chosen.values() if not whole)
    if cut:
        title += f"; {cut} shown cut short"
    return "\n".join(head + [title + ":"] + body + tail)


def _tail_share(tail: list[str], budget: int, count: TokenCounter, rank: Callable[[str], int]) -> int:
    """The footer's share of `budget`: :data:`TAIL_SHARE`, or what the target drawing's line and the title line above
    the drawings (rank -1) cost whole when that is more, up to :data:`TARGET_LINE_SHARE`: a chart whose data a step
    rewrites is copied from its line (dwh-482#1: a 350-token view cut the named chart's line before its second series;
    dwh-544#1: of the one chart a request describes)."""
    wanted = sum(count(line) for line in tail if rank(line) < 0)
    return max(int(budget * TAIL_SHARE), min(wanted, int(budget * TARGET_LINE_SHARE)))


def _line_rank(parts: tuple[str, ...], focus: Iterable[str], named: Iterable[str] = ()) -> Callable[[str], int]:
    """How much a header or footer line is wanted: -1, the line of the first focus image or chart `named` (a step's
    target, named by its id), or else of the only image or chart in focus (a request describing one drawing, "第一张水果的
    柱状图", dwh-544#1), and their title line; 0, another focus image's or chart's line (or their title line); 1, a
    line of one of `parts` (an image's line: of "IMAGES"); 2, any other."""
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise ValueError(f"unknown state part(s) {sorted(unknown)}; known: {', '.join(PARTS)}")
    wanted = set(focus)
    in_focus = [i for i in dict.fromkeys(focus) if _DRAWING_ID.fullmatch(i)]
    target = next((i for i in named if i in in_focus), in_focus[0] if len(in_focus) == 1 else None)
    drawings = "IMAGES" in parts or bool(in_focus)

    def rank(line: str) -> int:
        first = line.split(" ", 1)[0]
        if first in wanted or drawings and line.startswith("IMAGES AND CHARTS:"):
            return -1 if target is not None and (first == target or line.startswith("IMAGES AND CHARTS:")) else 0
        return 1 if line.startswith(parts) or "IMAGES" in parts and _DRAWING_ID.fullmatch(first) else 2
    return rank


_DRAWING_ID = re.compile(r"(?:img|chart|shape)[0-9]+")


def render_elements(state: State, ids: Iterable[str]) -> list[str]:
    """The rendered lines of the body blocks, images and charts with these ids (in document order), then those of the
    sections with a header or footer of their own holding one (a header just unlinked, a copy of the one before: its
    text is what the next step replaces, dwh-339#5)."""
    wanted = set(ids)
    lines = [b.text for b in _blocks(state) if b.id in wanted]
    lines += [line for line in _footer(state) if line.split(" ", 1)[0] in wanted]
    return lines + [_section_line(s, wanted) for s in state["page_layout"]["sections"] if _owns(s, wanted)]


def _owns(section: dict[str, Any], ids: AbstractSet[str]) -> bool:
    """Whether a header or footer of `section`'s own (not linked to the one before) holds a paragraph, picture or
    table of `ids`."""
    return any(not story.get("linked_to_previous") and ids & {*(story.get("paragraphs") or []),
                                                               *(story.get("images") or []),
                                                               *(t["id"] for t in story.get("table_details") or [])}
               for key in ("headers", "footers") for story in (section.get(key) or {}).values())


# --- sections of the rendering -------------------------------------------------------


def _header(state: State, story_cells: AbstractSet[str] | None = None) -> list[str]:
    """The document, properties, section and contents lines; a header's or footer's table shows its rows when
    `story_cells` is None or holds one of its cells' paragraphs (:func:`_story_tables`)."""
    info = state["document_info"]
    lines = [
        f"DOCUMENT: {info['paragraph_count']} paragraphs, {info['table_count']} tables, {info['section_count']} sections, "
        f"{info['image_count']} images, {info['chart_count']} charts, {info['comment_count']} comments; "
        f"header: {'yes' if info['has_header'] else 'no'}; footer: {'yes' if info['has_footer'] else 'no'}; "
        f"track changes: {'on' if info['track_changes'] else 'off'}"
        + (f"; protection: {info['protection']}" if info.get("protection") else ""),
    ]
    props = info.get("core_properties") or {}
    if props:
        lines.append("PROPERTIES: " + ", ".join(f"{k}={shortened(v, 60)!r}" for k, v in props.items() if k != "revision"))
    previous = None
    for s in state["page_layout"]["sections"]:
        line = _section_line(s, story_cells)
        body = line.split(": ", 1)[1]
        if body == previous:
            lines.append(f"  same as above: section {s['index']}")
            continue
        previous = body
        lines.append(line)
    toc = state["page_layout"].get("table_of_contents")
    if toc:
        lines.append(f"TABLE OF CONTENTS at {toc.get('paragraph')}" + (f", levels {toc['levels']}" if toc.get("levels") else "")
                     + f", {len(toc.get('entries', []))} entries")
    for tof in state["page_layout"].get("tables_of_figures", []):
        lines.append(f"TABLE OF FIGURES at {tof['paragraph']}" + (f" ({tof['label']} captions)" if tof["label"] else "")
                     + f", {len(tof['entries'])} entries")
    return lines


def _section_line(s: dict[str, Any], story_cells: AbstractSet[str] | None = None) -> str:
    m = {k: v for k, v in s.get("margins_cm", {}).items() if k in ("top", "bottom", "left", "right")}
    size = (f"{s.get('orientation', '?')} {s['page_width_cm']}x{s['page_height_cm']}cm"
            if s.get("page_width_cm") and s.get("page_height_cm") else "page size not set (the application's default)")
    parts = [f"SECTION {s['index']}: {size}",
             "margins " + (" ".join(f"{k[0].upper()}{v}" for k, v in m.items()) if m else "not set"),
             f"{s['columns']['count']} column(s)"]
    if s.get("start") != "nextPage":
        parts.append(f"starts {s.get('start')}")
    for key in ("headers", "footers"):
        for kind, story in s.get(key, {}).items():
            text = shortened(story.get("text", ""), 60)
            linked = " (linked)" if story.get("linked_to_previous") else ""
            parts.append(f"{key[:-1]}[{kind}]{linked}={text!r}{_story_ids(story)}"
                         + (" +page no." if story.get("page_number") else "") + _story_tables(story, story_cells))
    if s.get("watermark"):
        parts.append(f"watermark={s['watermark']!r}")
    if s.get("page_numbering"):
        parts.append(f"numbering {s['page_numbering']}")
    return "; ".join(parts)


def _story_tables(story: dict[str, Any], cells: AbstractSet[str] | None = None) -> str:
    """The tables of a header or footer, each row's cells with their paragraph ids (a header's boxes, "the revised
    date in the header box", are named nowhere else): " with table t1 2x2: r0 (cells p3, p4): | Title | Date |"; only
    " with table t1 2x2" unless `cells` is None or holds a paragraph of the table's."""
    out = []
    for t in story.get("table_details") or []:
        line = f" with table {t['id']} {t.get('rows')}x{t.get('cols')}"
        if cells is None or any(cells & cell_ids(row) for row in t.get("cell_details") or []):
            line += ": " + " ".join(_row_line(t, n) for n in range(min(len(t.get("cells", [])), MAX_TABLE_ROWS)))
        out.append(line)
    return "".join(out)


def _story_ids(story: dict[str, Any]) -> str:
    """The ids of a header's or footer's paragraphs in order, so that its text can be formatted by paragraph (shown
    nowhere else): " (p666, p667)"; the first :data:`MAX_STORY_IDS` of a longer story."""
    ids = [i for i in story.get("paragraphs") or [] if i]
    if not ids:
        return ""
    more = f", +{len(ids) - MAX_STORY_IDS} more" if len(ids) > MAX_STORY_IDS else ""
    return f" ({', '.join(ids[:MAX_STORY_IDS])}{more})"


def _footer(state: State, first_styles: tuple[str, ...] = ()) -> list[str]:
    """The lines after the body: images and charts, the interactive parts, the styles (`first_styles` first)."""
    lines = []
    for img in state["images"]:
        desc = f"{img.get('id')} {img.get('type')} in {img.get('paragraph')} ({img.get('placement')}"
        if img.get("width_cm"):
            desc += f", {img['width_cm']}x{img['height_cm']}cm"
        if img.get("wrap"):
            desc += f", wrap {img['wrap']}"
        desc += ")"
        if img.get("alt_text"):
            desc += f" alt={shortened(img['alt_text'], 50)!r}"
        if img.get("type") == "chart":
            desc += (f" {img.get('chart_type')} chart title={img.get('title')!r} categories={img.get('categories')} "
                     f"series={[(s['name'], s['values']) for s in img.get('series', [])]}")
        lines.append(desc)
    if lines:
        lines.insert(0, "IMAGES AND CHARTS:")
    inter = state["interactive"]
    for key, fmt in (("hyperlinks", lambda h: f"{h['paragraph']} {h['text']!r} -> {h.get('url') or '#' + str(h.get('anchor'))}"),
                     ("bookmarks", lambda b: f"{b['name']} in {b['paragraph']}"),
                     ("comments", lambda c: f"#{c['id']} by {c.get('author')} on {','.join(c['paragraphs']) or '?'}: {shortened(c['text'], 80)!r}"),
                     ("footnotes", lambda n: f"#{n['id']} in {n['paragraph']}: {shortened(n['text'], 80)!r}"),
                     ("endnotes", lambda n: f"#{n['id']} in {n['paragraph']}: {shortened(n['text'], 80)!r}"),
                     ("tracked_changes", lambda t: f"{t['type']} by {t.get('author')} in {t['paragraph']}: {shortened(t['text'], 40)!r}"),
                     ("page_breaks", lambda b: f"in {b['paragraph']}")):
        items = [b for b in inter[key] if not b.get("hidden")]
        if items:
            shown = "; ".join(fmt(i) for i in items[:12]) + (f"; ... {len(items) - 12} more" if len(items) > 12 else "")
            lines.append(f"{key.upper().replace('_', ' ')}: {shown}")
    styles = state["styles"]
    parts = []
    for s in sorted(styles["styles"], key=lambda s: s["name"] not in first_styles):
        attrs = [str(v) for v in (_named(s.get("font")), f"{s['size_pt']}pt" if s.get("size_pt") else None,
                                  "bold" if s.get("bold") else None, "italic" if s.get("italic") else None,
                                  f"color={s['color']}" if s.get("color") else None) if v]
        parts.append(f"{s['name']}({s['category'][0]}{': ' + ' '.join(attrs) if attrs else ''})")
    d = styles["defaults"]
    lines.append(f"STYLES IN USE (default font {d.get('font') or '(theme)'} {d.get('size_pt') or '?'}pt"
                 + (f", East Asian {d['east_asia_font']}" if d.get("east_asia_font") else "") + "): " + ", ".join(parts))
    return lines


def body_blocks(state: State) -> list[tuple[dict[str, Any], bool]]:
    """(element, is_table) per body block in the order the rendering shows them: each top-level table after its
    paragraph."""
    tables_after: dict[str | None, list[dict]] = {}
    for t in state["tables"]:
        if "nested_in" not in t:
            tables_after.setdefault(t.get("after_paragraph"), []).append(t)
    out = [(t, True) for t in tables_after.get(None, [])]
    for p in state["paragraphs"]:
        out.append((p, False))
        out.extend((t, True) for t in tables_after.get(p["id"], []))
    return out


@dataclass
class _Block:
    """A body block as the rendering shows it: whole (`text`) or, when windowed, by a short line."""

    id: str
    heading: bool
    text: str
    element: dict[str, Any]
    is_table: bool

    @cached_property
    def short(self) -> str:
        """The block's short line (made only for a windowed view)."""
        if self.is_table:
            return _table_short(self.element)
        return _paragraph_text(self.element, SHORT_CHARS, formats=False)

    @cached_property
    def tight(self) -> str:
        """The block's tightest line: its id and the start of its text (a table's head line)."""
        if self.is_table:
            return _table_head(self.element)
        return f"{self.id} {shortened(self.element.get('text', '').replace(chr(10), ' '), TIGHT_CHARS)}"

    def line(self, whole: bool | None) -> str:
        """The block as shown: whole (True), by its short line (False) or by its tight one (None)."""
        return self.text if whole else self.short if whole is False else self.tight


def heading_level(style: str | None, custom: dict[str, int] | None = None) -> int | None:
    """The heading level of a paragraph style by its name ("Heading 2", "标题 1"; 0 for "Title"), else its level in
    `custom` (:func:`custom_headings`), or None."""
    match = _HEADING_NAME.search(style or "")
    if match:
        return int(match.group(1))
    return 0 if (style or "").casefold() == "title" else (custom or {}).get(style or "")


def custom_headings(state: State) -> dict[str, int]:
    """The custom paragraph styles that are headings though not named so, with their levels: one based on a heading
    style (that style's level); one whose paragraphs the table of contents links to (:func:`contents_linked`); and in
    a document using no heading style, those that look like Word's headings, bold and kept with the next paragraph,
    on lines of at most :data:`MAX_HEADING_CHARS` (but for a share of :data:`MAX_LONG_HEADINGS`: "_ H_1" of a UN
    report with one title of 165 characters) ("_ H _Ch_GA" of a UN document), the larger font the higher (1 the
    largest)."""
    styles = {"defaults": {}, "styles": [], **(state.get("styles") or {})}
    custom = [s["name"] for s in styles["styles"] if s.get("custom") and s.get("category") == "paragraph"
              and heading_level(s["name"]) is None]
    if not custom:
        return {}
    based_on = {s["name"]: s.get("based_on") for s in styles["styles"]}
    out = {}
    for name in custom:
        base, seen = based_on.get(name), {name}
        while base and base not in seen and heading_level(base) is None:
            seen.add(base)
            base = based_on.get(base)
        if base and heading_level(base) is not None:
            out[name] = heading_level(base)
    out = {**contents_linked(state, set(custom) - set(out)), **out}
    lines: dict[str, list[str]] = {}
    for p in state.get("paragraphs", []):
        if p.get("text", "").strip():
            lines.setdefault(p.get("style") or "", []).append(p["text"].strip())
    if any(heading_level(style, out) is not None for style in lines):
        return out
    looks, sizes = Formatting(styles), {}
    for name in custom:
        look = looks.style(name)
        if name in lines and look.get("bold") and look.get("keep_with_next") \
                and sum(len(line) > MAX_HEADING_CHARS for line in lines[name]) <= MAX_LONG_HEADINGS * len(lines[name]):
            sizes[name] = look.get("size_pt") or 0
    ranks = sorted(set(sizes.values()), reverse=True)
    return {**out, **{name: ranks.index(size) + 1 for name, size in sizes.items()}}


def contents_linked(state: State, names: AbstractSet[str]) -> dict[str, int]:
    """The styles of `names` at least half of whose paragraphs with text the table of contents' entries ("TOC n") link
    to, by a hyperlink to a bookmark in them, each at the level of most of those entries: a book's custom heading styles
    (dwh-275#7's "تیتر اول", neither bold nor kept with the next paragraph by its definition)."""
    paras = state.get("paragraphs", [])
    inter = state.get("interactive") or {}
    levels = {p["id"]: int(m.group(1)) for p in paras if (m := CONTENTS_STYLE.match(p.get("style") or ""))}
    if not levels or not names:
        return {}
    marks = {b["name"]: b["paragraph"] for b in inter.get("bookmarks", []) if b.get("name") and b.get("paragraph")}
    styles = {p["id"]: p.get("style") or "" for p in paras}
    linked: dict[str, dict[str, int]] = {}  # style -> target paragraph -> its entry's level
    for link in inter.get("hyperlinks", []):
        target = marks.get(link.get("anchor") or "")
        if link.get("paragraph") in levels and target and styles.get(target) in names:
            linked.setdefault(styles[target], {})[target] = levels[link["paragraph"]]
    out = {}
    for name, targets in linked.items():
        texts = sum(1 for p in paras if p.get("style") == name and p.get("text", "").strip())
        if 2 * len(targets) >= texts:
            found = list(targets.values())
            out[name] = max(set(found), key=lambda level: (found.count(level), -level))
    return out


def boxes(state: State) -> list[list[dict[str, Any]]]:
    """The paragraphs of each of the body's one-cell tables (boxes: text in a frame, a sidebar, "Box 2: ..."), in
    order."""
    return [[p for row in t.get("cell_details") or [] for c in row if c for p in c.get("paragraphs") or []]
            for t in state.get("tables", []) if "nested_in" not in t and t.get("rows") == t.get("cols") == 1]


def _box_paragraphs(state: State) -> set[str]:
    """The paragraph ids of the body's boxes (:func:`boxes`)."""
    return {p["id"] for box in boxes(state) for p in box if p.get("id")}


def _inside_rows(state: State, ids: AbstractSet[str]) -> set[str]:
    """The paragraphs of `ids` in the table rows that hold others too (a row `ids` holds whole is pointed at as a row)."""
    out: set[str] = set()
    for t in state.get("tables", []) if ids else ():
        for row in t.get("cell_details") or []:
            held = cell_ids(row)
            if held & ids and not held <= ids:
                out |= held & ids
    return out


def _blocks(state: State, cells: AbstractSet[str] = frozenset(), cut: AbstractSet[str] | None = None) -> list[_Block]:
    """The body blocks (:func:`body_blocks`) rendered whole (a table's rows past the first :data:`MAX_TABLE_ROWS`
    shown too when they hold a paragraph of `cells`, and the paragraphs of `cut`, by default `cells`, its row lines
    cut: :func:`_cut_cells`), the headings (by name, or :func:`custom_headings`) marked."""
    out = []
    custom = custom_headings(state)
    for el, is_table in body_blocks(state):
        if is_table:
            out.append(_Block(el["id"], False, _table_text(el, cells=cells, cut=cut), el, True))
        else:
            style = el.get("style") or ""
            heading = style.lower().startswith(("heading", "title")) or style in custom
            out.append(_Block(el["id"], heading, _paragraph_text(el), el, False))
    return out


def _paragraph_text(p: dict[str, Any], max_chars: int = MAX_PARAGRAPH_CHARS, formats: bool = True) -> str:
    attrs = [p.get("style") or "Normal"]
    if p.get("alignment"):
        attrs.append(p["alignment"])
    if p.get("list"):
        lst = p["list"]
        attrs.append(f"{lst.get('kind', 'list')} L{lst.get('level', 0)}")
    if p.get("content_control"):
        attrs.append(f"in {p['content_control']!r}")
    if p.get("frame"):
        attrs.append("frame")
    text = p["text"].replace("\n", "\\n")
    if len(text) > max_chars:
        text = text[:max_chars] + f"…(+{len(text) - max_chars} chars)"
    index = f" #{p['index']}" if "index" in p else ""  # a table cell's paragraph has no body index
    line = f"{p['id']}{index} [{', '.join(attrs)}] {text}"
    fmt = _run_summary(p.get("runs", [])) if formats else ""
    if fmt:
        line += f"  ⟨{fmt}⟩"
    if p.get("images"):
        line += f"  ⟨images: {', '.join(str(i) for i in p['images'])}⟩"
    if p.get("objects"):
        counts = Counter(p["objects"])
        line += f"  ⟨objects: {', '.join(o + (f' x{n}' if n > 1 else '') for o, n in counts.items())}⟩"
    return line


def shows_something(p: dict[str, Any]) -> bool:
    """Whether a paragraph shows something: text, a drawing, an embedded object or control, or a frame (an empty
    paragraph is none of these)."""
    return bool(p.get("text", "").strip() or p.get("images") or p.get("objects") or p.get("frame"))


def _named(font: Any) -> Any:
    """A font named in the document; None for a theme font ("theme:majorHAnsi": the prompt does not show them)."""
    return None if isinstance(font, str) and font.startswith("theme:") else font


#: run formatting the prompt leaves out, as it did before the state had it: typographic effects no API sets
#: (the judge compares them)
_UNSHOWN_EFFECTS = frozenset(("char_spacing_pt", "position_pt", "scale_pct", "outline", "shadow", "emboss", "imprint"))


def _shown_runs(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The runs without :data:`_UNSHOWN_EFFECTS`, neighbours that then have one format joined (as reading joins runs)."""
    out: list[dict[str, Any]] = []
    for r in runs:
        shown = dict(r) if _UNSHOWN_EFFECTS.isdisjoint(r) else {k: v for k, v in r.items() if k not in _UNSHOWN_EFFECTS}
        last = out[-1] if out else None
        if last is not None and _JOIN_BLOCKERS.isdisjoint(last) and _JOIN_BLOCKERS.isdisjoint(shown) and \
                _same_but_text(last, shown):
            last["text"] += shown.get("text", "")
        else:
            out.append(shown)
    return out


_JOIN_BLOCKERS = frozenset(("image", "equation"))


def _same_but_text(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """`a` and `b` alike but for their "text" (without copying either)."""
    if len(a) - ("text" in a) != len(b) - ("text" in b):
        return False
    return all(k == "text" or (k in a and a[k] == v) for k, v in b.items())


def _run_summary(runs: list[dict[str, Any]]) -> str:
    formatted = []
    runs = _shown_runs(runs)
    for r in runs:
        fmt = {k: v for k, v in r.items() if k not in ("text", "image", "equation") and not (k == "font" and _named(v) is None)}
        if fmt and r.get("text", "").strip():
            formatted.append((r["text"], fmt))
    if not formatted:
        return ""
    if len(formatted) == len([r for r in runs if r.get("text", "").strip()]) and len({str(f) for _, f in formatted}) == 1:
        return "all: " + _fmt_text(formatted[0][1])
    parts = [f"{shortened(t, 25)!r}={_fmt_text(f)}" for t, f in formatted[:4]]
    if len(formatted) > 4:
        parts.append(f"+{len(formatted) - 4} more formatted runs")
    return "; ".join(parts)


def _fmt_text(fmt: dict[str, Any]) -> str:
    return ",".join(k if v is True else f"{k}={v}" for k, v in fmt.items())


def _table_text(t: dict[str, Any], rows: int = MAX_TABLE_ROWS, cells: AbstractSet[str] = frozenset(),
                cut: AbstractSet[str] | None = None) -> str:
    """A table's head line and its first `rows` rows, then the later rows holding a paragraph of `cells` ("the
    序号 row under each category" of a long table), each gap of rows left out said, and the paragraphs of `cut`
    (by default `cells`) the row lines cut."""
    head = _table_head(t) + (f" merged={t['merged']}" if t.get("merged") else "")
    details = t.get("cell_details") or []
    wanted = [n for n, row in enumerate(details) if n >= rows and cells & cell_ids(row)] if rows else []
    lines, after = [head], 0  # after: the first row not yet shown or said left out
    for n in [*range(min(rows, len(t["cells"]))), *wanted]:
        if n > after:
            lines.append(f"  … {n - after} rows not shown")
        lines.append(f"  {_row_line(t, n)}")
        lines += [f"    {line}" for line in _cut_cells(t, n, cells if cut is None else cut)]
        after = n + 1
    if t["rows"] > after:
        lines.append(f"  … {t['rows'] - after} {'more ' if after else ''}rows not shown")
    return "\n".join(lines)


def _table_head(t: dict[str, Any]) -> str:
    """A table's head line but for its merged cells: id, index, size, style and header rows."""
    head = f"{t['id']} #{t['index']} TABLE {t['rows']}x{t['cols']}" + (f" style={t['style']!r}" if t.get("style") else "")
    return head + (f" header_rows={t['header_rows']}" if t.get("header_rows") else "")


def _table_short(t: dict[str, Any]) -> str:
    """A table's short line: its head line (its merged cells counted) and its first row's first
    :data:`MAX_SHORT_CELLS` cells cut to :data:`SHORT_CHARS` (what tells "the abbreviations table" from the others:
    "| Сокращение | Определение |")."""
    lines = [_table_head(t) + (f" (merged cells: {len(t['merged'])})" if t.get("merged") else "")]
    first = (t.get("cells") or [[]])[0]
    if first:
        cells = [shortened(str(c).replace("\n", " ").strip(), SHORT_CHARS) for c in first[:MAX_SHORT_CELLS]]
        more = f" +{len(first) - MAX_SHORT_CELLS} more cells" if len(first) > MAX_SHORT_CELLS else ""
        lines.append(f"  r0: | {' | '.join(cells)} |{more}")
    left = t["rows"] - (1 if first else 0)
    if left > 0:
        lines.append(f"  … {left} {'more ' if first else ''}rows not shown")
    return "\n".join(lines)


def _row_line(t: dict[str, Any], n: int) -> str:
    """Row `n` of table `t` as one line: its index, its cells' paragraph ids and its cells' short texts."""
    details = t.get("cell_details") or []
    ids = _row_ids(details[n]) if n < len(details) else ""
    text = " | ".join(shortened(c.replace("\n", " "), MAX_CELL_CHARS) for c in t["cells"][n])
    return f"r{n}{f' (cells {ids})' if ids else ''}: | {text} |"


def _cut_cells(t: dict[str, Any], n: int, cells: AbstractSet[str]) -> list[str]:
    """The paragraphs of `cells` in row `n` of table `t` that its row line shows cut (of a cell of several paragraphs
    or longer than :data:`MAX_CELL_CHARS`: the ITU estimate in the middle of "Box 2", a one-cell table), as paragraph
    lines: a request quoting one of them is shown the text around its words."""
    details = t.get("cell_details") or []
    out = []
    for c in details[n] if n < len(details) and cells else []:
        if not c:  # a grid position a merged cell covers
            continue
        paras = c.get("paragraphs") or []
        if len(paras) > 1 or len(c.get("text", "")) > MAX_CELL_CHARS:
            out += [_paragraph_text(p) for p in paras if p.get("id") in cells]
    return out


def cell_ids(row: list[Any]) -> set[str]:
    """The paragraph ids of a table row's cells."""
    return {p["id"] for c in row if c for p in c.get("paragraphs") or [] if p.get("id")}


def _row_ids(row: list[Any]) -> str:
    """The paragraph ids of a table row's cells, left to right, so that a cell's text can be named: ``p24-p26`` when
    each cell holds one paragraph and their ids run on; else each grid position's (``+`` joins a cell's paragraphs,
    ``-`` stands for a position a merged cell covers)."""
    cells = [[p["id"] for p in (c.get("paragraphs") or []) if p.get("id")] if c and "text" in c else [] for c in row]
    flat = [i for cell in cells for i in cell]
    if not flat:
        return ""
    numbers = [int(i[1:]) for i in flat if i[:1] == "p" and i[1:].isdigit()]
    if len(flat) > 1 and all(len(c) == 1 for c in cells) and numbers == list(range(numbers[0], numbers[0] + len(flat))):
        return f"{flat[0]}-{flat[-1]}"
    return ", ".join("+".join(c) or "-" for c in cells)


# --- windowing ------------------------------------------------------------------------


def _choose(blocks: list[_Block], budget: int, focus: list[str], pointed: list[str],
            count: TokenCounter, listed: Iterable[str] = (), named: Iterable[str] = ()) -> dict[int, bool | None]:
    """The blocks shown (index -> whole, else as its short line, None: its tight line): the first focus block whole,
    the `named` ones (the first :data:`MAX_NAMED`) by their short lines, or by their tight ones whatever the budget
    when those do not all fit (dwh-354#5: 21 headings a step names), the first
    :data:`MAX_SHORT` of the focus and then the pointed blocks (in their order) as short lines, then the `listed`
    ones as short lines, then each focus and pointed block whole as the budget allows, then the first three blocks,
    the headings (all when they fit, else those nearest the focus until :data:`HEADINGS_SHARE` of the budget is
    spent) and the last block, then the blocks nearest the focus."""
    costs = [count(b.text) for b in blocks]
    if sum(costs) <= budget:
        return dict.fromkeys(range(len(blocks)), True)
    chosen: dict[int, bool | None] = {}
    spent = 0

    def take(i: int) -> None:
        nonlocal spent
        if 0 <= i < len(blocks) and chosen.get(i) is not True:
            extra = costs[i] - (count(blocks[i].line(chosen[i])) if i in chosen else 0)
            if spent + extra <= budget:
                chosen[i] = True
                spent += extra

    def name(i: int) -> None:
        nonlocal spent
        cost = count(blocks[i].short)
        if i not in chosen and spent + cost <= budget:
            chosen[i] = False
            spent += cost

    at = {b.id: i for i, b in enumerate(blocks)}
    focus_idx = list(dict.fromkeys(at[b] for b in focus if b in at))
    wanted = list(dict.fromkeys([*focus_idx, *(at[b] for b in pointed if b in at)]))
    for i in focus_idx[:1]:  # the first focus block whole (a step's target: its text is copied)
        take(i)
    left = [i for i in list(dict.fromkeys(at[b] for b in named if b in at))[:MAX_NAMED] if i not in chosen]
    if spent + sum(count(blocks[i].short) for i in left) > budget:
        for i in left:  # the step's targets by their ids at least, over the budget if need be
            chosen[i] = None
            spent += count(blocks[i].tight)
    for i in wanted[:MAX_SHORT]:  # the others named first, cut short; then each whole in order of priority
        name(i)
    for i in (at[b] for b in listed if b in at):  # a list to choose from ("the abbreviations table"): short lines
        name(i)
    for i in wanted:
        take(i)
    for i in range(min(3, len(blocks))):
        take(i)
    centres = focus_idx or [0]
    headings = [i for i, b in enumerate(blocks) if b.heading and chosen.get(i) is not True]
    if spent + sum(costs[i] for i in headings) <= budget:
        for i in headings:  # all of them fit
            take(i)
    else:  # a long handbook's hundreds of headings would leave nothing for the blocks around the focus
        for i in sorted(headings, key=lambda i: min(abs(i - c) for c in centres)):  # the nearest, up to a share
            if spent + costs[i] > budget * HEADINGS_SHARE:
                break
            take(i)
    take(len(blocks) - 1)
    for dist in range(1, len(blocks)):
        before = spent
        for c in centres:
            take(c - dist)
            take(c + dist)
        if spent == before and spent >= budget * 0.98:
            break
    return chosen


def _fill_single_gaps(blocks: list[_Block], chosen: dict[int, bool | None], count: TokenCounter) -> None:
    """Show each block left out alone between shown ones whole, or else by its short line, when that costs no more than
    the line saying it was left out (an empty line between a paragraph and a caption shown: "the line above Figure
    3-9", dwh-310#6)."""
    for i, b in enumerate(blocks):
        if i not in chosen and (i == 0 or i - 1 in chosen) and (i == len(blocks) - 1 or i + 1 in chosen):
            cost = count(_elision([b.id]))
            if count(b.text) <= cost:
                chosen[i] = True
            elif count(b.short) <= cost:
                chosen[i] = False


def _with_elisions(blocks: list[_Block], chosen: dict[int, bool | None]) -> list[str]:
    out: list[str] = []
    gap: list[str] = []
    for i, b in enumerate(blocks):
        if i in chosen:
            if gap:
                out.append(_elision(gap))
                gap = []
            out.append(b.line(chosen[i]))
        else:
            gap.append(b.id)
    if gap:
        out.append(_elision(gap))
    return out


def _elision(ids: list[str]) -> str:
    return f"… {len(ids)} block(s) omitted ({ids[0]}…{ids[-1]}) …"


def _fit_lines(lines: list[str], budget: int, count: TokenCounter, what: str,
               rank: Callable[[str], int] = lambda line: 2) -> list[str]:
    """Keep lines within `budget` tokens (the first at least, cut to the budget when longer: a styles line of a
    hundred styles took a small view's whole body, dwh-337#6), the lowest `rank` first (-1 to 1: wanted, a wanted
    line that does not fit whole is cut short, saying so), then the leading ones, in their order, and say how many
    were dropped."""
    order = sorted(range(len(lines)), key=lambda i: (rank(lines[i]), i))
    kept: dict[int, str] = {}
    spent = 0
    for n, i in enumerate(order):
        line, cost = lines[i], count(lines[i])
        if spent + cost > budget:
            if n == 0:
                line = _cut_to(line, budget, count, _fitting_chars(line, budget, count)) or line
            elif rank(line) == 2:
                break
            else:
                line = _cut_to(line, budget - spent, count)
            if line is None:
                continue
            cost = count(line)
        kept[i] = line
        spent += cost
    out = [kept[i] for i in sorted(kept)]
    if len(kept) < len(lines):
        out.append(f"… {len(lines) - len(kept)} more {what} omitted to fit the token budget …")
    return out


def _cut_to(line: str, budget: int, count: TokenCounter, longest: int = 240) -> str | None:
    """`line` cut to fit `budget` tokens (to `longest` characters at most), saying how much was cut (None when not
    even its start fits)."""
    for chars in (longest, *(c for c in (160, 100, 60) if c < longest)):
        if chars < len(line):
            short = line[:chars] + f"…(+{len(line) - chars} chars)"
            if count(short) <= budget:
                return short
    return None


def _fitting_chars(line: str, budget: int, count: TokenCounter) -> int:
    """The most leading characters of `line` that fit `budget` tokens (with room for the note of the cut)."""
    low, high = 0, len(line)
    while low < high:
        mid = (low + high + 1) // 2
        if count(line[:mid]) + 8 <= budget:
            low = mid
        else:
            high = mid - 1
    return max(low, 60)


def shortened(text: Any, limit: int) -> str:
    """`text` as a string of at most `limit` characters, an ellipsis ending it when cut."""
    s = str(text)
    return s if len(s) <= limit else s[: limit - 1] + "…"
