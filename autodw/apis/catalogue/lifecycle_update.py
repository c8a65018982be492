"""lifecycle_update APIs: document properties, custom properties, track changes (on/off, accept/reject),
protection, field refresh, export through LibreOffice, saving a copy, removing personal information."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from lxml import etree

from autodw.apis.ooxml import lifecycle as lc
from autodw.apis.ooxml import toc as toc_lib
from autodw.apis.ooxml.assets import resolve_asset
from autodw.apis.ooxml.comments import initials_of
from autodw.apis.ooxml.elements import insert_ordered, make, remove_children
from autodw.apis.ooxml.fields import request_field_update
from autodw.apis.ooxml.parts import package_part, part_xml
from autodw.apis.ooxml.sections import settings_root
from autodw.apis.ooxml.sequences import renumber_seq_fields
from autodw.apis.registry import Example, api
from autodw.apis.schema import PARAGRAPH_IDS, boolean, enum, text
from autodw.core.document import WordDocument
from autodw.core.errors import ArgumentError, UnsupportedOperationError
from autodw.core.package import same_file, write_atomically
from autodw.core.xml import NS, qn

INTENT = "lifecycle_update"


# --- properties ------------------------------------------------------------------------------


@api(intent=INTENT,
     description="Set the document's built-in properties (File > Info): title, author, subject, keywords, category, "
                 "comments. An empty string clears a property; omitted ones stay as they are.",
     params={"title": text("document title"), "author": text("author name"), "subject": text("subject"),
             "keywords": text("keywords, e.g. \"sales; Q3; report\""), "category": text("category"),
             "comments": text("comments / description")},
     examples=[{"title": "Q3 Sales Report", "author": "Finance Team", "keywords": "sales; Q3"},
               {"subject": "Regional sales", "category": "Reports", "comments": "Draft for review"}])
def set_properties(doc: WordDocument, title: str | None = None, author: str | None = None, subject: str | None = None,
                   keywords: str | None = None, category: str | None = None, comments: str | None = None):
    """Set or clear core document properties."""
    values = {k: v for k, v in (("title", title), ("author", author), ("subject", subject), ("keywords", keywords),
                                ("category", category), ("comments", comments)) if v is not None}
    if not values:
        raise ArgumentError("give at least one of title, author, subject, keywords, category, comments")
    core = lc.properties_xml(doc, "core")
    for key, value in values.items():
        lc.set_core(core.root, key, value.strip())
    core.commit()
    return "set " + ", ".join(f"{k}={v.strip()!r}" if v.strip() else f"{k} cleared" for k, v in values.items())


_PROPERTY_NAME = {"type": "string", "minLength": 1, "maxLength": 255,
                  "description": "custom property name, e.g. \"Client\" or \"Project code\""}


@api(intent=INTENT,
     description="Set a custom document property (File > Properties > Custom), e.g. Client = \"Acme\" or "
                 "Approved = true, or remove one with remove=true. The value's JSON type picks the property type "
                 "(text, number, yes/no); type \"date\" stores an ISO date such as \"2025-03-31\".",
     params={"name": _PROPERTY_NAME,
             "value": {"description": "the value: text, number or true/false",
                       "anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]},
             "type": enum("property type (default: from the value)", ("text", "number", "boolean", "date")),
             "remove": boolean("delete the property instead of setting it")},
     examples=[{"name": "Client", "value": "Acme Corp"}, {"name": "Approved", "value": True}])
def set_custom_property(doc: WordDocument, name: str, value: Any = None, type: str | None = None, remove: bool = False):
    """Add, change or remove a custom document property."""
    if remove:
        custom = lc.properties_xml(doc, "custom", create=False)
        present = lc.custom_properties(custom.root) if custom is not None else {}
        if custom is None or not lc.set_custom(custom.root, name, None, None):
            raise ArgumentError(f"there is no custom property {name!r}; custom properties: {', '.join(present) or 'none'}")
        custom.commit()
        return f"removed custom property {name!r}"
    if value is None:
        raise ArgumentError("give a value (or remove=true)")
    vt_type, shown = lc.custom_value(value, type)
    custom = lc.properties_xml(doc, "custom")
    existed = lc.set_custom(custom.root, name.strip(), vt_type, shown)
    custom.commit()
    return f"{'changed' if existed else 'added'} custom property {name.strip()!r} = {shown!r} ({vt_type})"


@api(intent=INTENT,
     description="Remove personal information: the author and last-modified-by properties, the company and manager, "
                 "and the names on comments and tracked changes (replaced by a neutral name); also tells Word to "
                 "keep removing personal information when saving.",
     params={"replacement": text("name written instead of authors on comments and tracked changes (default \"Author\")", 1)},
     examples=[{}])
def remove_personal_info(doc: WordDocument, replacement: str = "Author"):
    """Strip author names and accounts from properties, comments and revisions."""
    done = []
    core = lc.properties_xml(doc, "core", create=False)
    if core is not None:
        for key in ("author", "last_modified_by"):
            prefix, local = lc.CORE_FIELDS[key]
            if core.root.find(f"{{{NS[prefix]}}}{local}") is not None:
                lc.set_core(core.root, key, None)
                done.append(key.replace("_", " "))
        core.commit()
    app_part = package_part(doc, RT.EXTENDED_PROPERTIES)
    if app_part is not None:
        app = part_xml(app_part, lambda: etree.Element(f"{{{lc.APP_NS}}}Properties"))
        for tag in ("Company", "Manager"):
            for el in app.root.findall(f"{{{lc.APP_NS}}}{tag}"):
                app.root.remove(el)
                done.append(tag.lower())
        app.commit()
    renamed = 0
    for root in lc.change_roots(doc):
        for el in root.iter():
            if el.get(qn("w:author")) not in (None, replacement):
                el.set(qn("w:author"), replacement)
                renamed += 1
            if el.tag == qn("w:comment") and el.get(qn("w:initials")) is not None:
                el.set(qn("w:initials"), initials_of(replacement))
    if renamed:
        done.append(f"{renamed} comment/revision author name(s)")
    for rel in doc.part.rels.values():  # word/people.xml lists reviewers with their accounts
        if not rel.is_external and rel.reltype.endswith("/people"):
            people = part_xml(rel.target_part, lambda: etree.Element("people"))
            for person in list(people.root):
                people.root.remove(person)
                done.append("a reviewer account")
            people.commit()
    settings = settings_root(doc)
    if settings.find(qn("w:removePersonalInformation")) is None:
        insert_ordered(settings, make("w:removePersonalInformation"))
    return ("removed " + ", ".join(dict.fromkeys(done)) if done else "no personal information was stored") + \
        "; Word will remove personal information on save"


# --- review ---------------------------------------------------------------------------------


@api(intent=INTENT,
     description="Turn Track Changes on or off (later edits in Word are recorded as revisions while it is on).",
     params={"on": boolean("true to record changes, false to stop")},
     examples=[{"on": True}])
def set_track_changes(doc: WordDocument, on: bool):
    """Switch revision tracking on or off."""
    settings = settings_root(doc)
    remove_children(settings, "w:trackRevisions")
    if on:
        insert_ordered(settings, make("w:trackRevisions"))
    return f"track changes turned {'on' if on else 'off'}"


@api(intent=INTENT,
     description="Accept or reject tracked changes: insertions, deletions, moves, formatting changes and "
                 "inserted/deleted paragraph marks. Accepting keeps inserted text and drops deleted text; rejecting "
                 "does the reverse. Optionally only one author's changes, or only those in some paragraphs.",
     params={"action": enum("what to do with the changes", ("accept", "reject")),
             "author": text("only changes by this author (as in the state's tracked_changes)"),
             "paragraphs": PARAGRAPH_IDS},
     examples=[Example({"action": "accept"}, document="examples/review.docx"),
               Example({"action": "reject", "author": "Alex"}, document="examples/review.docx")])
def resolve_tracked_changes(doc: WordDocument, action: str, author: str | None = None, paragraphs: list[str] | None = None):
    """Accept or reject tracked changes, optionally by author or paragraph."""
    roots = lc.change_roots(doc)
    scope = {doc.find(pid, "p") for pid in paragraphs} if paragraphs else None
    done = lc.resolve_changes(roots, action == "accept", author, scope)
    if not done:
        authors = lc.tracked_authors(roots)
        where = f" by {author!r}" if author else ""
        where += f" in {', '.join(paragraphs)}" if paragraphs else ""
        listing = ", ".join(f"{a} ({n})" for a, n in authors.most_common()) or "none"
        raise ArgumentError(f"there are no tracked changes{where}; changes by author: {listing}")
    verb = "accepted" if action == "accept" else "rejected"
    return f"{verb} " + ", ".join(f"{n} {kind}{'s' if n > 1 else ''}" for kind, n in sorted(done.items()))


_MODES = {"read_only": "readOnly", "comments": "comments", "tracked_changes": "trackedChanges", "forms": "forms"}


@api(intent=INTENT,
     description="Restrict editing (Word's Restrict Editing): read_only, comments (only comments allowed), "
                 "tracked_changes (every edit is tracked), forms (only form fields), or none to lift the restriction. "
                 "An optional password is stored as Word's salted SHA-512 hash; Word asks for it to stop the "
                 "protection. This is not encryption: the file still opens without a password.",
     params={"mode": enum("editing restriction", (*_MODES, "none")),
             "password": text("password needed to stop the protection in Word (optional)", 1)},
     examples=[{"mode": "read_only"}, {"mode": "comments", "password": "review2025"}])
def set_protection(doc: WordDocument, mode: str, password: str | None = None):
    """Set or lift Word's editing restriction, optionally with a password."""
    settings = settings_root(doc)
    old = settings.find(qn("w:documentProtection"))
    remove_children(settings, "w:documentProtection")
    if mode == "none":
        if password:
            raise ArgumentError("a password is only used when turning protection on; omit it with mode none",
                                omit=("password",))
        was = old.get(qn("w:edit")) if old is not None and old.get(qn("w:enforcement")) in ("1", "true", "on") else None
        return f"editing restriction removed (was {was})" if was else "the document had no enforced editing restriction"
    protection = make("w:documentProtection", w_edit=_MODES[mode], w_enforcement="1")
    if password:
        if len(password) > 255:
            raise ArgumentError("the password is too long (at most 255 characters)")
        for key, value in lc.protection_attributes(password).items():
            protection.set(qn(key), value)
    insert_ordered(settings, protection)
    extra = ""
    if mode == "tracked_changes" and settings.find(qn("w:trackRevisions")) is None:
        insert_ordered(settings, make("w:trackRevisions"))
        extra = "; track changes turned on"
    return f"editing restricted to {mode.replace('_', ' ')}" + (" with a password" if password else "") + extra


