"""The seven-part state's shape, as TypedDicts: a state is JSON data (plain dicts and lists) and these name its keys;
and :func:`header_footer_stories`, the walk over its sections' headers and footers.

:class:`State` holds the seven parts of the paper's Table 1; each part, and each record in a part's lists, has its
type here. A class's keys without ``total=False`` are always there; the others only when the document sets them
(a paragraph's ``alignment``, a run's ``bold``). A value of None means the document has the element but not that
value (an image without a name). ``extract_state`` writes these keys and no others (tests/test_state.py checks
every record of the sample documents against them).
"""

from __future__ import annotations

from typing import Any, TypedDict

# --- formatting shared by runs, paragraphs, tables and styles ---------------------------------------------


class CharacterFormat(TypedDict, total=False):
    """Run formatting a character or paragraph style can also set (``effective.STYLE_RUN_KEYS``)."""

    font: str  # a font name, or a theme slot as "theme:minorHAnsi"
    east_asia_font: str
    size_pt: float
    bold: bool
    italic: bool
    color: str  # "1F4E79", or "auto"
    underline: bool | str  # False, or the line's kind ("single", "double", ...)
    strike: bool
    double_strike: bool
    all_caps: bool
    small_caps: bool
    hidden: bool
    superscript: bool
    subscript: bool
    highlight: str
    char_spacing_pt: float
    position_pt: float
    scale_pct: int
    outline: bool
    shadow: bool
    emboss: bool
    imprint: bool


class RunFormat(CharacterFormat, total=False):
    """A run's direct formatting: a style's, its character style and its shading."""

    style: str  # the character style's name
    shading: str


class _RunText(TypedDict):
    text: str


class Run(_RunText, RunFormat, total=False):
    """Consecutive text of one formatting, or a picture or equation (empty text)."""

    hyperlink: str  # the link's URL, or "#bookmark"
    tracked_insertion: bool
    image: str | None  # the drawing's id
    equation: bool


class _BorderStyle(TypedDict):
    style: str  # "single", "double", ...; "none" takes away a line a style gives


class BorderLine(_BorderStyle, total=False):
    """One side of a border."""

    width_pt: float
    color: str
    space_pt: float  # the distance from the text
    shadow: bool


#: a border's sides by name ("top", "left", "bottom", "right", "between", "insideH", ...)
Borders = dict[str, BorderLine]


class Spacing(TypedDict, total=False):
    """Space before and after a paragraph, and between its lines (lines and auto spacing are Word's over points)."""

    before_pt: float | None
    after_pt: float | None
    before_lines: float | None
    after_lines: float | None
    before_auto: bool | None
    after_auto: bool | None
    line: float | None  # a multiple of a line ("multiple"), else points
    line_rule: str  # "multiple", "exactly", "at_least"


class Indent(TypedDict, total=False):
    """Indentation in centimetres, or in characters (the form Chinese documents use; Word's over the lengths)."""

    left_cm: float | None
    right_cm: float | None
    first_line_cm: float | None
    hanging_cm: float | None
    left_chars: float | None
    right_chars: float | None
    first_line_chars: float | None
    hanging_chars: float | None


class _TabPlace(TypedDict):
    position_cm: float | None
    alignment: str | None  # "left", "center", "decimal", ...; "clear" takes away a style's stop


class TabStop(_TabPlace, total=False):
    """A tab stop of a paragraph or style: its position, alignment and leader."""

    leader: str  # "dot", "hyphen", ...


class ParagraphFormat(TypedDict, total=False):
    """A paragraph's formatting as written (a paragraph's, a style's): what it sets, an off flag included."""

    alignment: str  # "left", "center", "right", "justify", ...
    spacing: Spacing
    indent: Indent
    keep_with_next: bool
    keep_together: bool
    page_break_before: bool
    contextual_spacing: bool
    shading: str | None  # a fill colour; None takes away a style's shading
    border: Borders
    rtl: bool
    tabs: list[TabStop]


