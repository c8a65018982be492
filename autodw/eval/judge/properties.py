"""Document properties and styles compared: core and custom properties, change tracking and protection; the
document defaults and each style by what it gives."""

from __future__ import annotations

from autodw.eval.judge.comparison import Comparison
from autodw.eval.judge.describe import snippet
from autodw.eval.judge.tables import TABLE_KEYS, table_props
from autodw.analysis.state.effective import STYLE_PARAGRAPH_KEYS, STYLE_RUN_KEYS

SAVED_PROPERTIES = ("revision", "last_modified_by")  # core properties that saving changes: not compared
DOCUMENT_KEYS = ("track_changes", "protection")  # document settings compared


class PropertyComparison(Comparison):
    """Document properties, document defaults and styles."""

    def compare_document_info(self) -> None:
        """Core and custom properties, change tracking and protection."""
        de, da = self.e["document_info"], self.a["document_info"]
        ce = {k: v for k, v in de.get("core_properties", {}).items() if k not in SAVED_PROPERTIES}
        ca = {k: v for k, v in da.get("core_properties", {}).items() if k not in SAVED_PROPERTIES}
        parts = self.fields(ce, ca, sorted(set(ce) | set(ca)))
        parts += [f"custom property {p}" for p in self.fields(de.get("custom_properties", {}), da.get("custom_properties", {}),
                                                               sorted(set(de.get("custom_properties", {})) | set(da.get("custom_properties", {}))))]
        parts += self.fields(de, da, DOCUMENT_KEYS)
        if parts:
            self.add("document properties", "; ".join(parts))

    def compare_styles(self) -> None:
        """The document defaults' run formatting (font, size, colour...), and each style by what it gives (resolved along its chain: theme
        fonts as the theme's, an underline "none" where nothing underlines as none) on what either side's sets; a table
        style by the effective properties of a table of it."""
        parts = self.fields(self.fe.style(None), self.fa.style(None), STYLE_RUN_KEYS)
        if parts:
            self.add("document defaults", "; ".join(parts))
        by_e = {s["name"]: s for s in self.e["styles"]["styles"]}
        by_a = {s["name"]: s for s in self.a["styles"]["styles"]}
        for name in sorted(set(by_e) | set(by_a)):
            e, a = by_e.get(name), by_a.get(name)
            if e is not None and a is not None:
                given = [k for k in (*STYLE_RUN_KEYS, *STYLE_PARAGRAPH_KEYS) if k in e or k in a]
                ve, va = self.fe.style(name), self.fa.style(name)
                parts = self.fields(e, a, ("category", "based_on")) + self.fields(ve, va, [k for k in given if k != "border"])
                parts += self.border_fields(ve["border"], va["border"]) if "border" in given else []
                if e.get("category") == "table":  # what a table of the style has, resolved as tables are
                    te, ta = table_props({"style": name}, self.fe), table_props({"style": name}, self.fa)
                    parts += self.fields(te, ta, TABLE_KEYS) + self.border_fields(te["borders"], ta["borders"])
                if parts:
                    self.add(f"style {snippet(name)}", "; ".join(parts))
            elif (e or a).get("custom"):
                self.add(f"style {snippet(name)}", f"custom style: expected {'defined' if e else 'none'}, actual {'defined' if a else 'none'}")
