"""Builders of DWBench's initial documents: reports, letters, contracts, CVs, minutes, papers,
newsletters, manuals and forms in English and Chinese, from the content in ``data/content.json``.

The body (title, headings, paragraphs, a list, a table) is written with python-docx; the richer
parts (pictures, charts, captions, footnotes, comments, headers, TOC, links, bookmarks, a second
section) are added with our own APIs, so they are exactly what the APIs produce. A few documents
get tracked changes (written as XML: no API creates them) so accepting/rejecting them can be asked.
"""

from __future__ import annotations

import io
import json
import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import docx
from lxml import etree

from autodw.core.document import WordDocument
from autodw.core.xml import qn

DATA_DIR = Path(__file__).resolve().parent / "data"
ASSETS_DIR = DATA_DIR / "assets"
"""Images the benchmark's insert/replace calls use (paths in gold calls are relative to it)."""

KINDS = ("report", "letter", "contract", "cv", "minutes", "paper", "newsletter", "manual", "form")
IMAGES = {"logo.png": ((200, 80), (31, 78, 121)), "photo.png": ((320, 200), (112, 160, 80)),
          "diagram.png": ((300, 300), (200, 120, 40)), "map.png": ((400, 240), (90, 90, 160))}


@lru_cache(maxsize=1)
def content() -> dict[str, Any]:
    """The document content pools (organisations, people, per-kind text in both languages)."""
    return json.loads((DATA_DIR / "content.json").read_text(encoding="utf-8"))


def make_assets(folder: Path = ASSETS_DIR) -> list[Path]:
    """Write the small benchmark pictures (plain coloured PNGs with a frame) if missing."""
    from PIL import Image, ImageDraw

    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, (size, colour) in IMAGES.items():
        path = folder / name
        if not path.exists():
            img = Image.new("RGB", size, colour)
            ImageDraw.Draw(img).rectangle([8, 8, size[0] - 9, size[1] - 9], outline=(255, 255, 255), width=4)
            img.save(path, optimize=True)
        out.append(path)
    return out


@dataclass
class DocSpec:
    """What one generated document contains: kind, language, organisation and optional parts."""

    name: str
    kind: str
    lang: str
    org: str
    person: str
    scale: float
    features: set[str] = field(default_factory=set)


FEATURES = ("image", "chart", "footnote", "comment", "header", "toc", "hyperlink", "bookmark", "section", "tracked", "caption")


def random_spec(name: str, kind: str, lang: str, rng: random.Random) -> DocSpec:
    """A document spec with a random organisation, person, number scale and feature set."""
    c = content()
    feats = {f for f in FEATURES if rng.random() < {"toc": 0.3, "tracked": 0.35, "section": 0.3, "hyperlink": 0.35,
                                                    "bookmark": 0.3, "chart": 0.6}.get(f, 0.5)}
    if kind in ("letter", "form"):
        feats -= {"toc", "chart", "section"}
    return DocSpec(name, kind, lang, rng.choice(c["orgs"][lang]), rng.choice(c["people"][lang]),
                   rng.choice((1, 1, 1.1, 0.9, 1.25, 0.8)), feats)


def build(spec: DocSpec) -> bytes:
    """The .docx bytes of the document described by `spec` (deterministic for a given spec)."""
    from autodw.apis import execute

    block = content()["kinds"][spec.kind][spec.lang]
    fill = lambda s: str(s).replace("{org}", spec.org).replace("{person}", spec.person)  # noqa: E731
    d = docx.Document()
    d.core_properties.author = spec.person
    d.core_properties.title = fill(block["title"])
    d.add_heading(fill(block["title"]), level=0)
    lst, table = block.get("list"), block.get("table")
    for i, section in enumerate(block["sections"]):
        if section["heading"]:
            d.add_heading(fill(section["heading"]), level=1)
        if table and table["section"] == i and spec.kind == "form":
            _add_table(d, table, fill, spec.scale)
        for j, text in enumerate(section["paragraphs"]):
            d.add_paragraph(fill(text))
            if lst and lst["section"] == i and j == lst.get("after", 0):
                for item in lst["items"]:
                    d.add_paragraph(fill(item), style="List Bullet")
        if table and table["section"] == i and spec.kind != "form":
            _add_table(d, table, fill, spec.scale)
    buf = io.BytesIO()
    d.save(buf)
    doc = WordDocument.from_bytes(buf.getvalue(), name=spec.name)
    doc.asset_roots = [ASSETS_DIR]
    _add_features(doc, spec, block, fill, execute)
    return doc.to_bytes()


def _add_table(d, table: dict, fill, scale: float) -> None:
    rows = [table["header"], *table["rows"]]
    t = d.add_table(rows=len(rows), cols=len(table["header"]))
    t.style = "Table Grid"
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if isinstance(value, (int, float)) and r > 0 and not (c == 0 or 1900 < value < 2100):
                value = int(round(value * scale))
            t.cell(r, c).text = fill(value)