class TableFormat(TypedDict, total=False):
    """A table's (or a table style's) alignment, borders, width, layout, indent and default cell margins."""

    alignment: str
    borders: Borders
    width: str  # "3.5cm" or "50%"
    autofit: bool  # False: a fixed layout
    indent_cm: float | None
    cell_margins_cm: dict[str, float | None]  # by side


# --- paragraphs and tables ----------------------------------------------------------------------------------


class _ListPlace(TypedDict):
    num_id: int | str
    level: int


class ListInfo(_ListPlace, total=False):
    """The list a paragraph is an item of."""

    format: str  # "decimal", "bullet", "lowerLetter", ...
    level_text: str  # "%1." with a placeholder per level
    kind: str  # "bullet" or "numbered"
    indent: Indent  # the level's
    by_style: bool  # the paragraph's style makes it a list item
    label: str  # the number it shows, counted in document order ("3.", "2.1")


class _ParagraphText(TypedDict):
    id: str
    text: str
    style: str  # the paragraph style's name
    runs: list[Run]


class CellParagraph(_ParagraphText, ParagraphFormat, total=False):
    """A paragraph in a table cell (a story's paragraphs are :class:`Paragraph`)."""

    list: ListInfo
    images: list[str]  # the ids of its drawings
    objects: list[str]  # what else it holds: "control CheckBox1" (ActiveX), "embedded Excel.Sheet.12", "text box"
    frame: bool  # a frame (w:framePr): a positioned box, seen even empty
    content_control: str  # the name of the content control it is in
    ends_section: bool


class Paragraph(CellParagraph):
    """A paragraph of a story (the body, a header or a footer), in document order."""

    index: int
    section: int


class CellLocation(TypedDict):
    """Where a paragraph in a table cell is: the table's id, the row and the column."""

    table: str
    row: int
    col: int


class Cell(TypedDict, total=False):
    """A cell of ``Table.cell_details``: a cell's contents and properties, or a ``{"gap": True}`` grid position no cell
    takes (``w:gridBefore``, a short row)."""

    text: str
    paragraphs: list[CellParagraph]
    shading: str
    vertical_alignment: str
    borders: Borders
    width: str
    margins_cm: dict[str, float | None]
    text_direction: str
    span: int  # the grid columns it spans
    merged_into: str  # "above": it continues the cell above it
    gap: bool


class _TableShape(TypedDict):
    id: str
    index: int
    style: str | None
    rows: int
    cols: int
    cells: list[list[str]]  # each cell's text; "" for a merged or missing cell
    cell_details: list[list[Cell | None]]  # None where a cell spans from the left
    column_widths_cm: list[float | None]
    row_heights_cm: list[float | None]
    merged: list[list[int]]  # [first_row, first_col, last_row, last_col] of each merged region


class Table(_TableShape, TableFormat, total=False):
    """A table, nested ones included (in document order)."""

    after_paragraph: str | None  # a table of a story: the paragraph before it
    nested_in: CellLocation  # a table in a cell: that cell
    header_rows: list[int]
    exact_height_rows: list[int]


# --- images ---------------------------------------------------------------------------------------------------


class AnchorPosition(TypedDict, total=False):
    relative_to: str | None  # "page", "margin", "column", "paragraph", ...
    align: str
    offset_cm: float | None


class ChartSeries(TypedDict):
    """One data series of a chart: its name and values."""

    name: str
    values: list[float | int | None]


class _ImagePlace(TypedDict):
    id: str
    type: str  # "picture", "chart" or "shape"
    placement: str  # "inline", "floating" or "vml"
    paragraph: str | None
    run_index: int  # its place in the paragraph's runs
    sequence: int  # its place among the story's drawings


class Image(_ImagePlace, total=False):
    """A drawing: a picture, a chart (with its data) or a shape."""

    width_cm: float
    height_cm: float
    width: str | None  # a VML picture's CSS width ("120pt")
    height: str | None
    name: str
    alt_text: str | None
    wrap: str  # a floating drawing's text wrapping: "square", "tight", "top_bottom", "behind", "in_front", ...
    position: dict[str, AnchorPosition]  # "horizontal", "vertical"
    file: str  # the picture's part name, or "(linked)"
    image_hash: str
    crop: dict[str, float]  # "top_pct", ...
    text: str  # a shape's text
    chart_type: str | list[str]  # "bar", "column", "line", "pie", ...; a list for a combined chart
    title: str
    legend: str | None  # its position ("r", "b", ...)
    categories: list[str | None]
    series: list[ChartSeries]
    chart_error: str  # the chart part could not be read


