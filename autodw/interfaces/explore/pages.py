"""Page pictures of an instruction's documents (initial, expected, actual) with the judge's differences outlined.

Each document is laid out once by the project's LibreOffice renderer (:mod:`autodw.interfaces.render`) and kept in a cache
keyed by the SHA-256 of its bytes (``$AUTODW_HOME/explore/pages``): its PDF, its words with their boxes (poppler's
``pdftotext -bbox``) and each page picture drawn (``pdftoppm``). A difference is outlined where the text it quotes
(the last quoted text of its ``where``: the cell, the paragraph) is found among a page's words.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from lxml import etree
from PIL import Image

from autodw.core.errors import AutodwError, ExternalToolError
from autodw.interfaces.explore.runs import Gap
from autodw.core.package import write_atomically
from autodw.core.paths import data_home
from autodw.interfaces.render import changed_pages, pdf_pages, to_pdf, to_pdfs

DPI = 72
SHOWN_PAGES = 4  # page rows of an instruction: the changed ones and those with an outlined difference first
DOCUMENTS = ("initial", "expected", "actual")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_PREFIX = 24  # characters of a quoted text tried alone when the whole is not on the page (it changed, or was cut)


@dataclass(frozen=True)
class Word:
    text: str
    box: tuple[float, float, float, float]  # left, top, right, bottom as fractions of the page


@dataclass
class Layout:
    """A document laid out: its digest and each page's words."""

    digest: str
    pages: list[list[Word]]


@dataclass(frozen=True)
class Outline:
    difference: int  # index into the unit's differences
    box: tuple[float, float, float, float]


@dataclass
class Cell:
    """One document's picture of one page, with the outlines on it."""

    picture: Path
    digest: str
    outlines: list[Outline] = field(default_factory=list)


@dataclass
class PageRow:
    number: int
    changed: bool
    cells: dict[str, Cell | None]  # None: the document has no such page


@dataclass
class Pictures:
    rows: list[PageRow] = field(default_factory=list)
    page_counts: dict[str, int] = field(default_factory=dict)
    located: dict[int, list[tuple[str, int]]] = field(default_factory=dict)  # difference -> (document, page)
    gaps: dict[str, Gap] = field(default_factory=dict)  # document -> why it has no pictures


class PageCache:
    """Laid-out documents and page pictures by document digest, under `root`."""

    def __init__(self, root: Path | None = None, dpi: int = DPI):
        self.root = Path(root) if root is not None else data_home() / "explore" / "pages"
        self.dpi = dpi

    def layout(self, docx: bytes) -> Layout:
        """The document laid out (from the cache, else by LibreOffice now); ExternalToolError if it cannot be."""
        digest = _digest(docx)
        words = self.root / digest / "words.json"
        if not words.is_file():
            self._store(digest, to_pdf(docx))
        pages = json.loads(words.read_text(encoding="utf-8"))
        return Layout(digest, [[Word(w[0], tuple(w[1:])) for w in page] for page in pages])

    def prepare(self, documents: Iterable[bytes]) -> None:
        """Lay out those of `documents` the cache lacks in one LibreOffice run (it starts once: several times faster
        than a run each); one it cannot lay out (or no LibreOffice) is left for :meth:`layout` to report."""
        todo: dict[str, bytes] = {}
        for docx in documents:
            digest = _digest(docx)
            if digest not in todo and not (self.root / digest / "words.json").is_file():
                todo[digest] = docx
        if len(todo) < 2:
            return
        try:
            pdfs = to_pdfs(list(todo.values()))
        except ExternalToolError:
            return
        for digest, pdf in zip(todo, pdfs):
            if not isinstance(pdf, ExternalToolError):
                self._store(digest, pdf)

    def _store(self, digest: str, pdf: bytes) -> None:
        """Keep a document's PDF and its words (written last: a folder with words.json is complete)."""
        folder = self.root / digest
        write_atomically(folder / "document.pdf", pdf)
        write_atomically(folder / "words.json", json.dumps(_word_boxes(folder / "document.pdf")).encode("utf-8"))

    def picture(self, digest: str, page: int) -> Path:
        """The picture of a page of a laid-out document (drawn now if not yet)."""
        path = self.root / digest / f"page-{page}-{self.dpi}.png"
        if not path.is_file():
            image = pdf_pages((self.root / digest / "document.pdf").read_bytes(), [page], self.dpi)[page]
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", optimize=True)
            write_atomically(path, buffer.getvalue())  # builds running at once may draw the same page
        return path


