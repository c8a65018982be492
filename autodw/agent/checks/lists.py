"""Rule checks of the lists and tables a call writes against those the request spells out."""

from __future__ import annotations

import re
from typing import Any

from autodw.agent import grounding
from autodw.agent.checks.reading import keyed_strings, loose_text
from autodw.agent.checks.registry import BUILT_ON, Certainty, CheckFinding, check

_CONNECTIVE = re.compile(r"(?:next|then|also|finally|and then|after that|另外|然后|接着|最后|再|并且)\b", re.IGNORECASE)
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


@check("dropped_item", certain=Certainty.REJECTS, tuned_on=BUILT_ON + ("dwbench-2.0/templated/dev",))
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


@check("nested_first_item", certain=Certainty.FIXES, tuned_on=BUILT_ON)
def nested_first_item(api: str, args: dict[str, Any]) -> list[CheckFinding]:
    """A new list whose items are all nested (level 1 or more; 0 is the top level): its first item hangs under
    nothing. Seen with the 1.5B model, which numbers levels from 1; the fix moves every item up by the lowest level."""
    items = args.get("items")
    if api != "insert_list" or not isinstance(items, list) or not items:
        return []
    levels = [item.get("level", 0) if isinstance(item, dict) else 0 for item in items]
    if not all(type(level) is int for level in levels) or (low := min(levels)) < 1:
        return []
    fixed = [{**item, "level": item["level"] - low} if isinstance(item, dict) else item for item in items]
    return [CheckFinding("nested_first_item", f"every item is at level {low} or deeper, so the list's first item is nested "
                                         "under nothing; level 0 is the top level", True, {"items": fixed})]


#: where a request starts spelling out a table: its header ("bold header", "表头加粗："), its rows ("rows", "数据："), or
#: a colon after the word table ("a table: A, B; C, D")
_TABLE_HEADER = re.compile(r"(?<![Pp]age )(?<![Pp]age-)\b(?:bold\s+)?headers?(?:\s+row)?\b\s*[:：]?\s*|"
                           r"(?<![Pp]age )\bcolumns?\b\s*[:：]?\s*|表头(?:加粗)?\s*[:：]?\s*", re.IGNORECASE)
_TABLE_ROWS = re.compile(r"\b(?:and\s+)?(?:the\s+)?rows?\b\s*[:：]?\s*|\bdata\b\s*[:：]?\s*|(?:数据|内容)\s*[:：]?\s*",
                         re.IGNORECASE)
_TABLE_COLON = re.compile(r"(?:\btable\b|表格?)[^;；:：\n。.\"“]{0,40}[:：]\s*", re.IGNORECASE)
_TABLE_WORD = re.compile(r"\btables?\b|表", re.IGNORECASE)
_TABLE_SEPARATOR = re.compile(r"\s*(?:[;；\n]|\s/\s)\s*")
_CELL_SEPARATOR = re.compile(r"\s*[,，、\t]\s*")
_BOLD_WORDS = re.compile(r"[（(]?\s*(?:in\s+)?(?:加粗|\bbold\b)\s*[)）]?", re.IGNORECASE)  # "（加粗）", "in bold"
#: a segment that goes on with the request rather than the table ("; after the Cleaning section, add ...")
_NOT_A_ROW = re.compile(r"(?:after|before|add|put|make|cent(?:re|er)|caption|insert|set|move|delete|change|replace|"
                        r"also|please|then|next|finally)\b", re.IGNORECASE)
#: a table left (partly) empty on purpose: blank rows to fill in
_BLANK = re.compile(r"\bblank\b|\bempty\b|\bfill(?:ed)?\s+in\b|to\s+be\s+filled|留空|空白|空行|空的|待填|填写", re.IGNORECASE)
_MAX_CELL = 40


def _row(segment: str, width: int | None) -> list[str] | None:
    """The cells of one row of a spelled-out table (the first `width` of them when the request goes on after it),
    or None when `segment` is no row of that many short cells."""
    if _CONNECTIVE.match(segment) or _NOT_A_ROW.match(segment):
        return None
    cells = [c.strip().rstrip(".。)）").strip() for c in _CELL_SEPARATOR.split(segment.strip())]
    width = width or len(cells)
    cells = cells[:width]
    if width < 2 or len(cells) < width or any(not 0 < len(c) <= _MAX_CELL or re.search(r"[\"“”'‘’:：]", c)
                                               for c in cells):
        return None
    return cells


def _spelled_rows(text: str) -> tuple[list[list[str]], int]:
    """The rows spelled out at the start of `text` ("A, B, C; D, E, F"), all as wide as the first, and where they
    end."""
    rows: list[list[str]] = []
    start, width = 0, None
    while start < len(text):
        gap = _TABLE_SEPARATOR.search(text, start)
        segment = text[start:gap.start() if gap else len(text)]
        row = _row(segment, width)
        if row is None:
            break
        rows.append(row)
        width = len(row)
        if len(_CELL_SEPARATOR.split(segment.strip())) > width or gap is None:  # the request goes on after it
            return rows, start + len(segment)
        start = gap.end()
    return rows, start