# --- page layout ---------------------------------------------------------------------------------------------


class _WatermarkType(TypedDict):
    type: str  # "text" or "picture"


class Watermark(_WatermarkType, total=False):
    """A header's watermark: its text (or picture), colour, layout and font."""

    text: str
    color: str
    layout: str  # "diagonal" or "horizontal"
    font: str


class _HyperlinkText(TypedDict):
    paragraph: str | None
    text: str
    offset: int  # characters of the paragraph before it


class Hyperlink(_HyperlinkText, total=False):
    """A hyperlink: where it is, its text, and its URL or the bookmark it goes to."""

    url: str
    anchor: str  # a bookmark's name


class _StoryText(TypedDict):
    part: str  # "header1.xml"
    text: str
    paragraphs: list[str]  # ids
    paragraph_details: list[Paragraph]
    linked_to_previous: bool


class Story(_StoryText, total=False):
    """A header or footer of a section (``layout.STORY_DETAILS`` are its contents in full, for the judge)."""

    alignments: list[str | None]  # each paragraph's
    page_number: bool
    fields: list[str]  # field codes, in order
    watermark: Watermark
    tables: list[str]
    table_details: list[Table]
    images: list[str | None]
    image_details: list[Image]
    hyperlinks: list[Hyperlink]


class _ColumnCount(TypedDict):
    count: int


class Columns(_ColumnCount, total=False):
    """A section's text columns: how many, the separator line and the spacing."""

    separator: bool
    space_cm: float | None
    widths_cm: list[float | None]  # unequal columns: each one's width
    spaces_cm: list[float | None]  # and the space after it


class LineNumbering(TypedDict):
    count_by: int
    start: int
    restart: str


class _SectionShape(TypedDict):
    index: int
    start: str  # "nextPage", "continuous", ...
    columns: Columns
    different_first_page: bool
    different_odd_even: bool
    headers: dict[str, Story]  # by kind: "default", "first", "even"
    footers: dict[str, Story]
    page_numbers: list[str]  # the stories showing one: "header:default", ...
    watermark: str | None


class Section(_SectionShape, total=False):
    """A section: page size, orientation, margins, columns, headers, footers and page numbers."""

    page_width_cm: float | None
    page_height_cm: float | None
    orientation: str
    margins_cm: dict[str, float | None]  # "top", "bottom", "left", "right", "header", "footer", "gutter"
    page_numbering: dict[str, str]  # "start", "format"
    vertical_alignment: str
    page_borders: dict[str, Any]  # the sides (BorderLine) and "measured_from"
    line_numbering: LineNumbering


class _TocEntries(TypedDict):
    present: bool
    entries: list[str]


class TableOfContents(_TocEntries, total=False):
    """The document's table of contents: whether there is one, its entries and field."""

    paragraph: str
    instruction: str
    levels: str  # "1-3"


class TableOfFigures(TypedDict):
    """A table of figures: a TOC field listing the captions of a SEQ identifier (``\\c "Figure"``)."""

    paragraph: str
    instruction: str
    label: str  # the SEQ identifier, "Figure"; "" for a bare \c (listing by style)
    entries: list[str]


class _PageLayout(TypedDict):
    sections: list[Section]
    table_of_contents: TableOfContents | None


class PageLayout(_PageLayout, total=False):
    """The state's ``page_layout``: the sections, the table of contents and (only when there are) the tables of
    figures."""

    tables_of_figures: list[TableOfFigures]


# --- interactive elements ------------------------------------------------------------------------------------


class _BookmarkName(TypedDict):
    name: str
    paragraph: str | None


class Bookmark(_BookmarkName, total=False):
    """A bookmark: its name and the paragraph it starts in."""

    hidden: bool  # a name starting with "_"
    offset: int