# --- fields ---------------------------------------------------------------------------------


@api(intent=INTENT,
     description="Update fields as far as possible without Word: renumber SEQ caption numbers, regenerate tables "
                 "of contents from the headings and tables of figures from the captions, refresh REF cross-references from their bookmarks, and (count_pages) "
                 "store LibreOffice's page count in NUMPAGES fields (Word may paginate slightly differently). PAGE and "
                 "PAGEREF numbers are computed when the document is displayed; Word is also asked to update every "
                 "field when it opens the file.",
     params={"count_pages": boolean("lay the document out with LibreOffice to store the page count (default true; "
                                    "skipped with a note when LibreOffice is missing)")},
     examples=[{"count_pages": True}])
def update_fields(doc: WordDocument, count_pages: bool = True):
    """Refresh the field results that can be computed without Word."""
    done = []
    seq = len(renumber_seq_fields(doc))  # first: a table of figures lists the captions with their numbers
    tocs = toc_lib.find_tocs(doc)
    for k in range(len(tocs)):
        toc_lib.regenerate(doc, toc_lib.find_tocs(doc)[k])
    figures = sum(f.figures is not None for f in tocs)
    if len(tocs) > figures:
        done.append(f"{len(tocs) - figures} table(s) of contents regenerated")
    if figures:
        done.append(f"{figures} table(s) of figures regenerated")
    ref = lc.refresh_ref_fields(doc)
    if seq:
        done.append(f"{seq} SEQ number(s) renumbered")
    if ref:
        done.append(f"{ref} cross-reference(s) refreshed")
    if count_pages:
        page_fields = [f for root in doc.id_roots() for f in lc.iter_fields(root)
                       if f.instruction.split(None, 1)[:1] and f.instruction.split(None, 1)[0].upper() == "NUMPAGES"]
        if page_fields:
            try:
                pages = lc.layout_page_count(doc)
            except UnsupportedOperationError as exc:
                done.append(f"page count not stored ({exc})")
            else:
                changed = sum(lc.set_field_result(f, str(pages)) for f in page_fields)
                done.append(f"NUMPAGES set to {pages} (LibreOffice's layout) in {changed} field(s)" if changed
                            else f"NUMPAGES already showed {pages}")
    request_field_update(settings_root(doc))
    done.append("Word will update all fields (page numbers included) when it opens the file")
    return "; ".join(done)


