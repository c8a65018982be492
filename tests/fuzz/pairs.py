"""The judge and the change analysis on random pairs of documents.

One input: a pair, drawn as two corpus documents, or a document and itself after random API calls, or a
document and itself. The promise: the change analysis (ids aligned across the two files), its summary and the
deterministic judge (with a drawn instruction, free-text flag and initial document) finish without an untyped
error, within the limits; a document compared with itself is equivalent and has no change.
"""

from __future__ import annotations

from pathlib import Path

from tests.fuzz import outcome
from tests.fuzz.api import ApiHarness
from tests.fuzz.draw import Draw, coin, pick
from tests.fuzz.mutate import ROOT, choose_seed
from tests.fuzz.outcome import Crash, checked, stage
from tests.fuzz.schema_draw import new_text
from tests.fuzz.seams import (AutodwError, WordDocument, align_ids, analyze_change, execute, extract_state, judge,
                              summarize_change)


class PairHarness:
    def __init__(self) -> None:
        self.api = ApiHarness()

    def close(self) -> None:
        self.api.close()

    def one(self, draw: Draw) -> dict:
        first = self._document(draw)
        how = pick(draw, ("two documents", "edited", "edited", "itself"))
        case: dict = {"first": str(first), "how": how, "calls": [], "instruction": None, "free_text": coin(draw, 30)}
        if how == "two documents":
            case["second"] = str(self._document(draw))
        elif how == "edited":
            case["calls"] = self._calls(draw, first)
        if coin(draw, 60):
            case["instruction"] = new_text(draw) if coin(draw) else pick(draw, (
                "Make the title dark red", "把标题改成蓝色", "Colour the heading light blue", "highlight in yellow"))
        return checked(self.check, case)

    def _document(self, draw: Draw) -> Path:
        seed = choose_seed(draw)
        return seed if seed.suffix.lower() == ".docx" and seed.stat().st_size < 2_000_000 else ROOT / "examples" / "report.docx"

    def _calls(self, draw: Draw, path: Path) -> list[dict]:
        """Calls drawn on `path` that edit it (refused ones are dropped)."""
        try:
            doc = WordDocument.from_bytes(path.read_bytes(), path.name)
        except AutodwError:
            return []
        doc.asset_roots = [self.api.assets]
        kept = []
        for _ in range(1 + draw.int(0, 3)):
            call = self.api.draw_call(draw, extract_state(doc))
            try:
                execute(doc, call["api"], call["args"])
                kept.append(call)
            except AutodwError:
                continue
            except Exception:  # noqa: BLE001 - the API harness's to report; here only edits are wanted
                continue
        return kept

    def check(self, case: dict) -> dict:
        first = Path(case["first"])
        try:
            a = WordDocument.from_bytes(first.read_bytes(), first.name)
            b = WordDocument.from_bytes(Path(case.get("second") or first).read_bytes(), "second.docx")
        except AutodwError:
            return {"outcome": "document_refused"}
        b.asset_roots = [self.api.assets]
        for call in case["calls"]:
            try:
                execute(b, call["api"], call["args"])
            except AutodwError:
                pass
        with outcome.limits():
            with stage("state", (AutodwError,)):
                before, after = extract_state(a), extract_state(b)
            with stage("analyze_change"):
                change = analyze_change(before, align_ids(before, after))
                summarize_change(change)
            with stage("judge", (AutodwError,)):
                verdict = judge(before, after, instruction=case["instruction"], free_text=case["free_text"])
                verdict.to_text()
                verdict.to_dict()
            with stage("judge with an initial document", (AutodwError,)):
                judge(after, before, instruction=case["instruction"], free_text=True, initial=before)
        if case["how"] == "itself":
            if not verdict.equivalent:
                raise Crash("judge_self", "judge", f"a document is not equivalent to itself: {verdict.to_text()[:300]}")
            if summarize_change(analyze_change(before, before)) != "No change detected in the document state.":
                raise Crash("change_self", "analyze_change", "a document changed against itself")
        return {"outcome": f"{case['how']}:{'equivalent' if verdict.equivalent else 'different'}"}