def _digest(docx: bytes) -> str:
    return hashlib.sha256(docx).hexdigest()[:32]


def _word_boxes(pdf: Path) -> list[list[list]]:
    """Each page's words as [text, left, top, right, bottom] (fractions of the page), from ``pdftotext -bbox``."""
    exe = shutil.which("pdftotext")
    if exe is None:
        raise ExternalToolError("poppler-utils is not installed (no pdftotext on PATH), so words cannot be located; "
                                "install it (Debian/Ubuntu: apt-get install poppler-utils)")
    with tempfile.TemporaryDirectory(prefix="autodw-words-") as tmp:
        out = Path(tmp) / "words.html"
        proc = subprocess.run([exe, "-bbox", str(pdf), str(out)], capture_output=True, text=True, timeout=120)
        if proc.returncode != 0 or not out.is_file():
            raise ExternalToolError(f"pdftotext could not read the words: {(proc.stderr.strip().splitlines() or ['?'])[-1]}")
        root = etree.parse(str(out), etree.XMLParser(recover=True, resolve_entities=False, no_network=True)).getroot()
    pages = []
    for page in root.iter("{*}page"):
        width, height = float(page.get("width")), float(page.get("height"))
        pages.append([[w.text or "", round(float(w.get("xMin")) / width, 5), round(float(w.get("yMin")) / height, 5),
                       round(float(w.get("xMax")) / width, 5), round(float(w.get("yMax")) / height, 5)]
                      for w in page.iter("{*}word")])
    return pages


def quoted_texts(where: str) -> list[str]:
    """The texts a difference's ``where`` quotes (its JSON strings), in order."""
    texts = []
    for match in _QUOTED.findall(where):
        try:
            texts.append(json.loads(match))
        except ValueError:
            continue
    return texts


def _squeezed(text: str) -> str:
    """`text` without white space, table-cell separators and a trailing ``...`` (how a quote is cut)."""
    text = text[:-3] if text.endswith("...") else text
    return "".join(text.replace(" | ", "").split())


def _find(joined: str, text: str, start: int) -> tuple[int, int] | None:
    """Where `text` (squeezed; else its first characters, when it is long: it changed, or was cut) is in `joined` from
    `start`: (position, length)."""
    needle = _squeezed(text)
    for candidate in (needle, needle[:_PREFIX] if len(needle) > _PREFIX + 4 else None):
        if candidate and (at := joined.find(candidate, start)) >= 0:
            return at, len(candidate)
    return None


def locate(where: str, page: list[Word]) -> list[tuple[float, float, float, float]]:
    """Boxes (one per line) around the element a difference's `where` names on `page`, found by the texts it quotes:
    the longest (the container: a table's first row, a paragraph) first, then the others (a cell, a run of text)
    after it, the innermost first; the container itself if none of them is there; [] if nothing is."""
    texts = quoted_texts(where)
    if not texts:
        return []
    joined, owners = "", []
    for n, word in enumerate(page):
        squeezed = "".join(word.text.split())
        joined += squeezed
        owners += [n] * len(squeezed)

    def boxes(span: tuple[int, int]) -> list[tuple[float, float, float, float]]:
        return _line_boxes([page[i] for i in sorted(set(owners[span[0]: span[0] + span[1]]))])

    container = max(range(len(texts)), key=lambda i: len(texts[i]))
    outer = _find(joined, texts[container], 0)
    for i in reversed(range(len(texts))):
        if i != container and (inner := _find(joined, texts[i], outer[0] if outer else 0)) is not None:
            return boxes(inner)
    return boxes(outer) if outer else []


