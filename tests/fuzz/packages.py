"""What a document carries that no edit may touch or follow: macros, and links to the outside.

- :func:`macro_trials`: every API, with arguments drawn from its schema and the document's ids, on the corpus's
  macro-enabled documents; after every call that edits, the saved file's ``word/vbaProject.bin`` (and its
  ``vbaData.xml``) are byte-identical to the input's.
- :func:`linked_document` and :class:`CountingServer`: a document whose hyperlink, linked picture, attached
  template and INCLUDEPICTURE / INCLUDETEXT fields point to a local server that counts the requests it gets;
  opening, reading, editing, updating fields and saving it must cause none.
"""

from __future__ import annotations

import http.server
import io
import threading
import zipfile
from pathlib import Path
from typing import Any

import docx
from docx.oxml.ns import qn
from lxml import etree

from tests.fuzz.draw import RandomDraw
from tests.fuzz.mutate import CORPUS, ROOT
from tests.fuzz.schema_draw import Context, value
from tests.fuzz.seams import ApiError, WordDocument, execute, extract_state, registry

MACRO_PARTS = ("word/vbaProject.bin", "word/vbaData.xml", "word/_rels/vbaProject.bin.rels")


def macro_documents() -> list[Path]:
    found = []
    for path in sorted(CORPUS.glob("other/*.docm")):
        try:
            with zipfile.ZipFile(path) as zf:
                if "word/vbaProject.bin" in zf.namelist():
                    found.append(path)
        except zipfile.BadZipFile:
            continue
    return found


def _macro_parts(data: bytes) -> dict[str, Any]:
    """The macro project and its data byte for byte; its relationships as (id, type, target) (python-docx writes
    every relationships part anew, with the same relationships)."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        out: dict[str, Any] = {n: zf.read(n) for n in MACRO_PARTS[:2] if n in zf.namelist()}
        if MACRO_PARTS[2] in zf.namelist():
            rels = etree.fromstring(zf.read(MACRO_PARTS[2]))
            out[MACRO_PARTS[2]] = sorted((r.get("Id"), r.get("Type"), r.get("Target")) for r in rels)
        return out


def macro_trials(path: Path, tries: int = 3, seed: str = "macro", skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """Each API (`tries` drawn calls until one edits) on the document at `path`; a list of the APIs after whose edit
    a macro part changed, and the edits made."""
    data = path.read_bytes()
    original = _macro_parts(data)
    doc = WordDocument.from_bytes(data, path.name)
    doc.asset_roots = [ROOT / "examples" / "images"]
    draw = RandomDraw(f"{seed}:{path.name}")
    changed, edited = [], []
    for spec in registry():
        if spec.writes_files or spec.name in skip:
            continue
        for _ in range(tries):
            ctx = Context.of(extract_state(doc), ["logo.png"])
            try:
                result = execute(doc, spec.name, value(draw, spec.parameters, ctx))
            except ApiError:
                continue
            if result.snapshot is None:
                break
            edited.append(spec.name)
            saved = doc.to_bytes()
            if _macro_parts(saved) != original:
                changed.append(spec.name)
            if WordDocument.from_bytes(saved, path.name).main_content_type != doc.main_content_type:
                changed.append(f"{spec.name} (content type)")
            break
    return {"document": path.name, "edited": edited, "changed": changed}


# --- links to the outside -----------------------------------------------------------------------------


class CountingServer:
    """A local HTTP server that counts every request (a fetch of any link in the document would be one)."""

    def __init__(self) -> None:
        hits: list[str] = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the standard library's name
                hits.append(self.path)
                self.send_response(404)
                self.end_headers()

            do_HEAD = do_POST = do_OPTIONS = do_PROPFIND = do_GET

            def log_message(self, *args: Any) -> None:
                pass

        self.hits = hits
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def linked_document(url: str) -> bytes:
    """A document linking outside in every way Word knows: a hyperlink, a linked (not embedded) picture, an attached
    template, INCLUDEPICTURE and INCLUDETEXT fields, all at `url`."""
    d = docx.Document()
    d.add_heading("Links", level=1)
    p = d.add_paragraph("See ")
    rid = d.part.relate_to(f"{url}/hyperlink", "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink",
                           is_external=True)
    link = etree.SubElement(p._p, qn("w:hyperlink"))
    link.set(qn("r:id"), rid)
    etree.SubElement(etree.SubElement(link, qn("w:r")), qn("w:t")).text = "the site"
    picture = d.add_paragraph().add_run().add_picture(str(ROOT / "examples" / "images" / "logo.png"))
    blip = next(picture._inline.iter(qn("a:blip")))
    linked = d.part.relate_to(f"{url}/linked.png", "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image",
                              is_external=True)
    blip.set(qn("r:link"), linked)
    for instr in (f' INCLUDEPICTURE "{url}/field.png" \\d ', f' INCLUDETEXT "{url}/text.docx" '):
        fld = etree.SubElement(d.add_paragraph()._p, qn("w:fldSimple"))
        fld.set(qn("w:instr"), instr)
        etree.SubElement(etree.SubElement(fld, qn("w:r")), qn("w:t")).text = "[field]"
    d.settings  # python-docx makes the settings part on first use
    settings = d.part.part_related_by("http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings")
    template = settings.relate_to(f"{url}/template.dotx", "http://schemas.openxmlformats.org/officeDocument/2006/"
                                                          "relationships/attachedTemplate", is_external=True)
    attached = etree.SubElement(settings.element, qn("w:attachedTemplate"))
    attached.set(qn("r:id"), template)
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    """``python -m tests.fuzz.packages macros [--out DIR]``: every API on every macro-enabled corpus document (three
    drawn calls each until one edits), into DIR/macros.json."""
    import argparse
    import json
    import sys

    from tests.fuzz.campaign import add_out_argument

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("what", choices=("macros",))
    ap.add_argument("--tries", type=int, default=3)
    add_out_argument(ap)
    args = ap.parse_args(argv)
    outcomes = [macro_trials(path, tries=args.tries) for path in macro_documents()]
    args.out.mkdir(parents=True, exist_ok=True)
    command = " ".join(["python -m tests.fuzz.packages", *(sys.argv[1:] if argv is None else argv)])
    (args.out / "macros.json").write_text(json.dumps({"command": command, "documents": outcomes}, indent=1) + "\n",
                                          encoding="utf-8")
    changed = sum(len(o["changed"]) for o in outcomes)
    print(f"{sum(len(o['edited']) for o in outcomes)} edits on {len(outcomes)} macro-enabled documents; "
          f"{changed} changed the macro project")
    return 1 if changed else 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