# --- export and save ------------------------------------------------------------------------

_EXTENSIONS = {"pdf": ".pdf", "odt": ".odt", "html": ".html", "txt": ".txt"}


def _target(doc: WordDocument, path: str, suffixes: tuple[str, ...], what: str) -> Path:
    resolved = resolve_asset(doc, path, must_exist=False, what=what)
    if resolved.suffix.lower() not in suffixes:
        raise ArgumentError(f"{what} {path!r} must end with {' or '.join(suffixes)}")
    if doc.source is not None and same_file(resolved, doc.source):
        raise ArgumentError(f"{what} {path!r} is the document being edited; choose another file name")
    if resolved.is_dir():
        raise ArgumentError(f"{what} {path!r} is a folder; give a file name")
    return resolved


@api(intent=INTENT,
     description="Export the document as it is now to PDF, ODT, HTML or plain text with LibreOffice (the document "
                 "itself is not changed). The path is relative to the allowed output folder; returns the written "
                 "path and, for PDF, the page count (LibreOffice's layout).",
     params={"path": text("output file, e.g. \"report.pdf\"; its extension must match the format", 1),
             "format": enum("output format (default: from the path's extension)", tuple(_EXTENSIONS))},
     examples=[{"path": "out/report.pdf"}],
     read_only=True, writes_files=True)
