"""The seven-part document state (``extract_state``; ``StateCache`` keeps it by revision), its shape
(:mod:`.types`) and its compact text rendering."""

from autodw.analysis.state.cache import StateCache
from autodw.analysis.state.extract import STATE_KEYS, extract_state
from autodw.analysis.state.types import (Borders, BorderLine, Bookmark, Break, Cell, CellLocation, CellParagraph,
                                         CharacterFormat, ChartSeries, Columns, Comment, DocumentInfo, Field,
                                         Hyperlink, Image, Indent, Interactive, ListInfo, Note, PageLayout, Paragraph,
                                         ParagraphFormat, Run, RunFormat, Section, Spacing, State, Story, Style,
                                         StyleDefaults, Styles, Table, TableFormat, TableOfContents, TableOfFigures,
                                         TabStop,
                                         TrackedChange, Watermark, header_footer_stories)

__all__ = ["STATE_KEYS", "extract_state", "StateCache", "State", "DocumentInfo", "Paragraph", "CellParagraph", "Run", "ListInfo",
           "Table", "Cell", "CellLocation", "Image", "ChartSeries", "PageLayout", "Section", "Columns", "Story",
           "Watermark", "TableOfContents", "TableOfFigures", "Interactive", "Hyperlink", "Bookmark", "Break", "Comment", "Note",
           "TrackedChange", "Field", "Styles", "Style", "StyleDefaults", "CharacterFormat", "RunFormat",
           "ParagraphFormat", "TableFormat", "Spacing", "Indent", "TabStop", "BorderLine", "Borders",
           "header_footer_stories"]
