"""Rule checks of the lists and tables a call writes against those the request spells out."""

from __future__ import annotations

import re
from typing import Any

from autodw.agent import grounding
from autodw.agent.request_values import tables
from autodw.agent.checks.reading import items_around, items_beside, keyed_strings, list_kind_made, loose_text
from autodw.agent.checks.registry import BUILT_ON, Certainty, CheckFinding, State, check

#: words that start the next request after a list's last item (a Chinese one runs into the verb after it: "再附一个表")
_CONNECTIVE = re.compile(r"(?:next|then|also|finally|and then|after that)\b|另外|然后|接着|最后|再|并且", re.IGNORECASE)
_ROW_SEPARATOR = re.compile(r"\s*(?:/|;)\s*")
_LAST_GAP = re.compile(r'"?\s*,?\s*(?:and|和|及|以及)\s*"?', re.IGNORECASE)


def _located(texts: list[str], text: str, start: int = 0) -> list[tuple[int, int]] | None:
    """Where each of `texts` (loose) occurs in `text` (loose), in order, each after the one before; None if one does
    not."""
    spans = []
    for t in texts:
        i = text.find(t, start) if t else -1
        if i < 0:
            return None
        spans.append((i, i + len(t)))
        start = i + len(t)
    return spans


@check("dropped_item", certain=Certainty.REJECTS,
       tuned_on=BUILT_ON + ("dwbench-2.0/templated/dev", "dwbench-2.0/templated/dev-outside"))
def dropped_item(args: dict[str, Any], request: str) -> list[CheckFinding]:
    """A list or table the request spells out, written without its last item or row (after the call's last one the
    request goes on with the same separator and another item: "A", "B", "C" -> "A", "B").

    Rows end at the separator the call's rows use, else "/", so "; centre it" is not a row, nor are words that run
    past the next separator ('; caption it "Task status" on top; next, ...')."""
    text = grounding.loose(request)
    out = []
    items = [loose_text(t) for _, t in keyed_strings(args.get("items") or [])]
    spans = _located(items, text) if len(items) >= 2 else None
    if spans:
        (_, prev_end), (start, end) = spans[-2], spans[-1]
        separator, rest = text[prev_end:start], text[end:]
        last_gap = _LAST_GAP.match(rest)  # "A, B and C"
        gap = separator if rest.startswith(separator) else \
            last_gap.group(0) if last_gap and ('"' in last_gap.group(0)) == ('"' in separator) else None
        if separator.strip() and gap is not None:
            after = rest[len(gap):]
            nxt = re.match(r"[^,;/、.!?()\"']{2,60}", after)
            if nxt and not _CONNECTIVE.match(after) and loose_text(nxt.group(0)) not in items:
                out.append(CheckFinding("dropped_item", f'the list ends before "{nxt.group(0).strip()}", which the request '
                                                   f"lists next", True))
    rows = args.get("data")
    if isinstance(rows, list) and rows and all(isinstance(r, list) and r for r in rows):
        last = [loose_text(str(c)) for c in rows[-1]]
        before = [loose_text(str(c)) for c in rows[-2]] if len(rows) >= 2 else []
        spans = _located(last, text) if len(last) >= 2 and all(last) else None
        previous = _located(before, text[:spans[0][0]]) if spans and before and all(before) else None
        if spans:
            cell_separator = text[spans[0][1]:spans[1][0]]
            rest = text[spans[-1][1]:]
            # the separator between the call's last two rows, or else "/" (a ";" may end the request instead)
            row_gap = text[previous[-1][1]:spans[0][0]] if previous else ""
            row_gap = row_gap if _ROW_SEPARATOR.fullmatch(row_gap) else " / "
            gap = _ROW_SEPARATOR.match(rest)
            if gap and gap.group(0).strip() == row_gap.strip() and cell_separator.strip() in (",", "，", "、") and \
                    not _CONNECTIVE.match(rest[gap.end():]):
                cells = rest[gap.end():].split(cell_separator)[:len(last)]
                if len(cells) == len(last) and all(0 < len(c.strip()) <= 40 and row_gap.strip() not in c
                                                   for c in cells[:-1]) and \
                        re.match(r"\s*[^,;/.]{1,40}", cells[-1]):
                    out.append(CheckFinding("dropped_item", f'the table ends before the row "{cells[0].strip()}, ...", '
                                                       f"which the request gives next", True))
    return out


def _list_beside(args: dict[str, Any], before: State) -> dict[str, Any] | None:
    """The ``list`` entry of the first body paragraph beside where an ``insert_list`` call puts its items (the one
    before, then the one after) that is an item of a list of the call's kind, as the API continues it; None when
    neither is, or when `start` makes the list start afresh."""
    if args.get("start") is not None:
        return None
    kind = list_kind_made(args, before)
    return next((item for item in items_beside(args, before) if item.get("kind") == kind), None)