def _lines(request: str) -> list[list[list[str]]]:
    """The tables of a request's lines: a Markdown table, or two lines or more of as many comma- or tab-separated
    cells."""
    lines = [line.strip() for line in request.splitlines()]
    markdown = [[c.strip() for c in line.strip("|").split("|")] for line in lines
                if line.startswith("|") and not re.fullmatch(r"[|:\-\s]+", line)]
    tables = [markdown] if len(markdown) >= 2 and len({len(r) for r in markdown}) == 1 and len(markdown[0]) >= 2 else []
    run: list[list[str]] = []
    for line in [*lines, ""]:
        cells = _row(line, None) if line and not line.startswith("|") else None
        if cells and (not run or len(cells) == len(run[0])):
            run.append(cells)
            continue
        if len(run) >= 2:
            tables.append(run)
        run = [cells] if cells else []
    return tables


def spelled_tables(request: str) -> list[tuple[list[list[str]], bool]]:
    """The tables a request that names a table spells out, each with whether it is read unambiguously: a Markdown
    table, lines of comma- or tab-separated cells, or a header and rows in words ("bold header Name, Role and rows
    Ann, Chair; Bo, Clerk", "表头姓名、职责（加粗），数据：张伟, 组长; 李娜, 会计"). A header whose cells do not match
    its rows in number is left out, and the table read as ambiguous."""
    if not _TABLE_WORD.search(request):
        return []
    tables = [(t, True) for t in _lines(request)]
    if tables:
        return tables
    starts = sorted([(m, "header") for m in _TABLE_HEADER.finditer(request)] +
                    [(m, "rows") for m in _TABLE_ROWS.finditer(request)] +
                    [(m, "colon") for m in _TABLE_COLON.finditer(request)], key=lambda s: s[0].start())
    end = 0
    for start, kind in starts:
        rest = request[start.end():]
        if start.start() < end or (kind == "colon" and any(key.search(start.group(0)) or key.match(rest)
                                                            for key in (_TABLE_HEADER, _TABLE_ROWS))):
            continue  # "a table: bold headers ...", "表格，表头...，数据：...": the header or the rows say where it starts
        header, after = None, 0
        if kind == "header":
            rows_key, first = _TABLE_ROWS.search(rest), _TABLE_SEPARATOR.search(rest)
            if rows_key and (first is None or rows_key.start() < first.start()):
                stop, after = rows_key.start(), rows_key.end()
            else:  # "bold header Task, Owner; rows Draft, Sam", "bold headers Task, Owner; Draft, Sam"
                stop, after = (first.start(), first.end()) if first else (len(rest), len(rest))
                after = rows_key.end() if rows_key and rows_key.start() == after else after
            header = _row(_BOLD_WORDS.sub("", rest[:stop]).strip(" ,，;；"), None)
        rows, length = _spelled_rows(rest[after:])
        if not rows or (kind != "header" and len(rows) < 2):
            continue
        if header and len(header) == len(rows[0]) - 1 and " and " in header[-1]:
            header = header[:-1] + header[-1].split(" and ", 1)  # "Item, Quantity, From and To"
        clean = kind != "header" or (header is not None and len(header) == len(rows[0]))
        tables.append(([header, *rows] if header and clean else rows, clean))
        end = start.end() + after + length
    return tables


@check("empty_cells", certain=Certainty.FIXES, tuned_on=("dwbench-2.0/hand/dev", "dwbench-2.0/templated/dev"))
def empty_cells(api: str, args: dict[str, Any], request: str) -> list[CheckFinding]:
    """A new table with empty cells where the table the request spells out has text (a Markdown table, lines of
    cells, a header and rows in words), its written cells all those of that table (a table with none, its size); not
    when the request asks for blank rows to fill in. The fix is the request's table, when it is the only one and read
    unambiguously."""
    data = args.get("data") if isinstance(args.get("data"), list) else []
    if api != "insert_table" or _BLANK.search(request) or not all(isinstance(r, list) for r in data):
        return []
    rows = max(args["rows"] if type(args.get("rows")) is int else 0, len(data))
    cols = max([args["cols"] if type(args.get("cols")) is int else 0, *(len(r) for r in data)])
    grid = [[loose_text(str(r[c])) if c < len(r) and r[c] is not None else "" for c in range(cols)]
            for r in [*data, *[[]] * (rows - len(data))]]
    matching, written = [], any(any(row) for row in grid)
    for table, clean in spelled_tables(request):
        cells = [[loose_text(c) for c in row] for row in table]
        if not written and (len(grid), cols) != (len(table), len(table[0])):
            continue  # an empty table of another size: another table of the message
        within = [(r, c) for r in range(min(len(grid), len(cells))) for c in range(min(cols, len(cells[r])))]
        if any(grid[r][c] and grid[r][c] != cells[r][c] for r, c in within):
            continue  # another table
        if any(not grid[r][c] and cells[r][c] for r, c in within):
            matching.append((table, clean))
    if not matching:
        return []
    table, clean = matching[0]
    fix = {"data": table, "rows": None, "cols": None} if len(matching) == 1 and clean else None
    shown = "; ".join(", ".join(row) for row in table[:2])
    return [CheckFinding("empty_cells", f"the table has empty cells where the request gives their text (it spells out "
                                        f"{len(table)} rows: {shown}...)", True, fix)]