def _paragraphs(doc: WordDocument) -> list[tuple[str, str, str]]:
    """(id, style, text) of the body's top-level paragraphs."""
    out = []
    for el in doc.body.iterchildren(qn("w:p")):
        pid = el.get("{urn:autodw:element-ids}id")
        style = el.find(f"{qn('w:pPr')}/{qn('w:pStyle')}")
        text = "".join(t.text or "" for t in el.iter(qn("w:t")))
        out.append((pid, style.get(qn("w:val")) if style is not None else "Normal", text))
    return out


def _add_features(doc: WordDocument, spec: DocSpec, block: dict, fill, execute) -> None:
    rng = random.Random(spec.name)
    paras = _paragraphs(doc)
    body = [p for p in paras if p[1] == "Normal" and p[2]]
    headings = [p for p in paras if p[1].startswith("Heading")]
    tables = doc.ids("t")
    f = spec.features
    if "caption" in f and tables and spec.kind != "form":
        execute(doc, "insert_caption", {"target": tables[0], "text": fill(block["table"]["header"][0]) + (" overview" if spec.lang == "en" else "一览")})
    if "chart" in f and block.get("chart") and headings:
        ch = block["chart"]
        anchor = _last_of_section(paras, headings, ch["section"])
        series = [{"name": s["name"], "values": [round(v * spec.scale) if spec.kind != "report" else v for v in s["values"]]} for s in ch["series"]]
        execute(doc, "insert_chart", {"position": {"after": anchor}, "chart_type": rng.choice(["column", "bar", "line"]),
                                      "categories": ch["categories"], "series": series, "title": ch["title"],
                                      "width": "12cm", "height": "7cm"})
    if "image" in f:
        target = body[min(1, len(body) - 1)][0]
        execute(doc, "insert_image", {"path": rng.choice(["photo.png", "diagram.png", "map.png"]), "position": {"after": target},
                                      "width": "6cm", "alignment": "center"})
    if "footnote" in f and body:
        execute(doc, "insert_footnote", {"paragraph": rng.choice(body[:3])[0], "text": fill(block["footnote"])})
    if "comment" in f and len(body) > 2:
        execute(doc, "insert_comment", {"paragraph": rng.choice(body[2:])[0], "text": fill(block["comment"]),
                                        "author": rng.choice(content()["people"][spec.lang])})
    if "header" in f:
        execute(doc, "set_header_footer", {"section": "all", "where": "header", "text": fill(block["header"]), "alignment": "right"})
        if rng.random() < 0.5:
            execute(doc, "insert_page_numbers", {"section": "all", "where": "footer", "alignment": "center",
                                                 "template": "{PAGE}" if spec.lang == "zh" else "Page {PAGE}"})
    if "hyperlink" in f and body:
        url = "https://www.example.org/" + spec.kind
        execute(doc, "insert_hyperlink", {"paragraph": body[-1][0], "text": " (details)" if spec.lang == "en" else "（详情）", "url": url})
    if "bookmark" in f and len(headings) > 2:
        execute(doc, "add_bookmark", {"name": f"sec_{spec.kind}", "paragraph": headings[-1][0]})
    if "section" in f and len(headings) > 2:
        before_last = _previous_paragraph(paras, headings[-1][0])
        execute(doc, "insert_section_break", {"after": before_last, "start": "new_page"})
    if "toc" in f and len(headings) > 2:
        execute(doc, "insert_toc", {"position": {"after": paras[0][0]}, "levels": "1-2",
                                    "title": "Contents" if spec.lang == "en" else "目录"})
    if "tracked" in f and len(body) > 1:
        _add_tracked_change(doc, body[1][0], spec)


def _last_of_section(paras, headings, section: int) -> str:
    """Id of the last top-level paragraph of the `section`-th heading's section."""
    start = [p[0] for p in paras].index(headings[min(section, len(headings) - 1)][0])
    end = len(paras)
    for k in range(start + 1, len(paras)):
        if paras[k][1].startswith("Heading"):
            end = k
            break
    return paras[end - 1][0]


def _previous_paragraph(paras, pid: str) -> str:
    ids = [p[0] for p in paras]
    return ids[max(0, ids.index(pid) - 1)]


def _add_tracked_change(doc: WordDocument, pid: str, spec: DocSpec) -> None:
    """Wrap the paragraph's last run as a tracked deletion and add a tracked insertion after it."""
    el = doc.find(pid)
    runs = el.findall(qn("w:r"))
    if not runs:
        return
    author = spec.person
    date = "2025-03-01T09:00:00Z"
    last = runs[-1]
    dele = etree.SubElement(el, qn("w:del"), {qn("w:id"): "9001", qn("w:author"): author, qn("w:date"): date})
    last.addprevious(dele)
    dele.append(last)
    for t in last.iter(qn("w:t")):
        t.tag = qn("w:delText")
    ins = etree.SubElement(el, qn("w:ins"), {qn("w:id"): "9002", qn("w:author"): author, qn("w:date"): date})
    dele.addnext(ins)
    r = etree.SubElement(ins, qn("w:r"))
    t = etree.SubElement(r, qn("w:t"))
    t.text = " (revised wording pending)" if spec.lang == "en" else "（措辞待定）"
    t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
    doc.refresh_ids()