@check("nested_first_item", certain=Certainty.FIXES,
       tuned_on=BUILT_ON + ("dwbench-2.0/hand/dev", "dwbench-2.0/hand/dev-twentieth", "dwbench-2.0/hand/dev-twenty-fourth",
                            "dwbench-2.0/hand/dev-twenty-sixth", "dwbench-2.0/hand/dev-thirty-eighth",
                            "dwbench-2.0/templated/dev", "dwbench-2.0/templated/dev-outside-second"))
def nested_first_item(api: str, args: dict[str, Any], before: State) -> list[CheckFinding]:
    """A new list whose items are all nested (level 1 or more; 0 is the top level): its first item hangs under
    nothing. Seen with the 1.5B model, which numbers levels from 1; the fix moves every item up by the lowest level.
    Not items that continue a list beside them whose item there is at their lowest level or deeper (a quiz question's
    options at level 1 get another one: hand dev-twentieth dwh-315#2), nor those whose first item hangs under the item
    of that list right before it, one level deeper at most (an answer at level 1 gets a note at level 2,
    "在42下面再缩进一级": hand dev-thirty-eighth dwh-533#3; the API joins them to that list at their own levels)."""
    items = args.get("items")
    if api != "insert_list" or not isinstance(items, list) or not items:
        return []
    levels = [item.get("level", 0) if isinstance(item, dict) else 0 for item in items]
    if not all(type(level) is int for level in levels) or (low := min(levels)) < 1:
        return []
    beside = _list_beside(args, before)
    if beside is not None and type(level := beside.get("level")) is int and \
            (level >= low or beside is items_around(args, before)[0] and level + 1 >= levels[0]):
        return []
    fixed = [{**item, "level": item["level"] - low} if isinstance(item, dict) else item for item in items]
    return [CheckFinding("nested_first_item", f"every item is at level {low} or deeper, so the list's first item is nested "
                                         "under nothing; level 0 is the top level", True, {"items": fixed})]


#: a table left (partly) empty on purpose: blank rows to fill in
_BLANK = re.compile(r"\bblank\b|\bempty\b|\bfill(?:ed)?\s+in\b|to\s+be\s+filled|留空|空白|空行|空的|待填|填写", re.IGNORECASE)


@check("empty_cells", certain=Certainty.FIXES, tuned_on=("dwbench-2.0/hand/dev", "dwbench-2.0/templated/dev"))
def empty_cells(api: str, args: dict[str, Any], request: str) -> list[CheckFinding]:
    """A new table with empty cells where a table the request spells out has text (:func:`request_values.tables`: a
    Markdown table, lines of cells, a header and rows in words), its written cells all those of that table (a table
    with none, its size); not when the request asks for blank rows to fill in. The fix is the request's table, when
    it is the only one and read unambiguously (`clean`)."""
    data = args.get("data") if isinstance(args.get("data"), list) else []
    if api != "insert_table" or _BLANK.search(request) or not all(isinstance(r, list) for r in data):
        return []
    rows = max(args["rows"] if type(args.get("rows")) is int else 0, len(data))
    cols = max([args["cols"] if type(args.get("cols")) is int else 0, *(len(r) for r in data)])
    grid = [[loose_text(str(r[c])) if c < len(r) and r[c] is not None else "" for c in range(cols)]
            for r in [*data, *[[]] * (rows - len(data))]]
    matching, written = [], any(any(row) for row in grid)
    for spelled in tables(request):
        table = [list(r) for r in spelled.rows]
        cells = [[loose_text(c) for c in row] for row in table]
        if not written and (len(grid), cols) != (len(table), len(table[0])):
            continue  # an empty table of another size: another table of the message
        within = [(r, c) for r in range(min(len(grid), len(cells))) for c in range(min(cols, len(cells[r])))]
        if any(grid[r][c] and grid[r][c] != cells[r][c] for r, c in within):
            continue  # another table
        if any(not grid[r][c] and cells[r][c] for r, c in within):
            matching.append((table, spelled.clean))
    if not matching:
        return []
    table, clean = matching[0]
    fix = {"data": table, "rows": None, "cols": None} if len(matching) == 1 and clean else None
    shown = "; ".join(", ".join(row) for row in table[:2])
    return [CheckFinding("empty_cells", f"the table has empty cells where the request gives their text (it spells out "
                                        f"{len(table)} rows: {shown}...)", True, fix)]