class Break(TypedDict):
    """A line, page or column break: its paragraph and place in it."""

    paragraph: str | None
    offset: int


class _CommentText(TypedDict):
    id: int | str | None
    author: str | None
    initials: str | None
    text: str
    paragraphs: list[str]  # the paragraphs it is anchored in


class Comment(_CommentText, total=False):
    """A comment: author, text, the paragraphs it is anchored in and the text it is on."""

    commented_text: str  # the text it is on (none for a comment on a point)


class _NoteText(TypedDict):
    id: int | str | None
    text: str
    paragraph: str | None  # the paragraph of its reference mark


class Note(_NoteText, total=False):
    """A footnote or endnote: its text and where its reference mark is."""

    offset: int  # characters of the paragraph before its reference mark


class TrackedChange(TypedDict):
    """A tracked change (revision) in the document: its kind, paragraph, author and text."""

    type: str  # "insertion", "deletion", "formatting", "paragraph_formatting", ...
    paragraph: str | None
    author: str | None
    text: str


class Field(TypedDict):
    """A field (PAGE, REF, ...): its instruction and paragraph."""

    type: str  # "PAGE", "REF", ...
    instruction: str
    paragraph: str | None


class Interactive(TypedDict):
    """The state's ``interactive`` part: hyperlinks, bookmarks, breaks, comments, notes, revisions, fields."""

    hyperlinks: list[Hyperlink]
    bookmarks: list[Bookmark]
    line_breaks: list[Break]
    page_breaks: list[Break]
    column_breaks: list[Break]
    comments: list[Comment]
    footnotes: list[Note]
    endnotes: list[Note]
    tracked_changes: list[TrackedChange]
    fields: list[Field]  # all but the table of contents' field


# --- document information and styles ------------------------------------------------------------------------


class DocumentInfo(TypedDict):
    """The state's ``document_info``: the file's kind, counts, properties, protection, tracking."""

    file_type: str  # "document", "template", "macroEnabled", ...
    paragraph_count: int
    table_count: int
    section_count: int
    image_count: int
    chart_count: int
    comment_count: int
    word_count: int
    has_header: bool
    has_footer: bool
    track_changes: bool
    protection: str | None  # what editing protection allows ("readOnly", "forms", ...)
    core_properties: dict[str, str]  # "title", "author", ...
    custom_properties: dict[str, Any]


class StyleDefaults(CharacterFormat, total=False):
    """The document defaults' run formatting and theme fonts."""

    theme_fonts: dict[str, str]  # "major", "minor", "majorEastAsia", ...


class _StyleName(TypedDict):
    name: str
    id: str
    category: str  # "paragraph", "character", "table", "numbering"


class Style(_StyleName, CharacterFormat, ParagraphFormat, total=False):
    """A style in use, a custom style or a default one."""

    based_on: str
    table: TableFormat  # a table style's
    default: bool
    custom: bool


class Styles(TypedDict):
    """The state's ``styles``: the document defaults and the styles in use, custom or default."""

    defaults: StyleDefaults  # the document defaults' run formatting
    styles: list[Style]


class State(TypedDict):
    """The seven-part document state (the paper's Table 1), ``STATE_KEYS`` in this order."""

    document_info: DocumentInfo
    paragraphs: list[Paragraph]
    tables: list[Table]
    images: list[Image]
    page_layout: PageLayout
    interactive: Interactive
    styles: Styles


def header_footer_stories(state: State, once: bool = False) -> list[tuple[int, str, Story]]:
    """The headers and footers of the state's sections, in order, as (section index, "header:default", story);
    `once`: each part only where it is first shown (a section linked to the previous one, or referencing the same
    part, shows that story again)."""
    out: list[tuple[int, str, Story]] = []
    shown: set[str | None] = set()
    for i, section in enumerate((state.get("page_layout") or {}).get("sections", [])):
        for key in ("headers", "footers"):
            for kind, story in (section.get(key) or {}).items():
                if not (once and story.get("part") in shown):
                    out.append((i, f"{key[:-1]}:{kind}", story))
                    shown.add(story.get("part"))
    return out