def _line_boxes(words: list[Word]) -> list[tuple[float, float, float, float]]:
    """One box around the words of each line (words whose tops are within half a word's height)."""
    lines: list[list[Word]] = []
    for w in words:
        if lines and abs(lines[-1][0].box[1] - w.box[1]) < (w.box[3] - w.box[1]) / 2:
            lines[-1].append(w)
        else:
            lines.append([w])
    return [(min(w.box[0] for w in line), min(w.box[1] for w in line), max(w.box[2] for w in line),
             max(w.box[3] for w in line)) for line in lines]


def _words_differ(a: list[Word] | None, b: list[Word] | None) -> bool:
    return a is None or b is None or [(w.text, w.box) for w in a] != [(w.text, w.box) for w in b]


def pictures(documents: dict[str, bytes | Gap], differences: list[dict], cache: PageCache,
             limit: int = SHOWN_PAGES) -> Pictures:
    """The page rows to show of an instruction's documents: the pages where a difference is outlined, then those
    whose words or pixels differ between the documents, up to `limit` rows; the first page if none differs. The
    pixels of a document of more than `limit` pages are compared only on the pages its words or outlines choose."""
    out = Pictures()
    layouts: dict[str, Layout] = {}
    for name in (n for n in DOCUMENTS if n in documents):
        document = documents[name]
        if isinstance(document, Gap):
            out.gaps[name] = document
            continue
        try:
            layouts[name] = cache.layout(document)
        except AutodwError as exc:  # LibreOffice or poppler missing or failing on this document
            out.gaps[name] = Gap("pictures", str(exc))
    if not layouts:
        return out
    out.page_counts = {name: len(layout.pages) for name, layout in layouts.items()}
    outlines: dict[tuple[str, int], list[Outline]] = {}
    for n, difference in enumerate(differences):
        for name, layout in layouts.items():
            for number, page in enumerate(layout.pages, 1):
                if boxes := locate(str(difference.get("where", "")), page):
                    outlines.setdefault((name, number), []).extend(Outline(n, b) for b in boxes)
                    out.located.setdefault(n, []).append((name, number))
                    break
    total = max(out.page_counts.values())

    def words(name: str, number: int) -> list[Word] | None:
        layout = layouts.get(name)
        return layout.pages[number - 1] if layout and number <= len(layout.pages) else None

    pairs = [(a, b) for a, b in (("initial", "actual"), ("initial", "expected"), ("expected", "actual"))
             if a in layouts and b in layouts]
    by_words = {n for n in range(1, total + 1) if any(_words_differ(words(a, n), words(b, n)) for a, b in pairs)}
    with_outline = sorted({number for _, number in outlines})
    candidates = with_outline + [n for n in sorted(by_words) if n not in with_outline]
    # a short document is drawn whole, so that a change only its pixels show (a colour, a shading) is found too
    considered = candidates + [n for n in range(1, total + 1) if n not in candidates] if total <= limit else candidates
    rows = []
    for number in considered[:limit] or [1]:
        cells = {name: Cell(cache.picture(layout.digest, number), layout.digest, outlines.get((name, number), []))
                 if number <= len(layout.pages) else None for name, layout in layouts.items()}
        rows.append(PageRow(number, number in by_words or _pixels_differ(cells), cells))
    out.rows = [r for r in rows if r.changed or r.number in with_outline] or rows[:1]
    return out


def _pixels_differ(cells: dict[str, Cell | None]) -> bool:
    """Whether the drawn pictures of one page differ between any two documents (a colour, a shading)."""
    drawn = {}
    for name, cell in cells.items():
        if cell is not None:
            with Image.open(cell.picture) as image:
                drawn[name] = image.convert("RGB")
    names = list(drawn)
    return any(changed_pages({1: drawn[a]}, {1: drawn[b]}) for i, a in enumerate(names) for b in names[i + 1:])
