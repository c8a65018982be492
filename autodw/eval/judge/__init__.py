"""The deterministic judge: is the actual document equivalent to the expected one, and if not, why?

``judge(expected, actual)`` canonicalises both documents (see :mod:`autodw.eval.canonical`), aligns
their elements by content (never by id: two files number their elements independently), compares
them and returns a :class:`Verdict` whose differences each say *where* (the element described by
its text, e.g. ``paragraph "Quarterly results..." (p4)`` or ``table 1 "Region | Q1" row 3 cell 2``;
ids are those of the expected document) and *what* (``bold: expected yes, actual no``; colours labelled by the
named ranges they fall in, ``color: expected 1F4E79 (dark blue), actual FFFF99 (pale yellow)``).

The package, one module a part: :mod:`~autodw.eval.judge.comparer` (:func:`judge`: every part in document order),
:mod:`~autodw.eval.judge.paragraphs`, :mod:`~autodw.eval.judge.tables`, :mod:`~autodw.eval.judge.drawings`,
:mod:`~autodw.eval.judge.page_layout` (sections, headers and footers), :mod:`~autodw.eval.judge.interactive` (links,
bookmarks, breaks, comments, notes, fields), :mod:`~autodw.eval.judge.properties` (document properties, styles),
:mod:`~autodw.eval.judge.places` (the initial document's texts, for the free-text tolerance); under them
:mod:`~autodw.eval.judge.comparison` (values compared, paragraphs described), :mod:`~autodw.eval.judge.tolerances`,
:mod:`~autodw.eval.judge.alignment`, :mod:`~autodw.eval.judge.describe` and :mod:`~autodw.eval.judge.verdict`.

Canonicalisation (never a difference): element ids; rsids, proofing marks and ``_GoBack`` (not in the state);
``_Toc`` bookmarks (Word regenerates them, so the names a TOC's hyperlinks and PAGEREF fields give them do not count
either) and Word's other hidden bookmarks (names starting with "_", e.g. ``_Hlk``) unless a field or hyperlink
refers to them; run splits; explicit values equal to the inherited ones (formatting is compared as effective values:
document defaults (every run property they set), style chain - font, size, bold, italic, colour (``auto`` on a run
takes away the style's), underline, strike, caps, hidden, raised or lowered text, highlight - a character
style's toggle properties (bold, italic, caps, strike, hidden...) turn over the paragraph style's -, paragraph
borders side by side, keep flags, contextual spacing, shading, direction, tab stops merged as Word merges them - a
layer's stop replaces the one at its position, a "clear" stop takes it away; an off flag or an automatic fill takes
away what a style gives -, a list level's indent (over the paragraph style's, under it when the style gives the
list), direct formatting, theme fonts as the theme part's fonts, an indent in characters or a
spacing in lines as Word reads it - the count when it is not 0 (each attribute inherited on its own), the length
written beside it then not compared; automatic spacing before or after over both -, for runs as for styles; in body
paragraphs, table cells and header and footer paragraphs alike; styles themselves by what they give, resolved along
their chain, a table style as a table of it); tables as effective properties (the table style's alignment, borders,
width, layout, indent and default cell margins under the table's own; alignment left, indent 0, cell margins Word's
0.19 cm left and right, cell vertical alignment top and text direction lrTb by default) and cells as effective
properties (a cell's own border sides and margins over the table's, a border side of its own against the table's
line at its place, a side it does not set its neighbour's opposite side where the neighbour sets it - the line
between two cells written on either cell -, an automatic or zero cell width as its grid columns); colour ``auto`` vs ``000000`` (text and
lines); image file and drawing names; list numbering ids (the list kind, level, number format and the label each
item shows, counted as Word counts, are compared); a header or footer linked to the previous section vs an
identical copy; core properties that saving changes (revision, last modified by); comment and note ids; what Word
does not draw: one column's spacing and separator, decimal page numbers, a row height "auto" or 0, a field's
``\\* MERGEFORMAT`` and ``\\* Arabic`` switches and the case of its name.

Effective run formatting: bold, italic, underline, strike, double strike, caps, small caps, hidden, superscript,
subscript, font, East Asian font, size, colour, highlight, shading, character spacing, raised or lowered position,
width scale, outline, shadow, emboss and imprint.

Besides texts, styles and effective formatting, the judge compares properties that show on the page but are easy to
leave out: each side of a paragraph, table or cell border (style, width, colour, distance from the text, shadow; a
cell's sides where either cell sets them); a cell's width (its ``w:tcW``, what Word lays out by, where either side's is out of step with its grid
columns: else the column widths say it), margins (where either cell sets them) and text direction; a table's indent;
where a line, page or column break sits (a column break recorded as a page break is, with no character in the text);
the order of the paragraphs of a cell, a header or a footer; a header's or footer's tables, pictures and hyperlinks
as the body's (cells, size, image, target); the text a comment is on (not only its paragraph); where a footnote's or
endnote's reference mark sits in its paragraph (the text before it, when both paragraphs have the same text); a
picture's image (a digest of its bytes, so "replace the picture" left undone is seen while file names still do not
count) and its cropping; a section's page borders, the text's vertical alignment on the page, line numbers and
columns of unequal widths; a header's or footer's fields in order (PAGE and NUMPAGES swapped is "Page 5 of 1").

Tolerances a person would accept (each tested in tests/test_judge.py or tests/test_judge_formatting.py):

| tolerance | rule | applies |
|---|---|---|
| whitespace at the ends of texts | texts are compared with leading and trailing spaces and line ends removed; not tabs (a tab at the start indents the text) | always |
| formatting of spaces | bold, italic, font, size, colour, raised or lowered position, outline, shadow, emboss and imprint of whitespace-only stretches are not compared (underline, strike, highlight and shading are: they show on spaces; so are character spacing and width scale: they widen a space as any character) | always |
| lengths | centimetre values within 0.05 cm (page size, margins, indents, image size, column widths, table width and indent, cell widths and margins) | always |
| spacing | paragraph spacing within 0.5 pt, line spacing within 0.01 lines (indents in characters and spacing in lines, stored in hundredths, exactly; a run's character spacing and position exactly, as its size: a spacing adds up along a line) | always |
| border widths | paragraph, table and cell border widths within 0.125 pt (Word stores eighths of a point) | always |
| cropping | each side of a picture's crop within 0.5 % (a side not cropped: 0 %) | always |
| named colours | a colour the instruction names in words ("blue", "蓝色") matches any colour of that name, from the HSV ranges in ``colour_names.json`` ("blue" accepts 0000FF and 0070C0, not 00B050; light and pale names cover Word's theme tints and the web colours of that name: "light green" accepts E2EFDA, C6EFCE and 90EE90, "pale yellow" FFF2CC and FFFF99; an automatic text or line colour counts as 000000, so "black" accepts 0D0D0D against it) | only when ``instruction`` names the colour, and only for colours both sides have of that name; with ``initial`` given, only for colours the expected document has more of than the initial one (a run's colour counted by its characters: those the instruction set; a heading it left alone is compared exactly) |
| free text | a text the instruction asks the system to write is judged by its place, style, formatting (the format of most of its characters) and length (at least a third of the expected text's length, not empty), not by its words | only with ``free_text=True``; not for texts the instruction dictates (quoted: "...", '...', “...”, 「...」, or written out as they are: "set the cell to 105"; a quoted part of a text must be in the actual one); with ``initial`` given, not for a text the initial document has at the same place (the paragraph, cell, header or footer aligned with it, of one paragraph or several), on either side (an existing text to keep, or one left as it was) |
| the instruction's own | a colour of a named family matches any colour of it (``{"colour": "dark blue"}``, by the ranges of the named-colour rule); a numeric property, by its state key, within a margin (``{"key": "size_pt", "within": 4}``: "make it a bit bigger"); a heading at any of several levels (``{"heading_levels": [2, 3]}``: "Heading 2" and "Heading 3", or "标题 2" and "标题 3", alike; level 0 is the Title; the expected paragraph is then compared at the actual one's level) | only with ``tolerances`` (an instruction's ``accept.tolerances``); each one that turns a difference into a match is named in the verdict's ``tolerances_used`` ("size_pt within 4", "colour dark blue", "heading levels 2-3") |
"""

from autodw.eval.judge.alignment import Alignment, align
from autodw.eval.judge.comparer import judge
from autodw.eval.judge.describe import show, snippet
from autodw.eval.judge.tolerances import (BORDER_TOLERANCE, CM_TOLERANCE, CROP_TOLERANCE, FREE_TEXT_MIN_RATIO,
                                          LINE_TOLERANCE, PT_TOLERANCE, JudgeContext, colour_counts, trimmed)
from autodw.eval.judge.verdict import JUDGE_VERSION, MAX_DIFFERENCES, Difference, Verdict

__all__ = ["judge", "Verdict", "Difference", "JUDGE_VERSION", "MAX_DIFFERENCES", "JudgeContext", "Alignment", "align",
           "snippet", "show", "trimmed", "colour_counts", "CM_TOLERANCE", "PT_TOLERANCE", "LINE_TOLERANCE",
           "BORDER_TOLERANCE", "CROP_TOLERANCE", "FREE_TEXT_MIN_RATIO"]
