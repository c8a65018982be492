"""Rule checks of the element a call targets against the one the step names."""

from __future__ import annotations

import json
import re
from typing import Any, Iterator

from autodw.agent import grounding
from autodw.agent.checks.reading import keyed_strings, loose_text
from autodw.agent.checks.registry import BUILT_ON, Certainty, CheckFinding, State, check
from autodw.core.ids import ID_IN_TEXT

_RELATIVE = re.compile(r"\b(?:paragraph|table|block|one|text|list)\s+(?:right\s+|just\s+|directly\s+|immediately\s+)?"
                       r"(?:after|following|below|under|before|above|preceding)\s+(?:the\s+)?(?:paragraph\s+|heading\s+|"
                       r"table\s+|block\s+)?(p\d+|t\d+)\b", re.IGNORECASE)
_TARGET_KEYS = ("block", "paragraph", "paragraphs", "table", "heading")


def _ids(state: State) -> Iterator[str]:
    for p, _ in grounding.paragraphs(state):
        yield p["id"]
    for key in ("tables", "images"):
        for e in state.get(key, []):
            yield e["id"]


@check("other_target", certain=Certainty.REJECTS, tuned_on=BUILT_ON)
def other_target(args: dict[str, Any], sub_instruction: str, before: State) -> list[CheckFinding]:
    """The sub-instruction names element ids, and the call names other elements of their kind instead (p8 named, p2
    made italic).

    Without a position argument, an id named as a landmark ("the paragraph after p24") is not the target."""
    existing = set(_ids(before))
    # without a position, "the paragraph after p24" names p24 as a landmark, not as the target
    landmarks = set() if "position" in args else set(_RELATIVE.findall(sub_instruction))
    named = [i for i in dict.fromkeys(ID_IN_TEXT.findall(sub_instruction)) if i in existing and i not in landmarks]
    used = set(ID_IN_TEXT.findall(json.dumps(args)))
    if not named or not used or used & set(named):
        return []
    kinds = {re.match(r"[a-z]+", i).group(0) for i in named}
    if not any(re.match(r"[a-z]+", i).group(0) in kinds for i in used):
        return []  # the call names other kinds of element (a table for a paragraph's caption): not comparable
    return [CheckFinding("other_target", f"the sub-instruction names {', '.join(named)}, the call targets "
                                    f"{', '.join(sorted(used))}", True)]


@check("other_row", certain=Certainty.REJECTS, tuned_on=BUILT_ON)
def other_row(api: str, args: dict[str, Any], sub_instruction: str, before: State) -> list[CheckFinding]:
    """The call's table row (a row to delete, split or fill) does not hold the one text the sub-instruction quotes
    while another row below the header is labelled with it (its first cell; the "West" row at index 4 taken for
    index 3)."""
    row = args.get("index") if api == "delete_row" else args.get("row")
    table = next((t for t in before.get("tables", []) if t["id"] == args.get("table")), None)
    if type(row) is not int or table is None or not 0 <= row < len(table.get("cells", [])):
        return []
    quotes = grounding.quotes(sub_instruction)
    if len(quotes) != 1:  # several quoted texts may name other rows for other operations
        return []
    # a label, or a whole row "West | 87 | 95"
    quoted = {loose_text(quotes[0].text), loose_text(quotes[0].text.split("|")[0])}
    if {loose_text(c or "") for c in table["cells"][row]} & quoted:
        return []
    named = [n for n, cells in enumerate(table["cells"]) if n and cells and loose_text(cells[0] or "") in quoted]
    if not named:
        return []
    return [CheckFinding("other_row", f"row {row} of {table['id']} holds none of the quoted texts; row "
                                 f"{', '.join(map(str, named))} does", True)]


@check("relative_target", certain=Certainty.REJECTS, tuned_on=BUILT_ON)
def relative_target(args: dict[str, Any], sub_instruction: str) -> list[CheckFinding]:
    """The sub-instruction is about the element after or before an id ("delete the paragraph after p24") and the call
    targets that id itself."""
    anchors = set(_RELATIVE.findall(sub_instruction))
    targets = {i for key in _TARGET_KEYS if key in args for _, i in keyed_strings(args[key])}
    hit = sorted(anchors & targets)
    if not hit:
        return []
    return [CheckFinding("relative_target", f"the sub-instruction is about the element next to {', '.join(hit)}, but the "
                                       f"call targets {', '.join(hit)} itself", True)]
