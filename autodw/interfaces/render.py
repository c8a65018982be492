"""Pictures of pages: LibreOffice (headless) lays the document out as PDF, poppler's pdftoppm draws the pages,
Pillow puts them side by side and finds the pages an edit changed (pixel difference).

LibreOffice keeps its user profile in ``$AUTODW_HOME/libreoffice-profile`` (warm start: the first conversion
creates it, later ones skip that); conversions that share it take turns (file lock), since two LibreOffice
processes cannot use one profile at once.
"""

from __future__ import annotations

import argparse
import fcntl
import io
import re
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

from PIL import Image, ImageChops, ImageDraw, ImageFont

from autodw.core.errors import ConfigError, ExternalToolError
from autodw.core.paths import data_home

DEFAULT_DPI = 60
GAP = 16  # pixels between pages
LABEL_HEIGHT = 22
_INSTALL = "install it (Debian/Ubuntu: apt-get install libreoffice-writer-nogui poppler-utils)"


def soffice() -> str:
    """The LibreOffice executable; ExternalToolError saying how to install it when missing."""
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if found is None:
        raise ExternalToolError(f"LibreOffice is not installed (no soffice on PATH), so pages cannot be drawn; {_INSTALL}")
    return found


def pdftoppm() -> str:
    """poppler's pdftoppm; ExternalToolError saying how to install it when missing."""
    found = shutil.which("pdftoppm")
    if found is None:
        raise ExternalToolError(f"poppler-utils is not installed (no pdftoppm on PATH), so pages cannot be drawn; {_INSTALL}")
    return found


def parse_pages(spec: str) -> list[int]:
    """``"1-3,5"`` -> [1, 2, 3, 5] (page numbers from 1); ConfigError for anything else."""
    pages: list[int] = []
    for part in spec.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not m or int(m.group(1)) < 1 or (m.group(2) and int(m.group(2)) < int(m.group(1))):
            raise ConfigError(f"--pages must look like 2, 1-3 or 1,3-4 (pages count from 1), not {spec!r}")
        first = int(m.group(1))
        pages += range(first, int(m.group(2) or first) + 1)
    return sorted(set(pages))


def profile_dir() -> Path:
    """The LibreOffice user profile kept between renders."""
    return data_home() / "libreoffice-profile"