def export_document(doc: WordDocument, path: str, format: str | None = None):
    """Convert a copy of the document with LibreOffice (read-only)."""
    fmt = format or next((f for f, ext in _EXTENSIONS.items() if path.lower().endswith(ext)), None)
    if fmt is None:
        raise ArgumentError(f"cannot tell the format from {path!r}; give format (one of {', '.join(_EXTENSIONS)}) "
                            "or a path ending in .pdf, .odt, .html or .txt")
    target = _target(doc, path, (_EXTENSIONS[fmt],) + ((".htm",) if fmt == "html" else ()), "export path")
    with tempfile.TemporaryDirectory(prefix="autodw-export-") as tmp:
        files = lc.convert(doc, fmt, target.stem, Path(tmp))
        result: dict[str, Any] = {"path": str(target)}
        if fmt == "pdf":
            result["pages"] = lc.pdf_pages(files[0])
        write_atomically(target, files[0].read_bytes())
        for extra in files[1:]:  # pictures of an HTML export, next to it
            shutil.copyfile(extra, target.parent / extra.name)
    pages = f" ({result['pages']} pages)" if "pages" in result else ""
    result["message"] = f"exported to {target}{pages}"
    return result


@api(intent=INTENT,
     description="Save a copy of the document as it is now to another .docx file (inside the allowed folders; "
                 "never over the original; .dotx/.docm/.dotm documents keep their own extension). The agent saves the final result itself: use this only when a separate "
                 "copy is asked for.",
     params={"path": text("file name for the copy, e.g. \"report-v2.docx\"", 1)},
     examples=[{"path": "out/report-copy.docx"}],
     read_only=True, writes_files=True)
def save_copy(doc: WordDocument, path: str):
    """Write the current document to another .docx inside the allowed folders (read-only)."""
    target = _target(doc, path, (doc.extension,), "copy path")
    doc.save(target)
    return {"message": f"saved a copy to {target}", "path": str(target)}
