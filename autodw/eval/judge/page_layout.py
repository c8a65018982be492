"""Page layout compared: each section's page setup, its headers and footers (paragraphs, fields, watermark, tables,
drawings and hyperlinks, as the body's) and the table of contents."""

from __future__ import annotations

from typing import Any

from autodw.eval.judge.describe import show, snippet, text_difference
from autodw.eval.judge.drawings import DrawingComparison
from autodw.eval.judge.interactive import InteractiveComparison
from autodw.eval.judge.tables import TableComparison

#: a section's page setup (its watermarks are compared with the headers that hold them)
SECTION_KEYS = ("start", "orientation", "page_width_cm", "page_height_cm", "margins_cm", "columns", "page_numbering",
                "vertical_alignment", "page_borders", "line_numbering", "different_first_page", "different_odd_even")
STORY_KEYS = ("page_number", "fields", "watermark")  # what of a header or footer is compared besides its contents


class PageLayoutComparison(TableComparison, DrawingComparison, InteractiveComparison):
    """Sections, their headers and footers, and the table of contents."""

    def compare_sections(self) -> None:
        """Each section's page setup, headers and footers; the table of contents."""
        se, sa = self.e["page_layout"]["sections"], self.a["page_layout"]["sections"]
        if len(se) != len(sa):
            self.add("document", f"sections: expected {len(se)}, actual {len(sa)}")
        for n, (xe, xa) in enumerate(zip(se, sa), 1):
            parts = self.fields(xe, xa, SECTION_KEYS)
            if parts:
                self.add(f"page setup of section {n}", "; ".join(parts))
            for key in ("headers", "footers"):
                for kind in sorted(set(xe.get(key, {})) | set(xa.get(key, {}))):
                    self._story(f"{'' if kind == 'default' else kind + '-page '}{key[:-1]} of section {n}",
                                xe.get(key, {}).get(kind), xa.get(key, {}).get(kind))
        toc_e, toc_a = self.e["page_layout"].get("table_of_contents"), self.a["page_layout"].get("table_of_contents")
        if bool(toc_e) != bool(toc_a):
            self.add("table of contents", f"present: expected {show(bool(toc_e))}, actual {show(bool(toc_a))}")
        elif toc_e and toc_a:
            parts = self.fields(toc_e, toc_a, ("levels",))
            if [t.strip() for t in toc_e.get("entries", [])] != [t.strip() for t in toc_a.get("entries", [])]:
                parts.append(f"entries: expected {show(toc_e.get('entries'))}, actual {show(toc_a.get('entries'))}")
            if parts:
                self.add("table of contents", "; ".join(parts))

    def _story(self, where: str, xe: dict[str, Any] | None, xa: dict[str, Any] | None) -> None:
        """A header or footer (`where` names it): its paragraphs (or text), fields and watermark, then its tables,
        drawings and hyperlinks as the body's."""
        if xe is None or xa is None:
            have = xe or xa or {}
            if (have.get("text") or "").strip() or have.get("images") or have.get("tables") or have.get("watermark"):
                self.add(where, f"expected {snippet(xe['text']) if xe else 'none'}, actual {snippet(xa['text']) if xa else 'none'}")
            return
        pe, pa = xe.get("paragraph_details"), xa.get("paragraph_details")
        if pe is None or pa is None:  # a state without the story's paragraphs: texts and alignments as written
            if not self.text_same(xe.get("text", ""), xa.get("text", "")):
                self.add(where, text_difference(xe.get("text", ""), xa.get("text", "")))
            parts = self.fields(xe, xa, ("alignments",))
        else:  # paragraph by paragraph, as body paragraphs: text, style, effective paragraph and run formatting
            self.paragraphs(where, xe.get("text", ""), xa.get("text", ""), pe, pa)
            parts = []
        parts += self.fields(xe, xa, STORY_KEYS)
        for key, details in (("tables", "table_details"), ("images", "image_details")):
            if any(x.get(key) and details not in x for x in (xe, xa)):  # a state without them: counted
                if len(xe.get(key, [])) != len(xa.get(key, [])):
                    parts.append(f"{key}: expected {len(xe.get(key, []))}, actual {len(xa.get(key, []))}")
        if parts:
            self.add(where, "; ".join(parts))
        # after the paragraphs, whose pairs place the tables, drawings and links: compared as the body's
        self.table_list(xe.get("table_details", []), xa.get("table_details", []), where)
        self.image_list(xe.get("image_details", []), xa.get("image_details", []), where)
        self.hyperlinks(xe.get("hyperlinks", []), xa.get("hyperlinks", []), where)
