"""Paragraphs compared: the body's aligned by text, a cell's or a story's among themselves; each pair by text, style,
paragraph format, list and run formatting (by stretch of text)."""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any, Callable

from autodw.eval.judge.alignment import Alignment, align, ratio
from autodw.eval.judge.comparison import Comparison, whole
from autodw.eval.judge.describe import LISTED, label, nth_paragraph, show, snippet, text_difference
from autodw.eval.judge.tolerances import trimmed
from autodw.analysis.state.effective import VISIBLE_ON_SPACES, Formatting, dominant_format, segments

_VOLATILE = {"id", "index", "section"}  # a paragraph's keys that say where it is, not what it is


class ParagraphComparison(Comparison):
    """The paragraphs of the body, of a table cell and of a header or footer."""

    def compare_body(self) -> None:
        """The body's paragraphs aligned by text and compared; missing, extra and moved ones in document order."""
        pe, pa = self.e["paragraphs"], self.a["paragraphs"]
        ke, ka = [trimmed(p["text"]) for p in pe], [trimmed(p["text"]) for p in pa]
        al = align(ke, ka, lambda i, j: ratio(ke[i], ka[j]))
        for i, j in al.pairs + al.moved:
            self.pmap[pa[j]["id"]] = pe[i]["id"]
        events: list[tuple[int, float, Callable[[], None]]] = []
        for i, j in al.pairs:
            events.append((i, 0, lambda i=i, j=j: self.paragraph(self.describe_e(pe[i]["id"]), pe[i], pa[j])))
        for i, j in al.moved:
            events.append((i, 0, lambda i=i, j=j: self._moved(pe, pa, i, j)))
        for i in al.missing:
            events.append((i, 0, lambda i=i: self.add(self.describe_e(pe[i]["id"]), "missing: the paragraph is absent "
                                                       "from the actual document")))
        for j in al.extra:
            before = self._expected_position(pa, j)
            events.append((before, 0.5, lambda j=j: self.add(
                f"extra paragraph {snippet(pa[j]['text'])}" if pa[j]["text"].strip() else "extra empty paragraph",
                f"unexpected: not in the expected document (actual paragraph {j + 1}, after "
                f"{self.describe_a(pa[j - 1]['id']) if j else 'the start of the document'})")))
        for _, _, emit in sorted(events, key=lambda ev: (ev[0], ev[1])):
            emit()

    def _expected_position(self, pa: list[dict[str, Any]], j: int) -> int:
        """Index in the expected paragraphs just after which the actual paragraph `j` sits."""
        order = {pid: k for k, pid in enumerate(p["id"] for p in self.e["paragraphs"])}
        for k in range(j - 1, -1, -1):
            if pa[k]["id"] in self.pmap:
                return order[self.pmap[pa[k]["id"]]]
        return -1

    def _moved(self, pe: list[dict[str, Any]], pa: list[dict[str, Any]], i: int, j: int) -> None:
        where = self.describe_e(pe[i]["id"])
        exp_after = self.describe_e(pe[i - 1]["id"]) if i else "the start of the document"
        act_after = self.describe_a(pa[j - 1]["id"]) if j else "the start of the document"
        self.add(where, f"order: expected after {exp_after}, actual after {act_after}")
        self.paragraph(where, pe[i], pa[j])

    def paragraphs(self, where: str, te: str, ta: str, pe: list[dict[str, Any]], pa: list[dict[str, Any]]) -> None:
        """The paragraphs of a table cell or a header or footer (texts `te`, `ta`), aligned by text: each pair compared
        (one paragraph each side: `where` itself), a paragraph found at another place reported as out of order; missing
        and extra ones, when the whole texts differ (trimmed, and not as free text), one by one, or as a difference of
        the whole text if no paragraph corresponds."""
        ke, ka = [trimmed(p["text"]) for p in pe], [trimmed(p["text"]) for p in pa]
        al = Alignment([(0, 0)], [], [], []) if len(pe) == len(pa) == 1 else align(ke, ka, lambda i, j: ratio(ke[i], ka[j]))
        for i, j in sorted(al.pairs + al.moved):
            self.pmap[pa[j]["id"]] = pe[i]["id"]
            at = where if len(pe) == len(pa) == 1 else nth_paragraph(i, ke[i], where)
            if (i, j) in al.moved:
                self.add(at, f"order: expected paragraph {i + 1}, actual paragraph {j + 1}")
            self.paragraph(at, pe[i], pa[j])
        places = (whole(pe[0]["id"]), whole(pa[0]["id"])) if pe and pa else None
        if not (al.missing or al.extra) or trimmed(te) == trimmed(ta) or self.free_text_ok(te, ta, places):
            return
        if not (al.pairs or al.moved):
            self.add(where, text_difference(te, ta))
            return
        for i in al.missing:
            self.add(nth_paragraph(i, ke[i], where), "missing: the paragraph is absent from the actual document")
        for j in al.extra:
            self.add(f"extra paragraph {snippet(ka[j])} in {where}" if ka[j] else f"extra empty paragraph in {where}",
                     f"unexpected: not in the expected document (actual paragraph {j + 1} of {len(pa)})")

    def paragraph(self, where: str, pe: dict[str, Any], pa: dict[str, Any]) -> None:
        """Compare two corresponding paragraphs: text, style, paragraph format, list, run formatting (a heading at
        another level the instruction accepts: the expected paragraph at that level, as the actual document's styles
        make it; the styles themselves are compared apart)."""
        resolve_e = self.fe
        if pe.get("style") != pa.get("style") and self.use(self.ctx.heading_tolerated(pe.get("style"), pa.get("style"))):
            pe, resolve_e = {**pe, "style": pa.get("style")}, self.fa
        if self.same_styles and _same_raw(pe, pa):
            return
        te, ta = pe["text"], pa["text"]
        free = False
        if trimmed(te) != trimmed(ta):
            free = self.free_text_ok(te, ta, (pe["id"], pa["id"]))
            if not free:
                self.add(where, text_difference(te, ta))
        parts = []
        if pe.get("style") != pa.get("style"):
            parts.append(f"style: expected {show(pe.get('style'))}, actual {show(pa.get('style'))}")
        fe, fa = resolve_e.paragraph(pe), self.fa.paragraph(pa)
        parts += self.fields(fe, fa, [k for k in fe if k != "border"])
        parts += self.border_fields(fe.get("border"), fa.get("border"))
        later: list[tuple[str, str]] = []
        if free or (trimmed(te) != trimmed(ta) and ratio(te, ta) < 0.5):  # other words: their format as a whole
            de, da = dominant_format(pe, resolve_e), dominant_format(pa, self.fa)
            runs = self.fields(de, da, list(de)) if de and da else []
            if runs:
                parts.append("formatting of most of the text: " + "; ".join(runs))
        else:
            for at, what in self._runs(where, pe, pa, resolve_e):
                parts.append(what) if at == where else later.append((at, what))
        if parts:
            self.add(where, "; ".join(parts))
        for at, what in later:
            self.add(at, what)

    def _runs(self, where: str, pe: dict[str, Any], pa: dict[str, Any], resolve_e: Formatting) -> list[tuple[str, str]]:
        """(where, what) of the run formatting that differs, by stretch of text (whole paragraph: `where`); the
        expected runs resolved by `resolve_e`."""
        te, ta = pe["text"], pa["text"]
        se, sa = segments(pe, resolve_e), segments(pa, self.fa)
        if len(se) == 1 and len(sa) == 1 and se[0][2] == sa[0][2]:
            return []
        blocks = [(0, 0, len(te))] if te == ta else \
            [(i, j, n) for i, j, n in SequenceMatcher(None, te, ta, autojunk=False).get_matching_blocks() if n >= 3]
        found: list[tuple[int, int, str, Any, Any]] = []  # expected start, end, key, expected value, actual value
        open_: dict[tuple[str, Any, Any], int] = {}  # the last range of each (key, values), to extend
        for i0, j0, n in blocks:
            for start, end, f_e, f_a in _overlaps(se, sa, i0, j0, n):
                blank = not te[start:end].strip()
                for key, ev in f_e.items():
                    av = f_a.get(key)
                    if (blank and key not in VISIBLE_ON_SPACES) or self.same(key, ev, av):
                        continue
                    k = open_.get((key, ev, av))
                    if k is not None and found[k][1] >= start - _gap(te, found[k][1], start):
                        found[k] = (found[k][0], end, key, ev, av)
                    else:
                        open_[(key, ev, av)] = len(found)
                        found.append((start, end, key, ev, av))
        by_range: dict[tuple[int, int], list[str]] = {}
        for start, end, key, ev, av in found:
            by_range.setdefault((start, end), []).append(f"{label((key,))}: expected {show(ev, key)}, actual {show(av, key)}")
        whole = (len(te) - len(te.lstrip()), len(te.rstrip()))
        by_what: dict[str, list[tuple[int, int]]] = {}  # the same change on several stretches: one difference
        for rng, parts in by_range.items():
            by_what.setdefault("; ".join(parts), []).append(rng)
        out = []
        for what, ranges in by_what.items():
            if len(ranges) == 1 and ranges[0][0] <= whole[0] and ranges[0][1] >= whole[1]:
                out.append((where, what))
                continue
            shown = ", ".join(snippet(te[a:b]) for a, b in ranges[:LISTED])
            more = f" and {len(ranges) - LISTED} more" if len(ranges) > LISTED else ""
            out.append((f"text {shown}{more} in {where}", what))
        return out


def _same_raw(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same paragraph as written (ids and positions aside)."""
    return a.keys() == b.keys() and all(a[k] == b[k] for k in a if k not in _VOLATILE)


def _gap(text: str, end: int, start: int) -> int:
    """Length of the whitespace between two ranges (a difference on two words separated by a space is one range)."""
    between = text[end:start]
    return len(between) if not between.strip() else 0


def _overlaps(se: list[tuple[int, int, dict]], sa: list[tuple[int, int, dict]], i0: int, j0: int, n: int):
    """(start, end, expected format, actual format) over a matching block: text[i0:i0+n] == actual[j0:j0+n]."""
    a_idx = 0
    for s, e, f in se:
        lo, hi = max(s, i0), min(e, i0 + n)
        if lo >= hi:
            continue
        pos = lo
        while pos < hi:
            apos = pos - i0 + j0
            while a_idx < len(sa) and sa[a_idx][1] <= apos:
                a_idx += 1
            if a_idx >= len(sa):
                return
            a_s, a_e, a_f = sa[a_idx]
            if a_s > apos:  # actual text with no run (should not happen): skip to where runs resume
                pos += a_s - apos
                continue
            stop = min(hi, a_e - j0 + i0)
            yield pos, stop, f, a_f
            pos = stop