@contextmanager
def _profile(warm: bool, tmp: Path) -> Iterator[Path]:
    if not warm:
        yield tmp / "profile"
        return
    profile = profile_dir()
    profile.parent.mkdir(parents=True, exist_ok=True)
    with open(profile.with_name(profile.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield profile


def to_pdf(docx: bytes, warm: bool = True, timeout: float = 180) -> bytes:
    """The document laid out by LibreOffice as PDF bytes. `warm`: reuse the kept profile (else a fresh one)."""
    (pdf,) = to_pdfs([docx], warm, timeout)
    if isinstance(pdf, ExternalToolError):
        raise pdf
    return pdf


def to_pdfs(documents: Sequence[bytes], warm: bool = True, timeout: float = 180) -> list[bytes | ExternalToolError]:
    """Each document laid out as PDF bytes by one LibreOffice run (it starts once, which takes most of a
    conversion's time); in the place of a document it could not lay out, the ExternalToolError saying so.
    `timeout`: seconds per document."""
    exe = soffice()
    with tempfile.TemporaryDirectory(prefix="autodw-render-") as tmp_name:
        tmp = Path(tmp_name)
        sources = [tmp / ("document.docx" if len(documents) == 1 else f"document-{n}.docx") for n in range(len(documents))]
        for source, docx in zip(sources, documents):
            source.write_bytes(docx)
        limit = timeout * max(len(documents), 1)
        with _profile(warm, tmp) as profile:
            try:
                proc = subprocess.run([exe, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
                                       "--convert-to", "pdf", "--outdir", str(tmp), *map(str, sources)],
                                      capture_output=True, text=True, timeout=limit)
            except subprocess.TimeoutExpired:
                failed = ExternalToolError(f"LibreOffice did not lay the document out within {limit:.0f} s")
                return [failed for _ in documents]
        out: list[bytes | ExternalToolError] = []
        for source in sources:
            pdf = source.with_suffix(".pdf")
            if proc.returncode != 0 or not pdf.is_file():
                detail = ((proc.stderr or proc.stdout).strip().splitlines() or ["no output"])[-1]
                out.append(ExternalToolError(f"LibreOffice could not lay the document out: {detail}"))
            else:
                out.append(pdf.read_bytes())
        return out


def pdf_pages(pdf: bytes, pages: Sequence[int] | None = None, dpi: int = DEFAULT_DPI) -> dict[int, Image.Image]:
    """Page number -> picture, for `pages` (all when None). ConfigError names the page count if a page is missing."""
    exe = pdftoppm()
    with tempfile.TemporaryDirectory(prefix="autodw-pages-") as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "in.pdf").write_bytes(pdf)
        total = _page_count(tmp / "in.pdf")
        missing = [n for n in pages or () if n > total]
        if missing:
            raise ConfigError(f"the document has {total} page(s); there is no page {missing[0]}")
        cmd = [exe, "-png", "-r", str(dpi)]
        if pages:
            cmd += ["-f", str(min(pages)), "-l", str(max(pages))]
        proc = subprocess.run(cmd + [str(tmp / "in.pdf"), str(tmp / "page")], capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            raise ExternalToolError(f"pdftoppm could not draw the pages: {(proc.stderr.strip().splitlines() or ['?'])[-1]}")
        drawn = {int(re.search(r"-(\d+)\.png$", p.name).group(1)): p for p in tmp.glob("page-*.png")}
        wanted = list(pages) if pages else sorted(drawn)
        out = {}
        for n in wanted:
            with Image.open(drawn[n]) as im:
                out[n] = im.convert("RGB")
        return out


def _page_count(pdf: Path) -> int:
    from autodw.apis.ooxml.lifecycle import pdf_pages as count_pages

    return count_pages(pdf)


def render_pages(docx: bytes, pages: Sequence[int] | None = None, dpi: int = DEFAULT_DPI, warm: bool = True) -> Image.Image:
    """The chosen pages (all when None) drawn side by side, in one picture."""
    return side_by_side(list(pdf_pages(to_pdf(docx, warm=warm), pages, dpi).values()))


def side_by_side(images: Sequence[Image.Image], labels: Sequence[str] | None = None) -> Image.Image:
    """`images` in one row on a grey background, each with its label above it when `labels` are given."""
    top = LABEL_HEIGHT if labels else 0
    width = sum(im.width for im in images) + GAP * (len(images) + 1)
    height = max(im.height for im in images) + top + 2 * GAP
    canvas = Image.new("RGB", (width, height), (200, 200, 200))
    draw = ImageDraw.Draw(canvas)
    font = ImageFont.load_default(14)
    x = GAP
    for n, im in enumerate(images):
        if labels:
            draw.text((x, GAP // 2), labels[n], fill=(0, 0, 0), font=font)
        canvas.paste(im, (x, GAP + top))
        x += im.width + GAP
    return canvas


def stacked(rows: Sequence[Image.Image]) -> Image.Image:
    """`rows` one under the other."""
    canvas = Image.new("RGB", (max(r.width for r in rows), sum(r.height for r in rows)), (200, 200, 200))
    y = 0
    for r in rows:
        canvas.paste(r, (0, y))
        y += r.height
    return canvas


def changed_pages(before: dict[int, Image.Image], after: dict[int, Image.Image]) -> list[int]:
    """Pages whose pictures differ (a page only one side has counts as changed)."""
    out = []
    for n in sorted(set(before) | set(after)):
        a, b = before.get(n), after.get(n)
        if a is None or b is None or a.size != b.size or ImageChops.difference(a, b).getbbox() is not None:
            out.append(n)
    return out


def before_after(before: bytes, after: bytes, dpi: int = DEFAULT_DPI, warm: bool = True) -> tuple[Image.Image | None, list[int]]:
    """A picture of the pages that differ between two versions of a document: one row per changed page, the
    page before on the left and after on the right (a blank where a version has no such page). Returns
    (picture, changed page numbers); the picture is None when no page looks different."""
    old = pdf_pages(to_pdf(before, warm=warm), None, dpi)
    new = pdf_pages(to_pdf(after, warm=warm), None, dpi)
    changed = changed_pages(old, new)
    if not changed:
        return None, []
    size = next(iter(new.values())).size if new else next(iter(old.values())).size
    rows = []
    for n in changed:
        left, right = old.get(n), new.get(n)
        rows.append(side_by_side([left or _blank(size), right or _blank(size)],
                                 [f"before, page {n}" if left else f"before: no page {n}",
                                  f"after, page {n}" if right else f"after: no page {n}"]))
    return stacked(rows), changed


def _blank(size: tuple[int, int]) -> Image.Image:
    return Image.new("RGB", size, (235, 235, 235))


def save_picture(image: Image.Image, path: str | Path) -> Path:
    """Write `image` atomically as PNG (the path must end in .png)."""
    from autodw.core.package import write_atomically

    target = Path(path)
    if target.suffix.lower() != ".png":
        raise ConfigError(f"the picture is written as PNG: give a path ending in .png, not {target.name!r}")
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    write_atomically(target, buf.getvalue())
    return target


def render_command(args: argparse.Namespace) -> int:
    """``autodw render FILE [--pages 1-3] -o OUT.png``."""
    from autodw.core.document import WordDocument

    if not 20 <= args.dpi <= 300:
        raise ConfigError("--dpi must be between 20 and 300")
    pages = parse_pages(args.pages) if args.pages else None
    if Path(args.output).suffix.lower() != ".png":
        raise ConfigError(f"-o must be a .png file, not {args.output!r}")
    doc = WordDocument.open(args.file)
    picture = render_pages(doc.to_bytes(), pages, args.dpi)
    print(f"wrote {save_picture(picture, args.output)} ({picture.width}x{picture.height})")
    return 0


def show_run(before: str | Path, after: str | Path, picture: str | Path) -> str:
    """For ``autodw run --show``: write the before/after picture of the pages that differ between two files;
    returns the line to print."""
    image, pages = before_after(Path(before).read_bytes(), Path(after).read_bytes())
    if image is None:
        return "no page looks different after the run; no picture written"
    return f"wrote {save_picture(image, picture)}: page(s) {', '.join(map(str, pages))} before (left) and after (right)"
