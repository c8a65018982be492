"""The eight intents of the AutoDW paper, spelled as the rest of autodw uses them, with their definitions.

The API library groups its APIs under the same eight names; the agent keeps the top-3 predicted
intents and offers the LLM the APIs of those intents. A sub-instruction belongs to the intent whose
API group would carry it out, so the boundary rules below follow the API groups.
"""

from __future__ import annotations

from autodw.apis.registry import INTENTS  # the API library groups its APIs under these names

__all__ = ["INTENTS", "DEFINITIONS"]

DEFINITIONS: dict[str, str] = {
    "content_creation": (
        "Adds new content to the body without touching existing text: new paragraphs, headings, "
        "bulleted or numbered lists, text inserted into an existing paragraph, page breaks and line "
        "breaks, new hyperlinks, footnotes and endnotes, comments, captions (for figures, tables and "
        "charts), cross-references, and duplicated paragraphs or tables (the duplicate-block API). "
        "Boundaries: inserting a *section* break is structure_update, and the paragraph property "
        "'page break before' is format_style_editing; inserting a table, image or chart is that "
        "object's intent; a new list *with its items given* is content_creation, while turning "
        "existing paragraphs into a list is format_style_editing; deleting a comment or footnote or "
        "editing an existing hyperlink is structure_update."
    ),
    "content_modification": (
        "Changes, removes or locates existing text: finding text, find and replace, rewriting or "
        "rephrasing a paragraph, changing a heading's wording, correcting typos, changing a number, "
        "amount, percentage, date or name written in the text (\"change the number 300 in p1 to "
        "87.5\" edits the text, it is not formatting), deleting words, sentences "
        "or paragraphs, moving or swapping blocks (a paragraph, a section, and also a whole table or "
        "picture moved elsewhere, since moving is the generic move-block API), splitting and merging "
        "paragraphs, and changing letter case of the text (to uppercase, title case, ...). Boundaries: "
        "the all-caps or small-caps *formatting* effect and any change of font size are "
        "format_style_editing; writing or changing text or numbers in a table cell is "
        "table_operation and values in a chart are chart_operation; deleting a table, image or chart "
        "is that object's intent."
    ),
    "table_operation": (
        "Anything whose target is a table or its rows, columns or cells: inserting and deleting tables, "
        "writing or clearing cell text, filling rows, inserting and deleting rows and columns, merging "
        "and splitting cells, splitting a table in two, the header row (marking it, repeating it, and formatting it: "
        "\"make the table header bold\" is table_operation, because the header-row API sets bold, fill "
        "and font colour), cell shading, borders, cell alignment, column widths, row heights, table "
        "alignment and autofit, table styles and sorting. Boundaries: a table *of contents* is "
        "structure_update; a caption for a table is content_creation; moving a table is "
        "content_modification; duplicating a table is content_creation; charting a table's numbers "
        "is chart_operation."
    ),
    "image_operation": (
        "Pictures in the document: inserting an image file, resizing or scaling it, cropping it, "
        "replacing it with another file, deleting it, aligning it (left, centre, right), text "
        "wrapping (square, tight, behind or in front of text, in line) and alt text. Boundaries: a caption under an image is "
        "content_creation; a native Word chart, even when called a figure, is chart_operation; moving "
        "an image to another place is content_modification (the move-block API)."
    ),
    "chart_operation": (
        "Native Word charts (a chart part with an embedded workbook): inserting a chart of given "
        "categories and series, updating its data or categories, adding a series, changing the chart "
        "type (bar, line, pie, ...), setting or removing the chart title, showing, hiding or moving "
        "the legend, resizing and deleting a chart. Boundaries: a picture of a chart (a PNG file) is "
        "image_operation; a caption for a chart is content_creation."
    ),
    "format_style_editing": (
        "How text looks, outside tables: run formatting (bold, italic, underline, strikethrough, font "
        "name, size, colour, highlight, superscript and subscript, all caps and small caps as "
        "effects, clearing formatting), paragraph formatting (alignment, line spacing, space before and "
        "after, indents, keep-with-next, keep lines together, page break before, paragraph shading "
        "and borders, tab stops), styles (apply a "
        "named style such as \"Heading 1\" to a paragraph, create or modify a style), list formatting "
        "(turn existing paragraphs into a bulleted or numbered list, bullet and numbering style, "
        "restart numbering, list level -- promoting or demoting a *list item* is list formatting --, "
        "remove bullets), copying formatting and the document's default font. "
        "Boundaries: formatting a table's header row, cells or borders is table_operation; applying a "
        "heading *style by name* (\"apply Heading 2 to p5\", \"set the style of p5 to Heading 2\") "
        "is format_style_editing while promoting or demoting a heading or setting its level "
        "(\"make p5 a level-2 heading\") is structure_update; margins and page size are "
        "structure_update; inserting a new list with its items is content_creation; changing a "
        "number written in the text is content_modification."
    ),
    "structure_update": (
        "The document's layout and navigation scaffolding: inserting and removing section breaks, page "
        "setup (orientation, paper size, margins), text columns, headers and footers (text, different "
        "first page, odd/even, linking to the previous section), page numbers, inserting and updating "
        "the table of contents, watermarks, adding and deleting bookmarks, editing or removing existing "
        "hyperlinks, deleting comments and footnotes, and changing heading levels (promote, demote, "
        "\"make X a level-2 heading\"). Boundaries: inserting a page break is content_creation; "
        "inserting a new heading is content_creation; applying a style by name is "
        "format_style_editing; updating *all* fields (captions, cross-references) is lifecycle_update; "
        "promoting a list item is format_style_editing."
    ),
    "lifecycle_update": (
        "The file as a whole rather than its content: creating a new document (blank or from a "
        "template), saving and saving as, exporting to PDF, HTML, ODT or text, document properties "
        "(title, author, subject, keywords, category, comments metadata) and custom properties, "
        "removing personal information, updating all fields, turning track changes on or off, "
        "accepting or rejecting tracked changes, and protection (read-only, passwords, restricting "
        "editing to comments, tracked changes or forms). Boundaries: changing the title *paragraph* "
        "on the first page is content_modification; the title *property* is lifecycle_update; "
        "updating only the table of contents is structure_update."
    ),
}
"""One paragraph per intent: what belongs to it and how its boundary cases are decided."""

