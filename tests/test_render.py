"""Page pictures: page ranges, changed-page detection, the message when LibreOffice is missing, and (slow) real
renders of the sample: `autodw render`, the before/after picture and `autodw run --show`."""

from __future__ import annotations

import pytest
from PIL import Image

from autodw.interfaces import render
from autodw.apis import execute
from autodw.interfaces.cli import main
from autodw.core.document import WordDocument
from autodw.core.errors import ConfigError
from tests.rendering import require_renderer
from tests.conftest import EXAMPLES
from tests.test_cli_run import INSTRUCTIONS, cassette  # noqa: F401  (the recorded two-instruction run)


def test_page_ranges():
    assert render.parse_pages("2") == [2]
    assert render.parse_pages("1-3,5, 3") == [1, 2, 3, 5]
    for bad in ("0", "3-1", "a", "1-", ""):
        with pytest.raises(ConfigError, match="--pages must look like"):
            render.parse_pages(bad)


def test_changed_pages_by_pixels():
    white = Image.new("RGB", (40, 60), "white")
    dotted = white.copy()
    dotted.putpixel((10, 10), (0, 0, 0))
    assert render.changed_pages({1: white, 2: white}, {1: white.copy(), 2: dotted}) == [2]
    assert render.changed_pages({1: white}, {1: white, 2: white}) == [2]  # a new page
    assert render.changed_pages({1: white}, {1: white.resize((40, 61))}) == [1]
    row = render.side_by_side([white, dotted], ["before", "after"])
    assert row.size == (40 * 2 + 3 * render.GAP, 60 + render.LABEL_HEIGHT + 2 * render.GAP)


def test_missing_libreoffice_is_one_clear_error(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(render.shutil, "which", lambda name: None)
    assert main(["render", str(EXAMPLES / "report.docx"), "-o", str(tmp_path / "p.png")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: LibreOffice is not installed") and "apt-get install libreoffice-writer-nogui" in err
    assert err.count("\n") == 1 and not (tmp_path / "p.png").exists()


def test_render_refuses_bad_options(tmp_path, capsys):
    assert main(["render", str(EXAMPLES / "report.docx"), "-o", str(tmp_path / "p.jpg")]) == 2
    assert main(["render", str(EXAMPLES / "report.docx"), "--pages", "x", "-o", str(tmp_path / "p.png")]) == 2
    assert "-o must be a .png file" in capsys.readouterr().err


@pytest.mark.slow
def test_render_pages_of_the_sample(tmp_path, capsys):
    require_renderer()  # LibreOffice and poppler: skipped without them, a failure under CI
    out = tmp_path / "pages.png"
    assert main(["render", str(EXAMPLES / "report.docx"), "--pages", "1-2", "-o", str(out)]) == 0
    with Image.open(out) as both:
        assert both.width > both.height  # two pages side by side (the second is landscape)
    assert main(["render", str(EXAMPLES / "report.docx"), "--pages", "1", "-o", str(tmp_path / "one.png")]) == 0
    with Image.open(tmp_path / "one.png") as one:
        assert one.width < both.width / 2 + render.GAP and one.height < one.width * 1.6
    assert main(["render", str(EXAMPLES / "report.docx"), "--pages", "3", "-o", str(tmp_path / "no.png")]) == 2
    assert "the document has 2 page(s); there is no page 3" in capsys.readouterr().err


@pytest.mark.slow
def test_before_after_shows_only_the_changed_page():
    require_renderer()  # LibreOffice and poppler: skipped without them, a failure under CI
    doc = WordDocument.open(EXAMPLES / "report.docx")
    before = doc.to_bytes()
    methodology = next(pid for pid in doc.ids("p") if "unaudited" in "".join(doc.find(pid).itertext()))
    execute(doc, "set_paragraph_text", {"paragraph": methodology, "text": "Figures are audited."})
    picture, pages = render.before_after(before, doc.to_bytes())
    assert pages == [2]  # the appendix is on the second page; the first is untouched
    assert picture.height < 2 * picture.width  # one row: before and after
    assert render.before_after(before, before) == (None, [])


@pytest.mark.slow
def test_run_show_writes_the_before_after_picture(cassette, tmp_path, capsys):  # noqa: F811
    require_renderer()  # LibreOffice and poppler: skipped without them, a failure under CI
    out = tmp_path / "out.docx"
    code = main(["run", str(EXAMPLES / "report.docx"), "-i", INSTRUCTIONS[0], "-i", INSTRUCTIONS[1], "-o", str(out),
                 "--llm", f"replay:{cassette}", "--show"])
    printed = capsys.readouterr().out
    assert code == 0 and f"wrote {tmp_path / 'out.show.png'}: page(s) 2 before (left) and after (right)" in printed
    with Image.open(tmp_path / "out.show.png") as picture:
        assert picture.width > picture.height
