"""Opening packages: every kind of bad file is refused with its own typed error and a clear message."""

from __future__ import annotations

import io
import os
import re
import zipfile
from pathlib import Path

import pytest

from autodw.core import package
from autodw.core.document import WordDocument
from autodw.core.errors import (
    CorruptPackageError,
    DocumentError,
    DocumentNotFoundError,
    EncryptedDocumentError,
    LegacyWordFormatError,
    MissingPartError,
    NotAWordDocumentError,
    NotAZipError,
    OutputPathError,
    PackageTooLargeError,
    StrictOOXMLError,
    UnreadableFileError,
)
from tests.conftest import corpus_file, docx_bytes, run_cli


def _rezip(data: bytes, edit) -> bytes:
    """Copy a zip, letting `edit(members)` change the dict of members first."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
    edit(members)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, blob in members.items():
            zf.writestr(name, blob)
    return buf.getvalue()


BLANK = docx_bytes(lambda d: d.add_paragraph("hello"))


@pytest.mark.parametrize(
    "data, error, words",
    [
        (b"", NotAZipError, "empty"),
        (b"hello world, plain text", NotAZipError, "not a zip"),
        (b"{\\rtf1 hello}", NotAZipError, "RTF"),
        (b"%PDF-1.7 ...", NotAZipError, "PDF"),
        (BLANK[: len(BLANK) // 2], NotAZipError, "truncated"),
    ],
)
def test_non_zip_input_is_refused_with_what_it_is(data, error, words):
    with pytest.raises(error, match=words):
        WordDocument.from_bytes(data, "x.docx")


def test_missing_content_types_is_not_an_ooxml_package():
    data = _rezip(BLANK, lambda m: m.pop("[Content_Types].xml"))
    with pytest.raises(MissingPartError, match="Content_Types"):
        WordDocument.from_bytes(data, "x.docx")


def test_strict_ooxml_is_refused():
    def strictify(m):
        m["_rels/.rels"] = m["_rels/.rels"].replace(
            b"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument",
            b"http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument")

    with pytest.raises(StrictOOXMLError, match="Strict"):
        WordDocument.from_bytes(_rezip(BLANK, strictify), "x.docx")


def test_missing_related_part_is_refused_naming_the_part():
    with pytest.raises(MissingPartError, match="word/styles.xml"):
        WordDocument.from_bytes(_rezip(BLANK, lambda m: m.pop("word/styles.xml")), "x.docx")


def test_wrong_main_content_type_says_what_the_package_is():
    def to_pptx(m):
        m["[Content_Types].xml"] = m["[Content_Types].xml"].replace(
            b"wordprocessingml.document.main+xml", b"presentationml.presentation.main+xml")

    with pytest.raises(NotAWordDocumentError, match="PowerPoint"):
        WordDocument.from_bytes(_rezip(BLANK, to_pptx), "x.docx")


def test_macro_enabled_and_template_content_types_open():
    for ct in (b"application/vnd.ms-word.document.macroEnabled.main+xml",
               b"application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml"):
        def retype(m, ct=ct):
            m["[Content_Types].xml"] = m["[Content_Types].xml"].replace(
                b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml", ct)

        doc = WordDocument.from_bytes(_rezip(BLANK, retype), "x.docm")
        assert doc.main_content_type == ct.decode()
        assert "hello" in doc.docx.paragraphs[0].text


def test_malformed_xml_is_a_corrupt_package():
    data = _rezip(BLANK, lambda m: m.__setitem__("word/document.xml", m["word/document.xml"][:-20]))
    with pytest.raises(CorruptPackageError, match="word/document.xml"):
        WordDocument.from_bytes(data, "x.docx")


@pytest.mark.parametrize("member, xml, message", [
    ("word/_rels/document.xml.rels", b"<<<", "word/_rels/document.xml.rels is not well-formed XML"),
    ("word/document.xml", b"<foo/>", r"its main part is not a WordprocessingML document \(its root is <foo>"),
    ("word/document.xml",
     b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>', r"no document body"),
    ("word/document.xml", b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
                          b'<w:body><w:p a="' + b"x" * 11_000_000 + b'"/></w:body></w:document>',
     "larger than the XML parser's limits allow"),
])
def test_a_damaged_part_is_a_corrupt_package_not_an_internal_error(member, xml, message, tmp_path):
    """A part's relationships that are not XML, a main part that is not a Word document or has no body, a part too
    large for the parser: each a one-line error (exit 2) naming the part, not a traceback."""
    data = _rezip(BLANK, lambda m: m.__setitem__(member, xml))
    with pytest.raises(CorruptPackageError, match=message) as caught:
        WordDocument.from_bytes(data, "x.docx")
    assert "\n" not in str(caught.value)
    path = tmp_path / "x.docx"
    path.write_bytes(data)
    done = run_cli("state", str(path))
    assert done.returncode == 2 and done.stderr.startswith("error: x.docx") and "Traceback" not in done.stderr


def test_a_main_part_without_its_content_type_entry_is_named_as_such():
    def drop_override(m):
        m["[Content_Types].xml"] = re.sub(rb'<Override[^>]*PartName="/word/document.xml"[^>]*/>', b"",
                                          m["[Content_Types].xml"])

    with pytest.raises(MissingPartError, match=r"no entry for the main part /word/document.xml \(the default for "
                                               r"\.xml, application/xml, is no document type\)"):
        WordDocument.from_bytes(_rezip(BLANK, drop_override), "x.docx")


def test_dtd_is_refused():
    def add_dtd(m):
        m["word/document.xml"] = m["word/document.xml"].replace(
            b"?>", b'?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>', 1)

    with pytest.raises(CorruptPackageError, match="DTD"):
        WordDocument.from_bytes(_rezip(BLANK, add_dtd), "x.docx")


def test_zip_bomb_guard(monkeypatch):
    monkeypatch.setattr(package, "MAX_UNCOMPRESSED_BYTES", 1000)
    with pytest.raises(PackageTooLargeError, match="expand"):
        WordDocument.from_bytes(BLANK, "x.docx")


def test_case_mismatched_part_name_is_repaired_and_reported():
    def rename(m):
        m["word/STYLES.xml"] = m.pop("word/styles.xml")

    doc = WordDocument.from_bytes(_rezip(BLANK, rename), "x.docx")
    assert any("case-insensitive" in r for r in doc.repairs)
    assert doc.docx.styles["Normal"] is not None


def test_missing_file():
    with pytest.raises(DocumentNotFoundError):
        WordDocument.open("/nonexistent/file.docx")


def test_a_folder_a_pipe_or_an_unreadable_name_is_refused_saying_what_it_is(tmp_path):
    os.mkfifo(tmp_path / "pipe.docx")
    (tmp_path / "folder.docx").mkdir()
    with pytest.raises(DocumentNotFoundError, match="is a folder, not a document"):
        WordDocument.open(tmp_path / "folder.docx")
    with pytest.raises(DocumentNotFoundError, match="is not a regular file"):  # never opened: reading would block
        WordDocument.open(tmp_path / "pipe.docx")
    with pytest.raises(UnreadableFileError, match="File name too long"):
        WordDocument.open(tmp_path / ("a" * 300 + ".docx"))


def test_an_output_path_that_is_a_folder_a_device_or_under_a_file_is_refused_and_nothing_is_written(tmp_path):
    data = docx_bytes(lambda d: d.add_paragraph("x"))
    os.mkfifo(tmp_path / "pipe.docx")
    (tmp_path / "folder.docx").mkdir()
    (tmp_path / "file.docx").write_bytes(data)
    for target, message in (("pipe.docx", "not a regular file"), ("folder.docx", "is a folder"),
                            ("file.docx/x.docx", "a file stands where a folder above it should be")):
        with pytest.raises(OutputPathError, match=message):
            package.write_atomically(tmp_path / target, data)
    assert (tmp_path / "pipe.docx").is_fifo() and (tmp_path / "file.docx").read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.docx", "folder.docx", "pipe.docx"]  # no temporary left
    assert run_cli("call", str(tmp_path / "file.docx"), "set_properties", "--args", '{"title": "T"}',
                   "-o", str(tmp_path / "pipe.docx")).returncode == 2


def _unwritable_folder(tmp_path):
    """A folder no file can be written in: a read-only one for a user, /sys/kernel for root (chmod binds no root)."""
    if os.geteuid() != 0:
        folder = tmp_path / "read-only"
        folder.mkdir(mode=0o555)
        return folder
    if not Path("/sys/kernel").is_dir():
        pytest.skip("no folder here refuses new files to this user")
    try:
        os.close(os.open("/sys/kernel/.autodw-probe", os.O_CREAT | os.O_WRONLY))
    except OSError:
        return Path("/sys/kernel")
    os.unlink("/sys/kernel/.autodw-probe")
    pytest.skip("no folder here refuses new files to this user")


def test_an_output_folder_that_takes_no_new_file_is_refused_before_the_edit_and_the_input_kept(tmp_path):
    """`autodw call` says the folder is not writable before it edits (it printed the edit, then failed to save)."""
    folder = _unwritable_folder(tmp_path)
    data = docx_bytes(lambda d: d.add_paragraph("x"))
    (tmp_path / "in.docx").write_bytes(data)
    with pytest.raises(OutputPathError, match=f"no file can be written in {folder}"):
        package.check_output_path(folder / "sub" / "out.docx")
    result = run_cli("call", str(tmp_path / "in.docx"), "set_properties", "--args", '{"title": "T"}',
                     "-o", str(folder / "out.docx"))
    assert result.returncode == 2 and result.stdout == ""
    assert f"no file can be written in {folder}" in result.stderr
    assert (tmp_path / "in.docx").read_bytes() == data and not (folder / "out.docx").exists()


@pytest.mark.parametrize(
    "name, error",
    [
        ("poi__bug53475-password-is-pass.docx", EncryptedDocumentError),
        ("tika__testWORD_truncated.docx", NotAZipError),
        ("poi__clusterfuzz-testcase-minimized-POIXWPFFuzzer-6733884933668864.docx", CorruptPackageError),
        ("mammoth__strict-format.docx", StrictOOXMLError),
        ("poi__stress025.docx", NotAWordDocumentError),
        ("pydocx__has_missing_image.docx", MissingPartError),
    ],
)
def test_corpus_edge_cases(name, error):
    with pytest.raises(error):
        WordDocument.open(corpus_file(name))


def test_legacy_doc_in_ole2_container():
    path = corpus_file("poi__bug53475-password-is-pass.docx").parent.parent / "other" / \
        "poi__cpansearch.perl.org_src_tobyink_acme-rundoc-0.001_word-lib_hello_world.docm"
    with pytest.raises(LegacyWordFormatError, match="97-2003"):
        WordDocument.open(path)


def test_every_refusal_is_a_document_error():
    for cls in (NotAZipError, CorruptPackageError, EncryptedDocumentError, LegacyWordFormatError,
                StrictOOXMLError, NotAWordDocumentError, MissingPartError, PackageTooLargeError, UnreadableFileError):
        assert issubclass(cls, DocumentError)


def test_same_file_sees_links_and_spellings_but_not_missing_paths(tmp_path):
    original = tmp_path / "a.docx"
    original.write_bytes(b"x")
    (tmp_path / "link.docx").symlink_to(original)
    os.link(original, tmp_path / "hard.docx")
    (tmp_path / "other.docx").write_bytes(b"x")
    assert package.same_file(original, tmp_path / "sub" / ".." / "a.docx")
    assert package.same_file(tmp_path / "link.docx", original)
    assert package.same_file(tmp_path / "hard.docx", original)
    assert not package.same_file(tmp_path / "other.docx", original)  # same bytes, another file
    assert not package.same_file(tmp_path / "missing.docx", original)
    assert package.same_file(tmp_path / "missing.docx", tmp_path / "missing.docx")  # one path, not yet written
    assert not package.same_file("bad\0name.docx", original)


def test_an_output_name_near_the_length_limit_is_written(tmp_path):
    """The temporary file beside it takes a shortened copy of the name (the whole name plus its prefix and suffix went
    past the 255-byte limit, so a valid name was refused)."""
    target = tmp_path / ("a" * 245 + ".docx")
    package.check_output_path(target)
    package.write_atomically(target, b"x")
    assert target.read_bytes() == b"x" and sorted(p.name for p in tmp_path.iterdir()) == [target.name]


# --- found by the reader's fuzz harness (tests/fuzz/reader.py, issue 49): each was an untyped exception ------------


def _members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def _raw(data: bytes, change=lambda name, e: e) -> bytes:
    """`data` rewritten by the lying zip writer, `change(name, entry)` giving each member's entry."""
    from tests.fuzz import zipraw

    return zipraw.write([change(name, zipraw.entry(name, blob)) for name, blob in _members(data).items()])


def _lie(field, value, member="word/document.xml"):
    from tests.fuzz import zipraw

    return lambda name, e: zipraw.lying(e, **{field: value}) if name == member else e


@pytest.mark.parametrize("data, error, words", [
    (lambda: _raw(BLANK, _lie("method", 99)), CorruptPackageError, "compressed with method 99"),  # was NotImplementedError
    (lambda: _raw(BLANK, _lie("method", 14)), CorruptPackageError, "only stored or deflated"),  # lzma: Office never writes it
    (lambda: _raw(BLANK, _lie("flags", 0x801)), EncryptedDocumentError, "is encrypted"),  # was RuntimeError (password)
    (lambda: _raw(BLANK, _lie("name", b"word/\x9f.xml")), CorruptPackageError, "not UTF-8"),  # was UnicodeDecodeError
    (lambda: _raw(BLANK, _lie("name", b"")), CorruptPackageError, "empty name"),  # was IndexError in zipfile
    # found by the reader fuzz campaign (NotImplementedError from zipfile): a version needed past 6.3, a flag
    # zipfile cannot read (compressed patched data, strong encryption without the encryption bit)
    (lambda: _raw(BLANK, _lie("version", 217)), CorruptPackageError, "newer zip format"),
    (lambda: _raw(BLANK, _lie("flags", 0x820)), CorruptPackageError, "patched data or strongly encrypted"),
    (lambda: _raw(BLANK, _lie("flags", 0x840)), CorruptPackageError, "patched data or strongly encrypted"),
], ids=["method-99", "lzma", "encrypted-flag", "name-not-utf8", "empty-name", "zip-version-21.7", "patched-flag",
        "strong-encryption-flag"])
def test_zip_members_the_reader_cannot_read_are_refused_by_type(data, error, words):
    with pytest.raises(error, match=words):
        WordDocument.from_bytes(data(), "x.docx")


def test_a_relationships_part_of_another_kind_or_two_main_parts_are_refused():
    other_root = _rezip(BLANK, lambda m: m.__setitem__("word/_rels/document.xml.rels", m["word/_rels/document.xml.rels"]
                                                       .replace(b"package/2006/relationships", b"urn:other")))
    with pytest.raises(CorruptPackageError, match=r"document.xml.rels is not a relationships part"):  # was AttributeError
        WordDocument.from_bytes(other_root, "x.docx")

    def second_main(m):
        rel = re.search(rb"<Relationship [^>]*/officeDocument\"[^>]*/>", m["_rels/.rels"]).group(0)
        m["_rels/.rels"] = m["_rels/.rels"].replace(rel, rel + rel.replace(b'Id="', b'Id="x'))

    with pytest.raises(CorruptPackageError, match="names 2 main document parts"):  # was ValueError in python-docx
        WordDocument.from_bytes(_rezip(BLANK, second_main), "x.docx")


@pytest.mark.parametrize("encode", [lambda xml: xml, lambda xml: xml.decode().encode("utf-16")], ids=["utf8", "utf16"])
def test_a_dtd_behind_a_long_comment_is_refused_not_saved_as_a_dangling_entity(encode):
    def hidden_dtd(m):
        xml = m["word/document.xml"]
        body = re.sub(rb"(<w:t(?: [^>]*)?>)", rb"\1&e;", xml[xml.index(b"?>") + 2:], count=1)
        m["word/document.xml"] = encode(b'<?xml version="1.0" encoding="UTF-8"?><!--' + b"x" * 5000
                                        + b'--><!DOCTYPE w:document [<!ENTITY e "planted">]>' + body)

    # it opened, and the saved file held "&e;" without its declaration: a file that no longer opens
    with pytest.raises(CorruptPackageError, match="declares a DTD"):
        WordDocument.from_bytes(_rezip(BLANK, hidden_dtd), "x.docx")


def test_markup_that_would_parse_to_millions_of_elements_is_refused_before_parsing():
    """A zip bomb of markup: a 200 KiB package holding 20 million "<w:p/>" (120 MB) would take tens of GiB and
    hours to open (2 million took 500 s of wall time and 2.5 GiB); refused by counting tags."""
    from tests.fuzz import zipraw

    members = _members(BLANK)
    members.pop("word/document.xml")
    head = b'<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
    bomb = zipraw.bomb("word/document.xml", b"<w:p/>", package.MAX_PART_TAGS + 1, head, b"</w:body></w:document>")
    data = zipraw.write([zipraw.entry(n, b) for n, b in members.items()] + [bomb])
    assert len(data) < 100_000
    with pytest.raises(PackageTooLargeError, match=r"word/document.xml has 1,000,00\d tags"):
        WordDocument.from_bytes(data, "x.docx")
    spread = _rezip(BLANK, lambda m: m.update({f"customXml/item{i}.xml": b"<a/>" * (package.MAX_PART_TAGS // 2)
                                                for i in range(5)}))
    with pytest.raises(PackageTooLargeError, match="its XML parts hold"):
        WordDocument.from_bytes(spread, "x.docx")


def test_a_zip_missing_its_first_bytes_is_damaged_not_an_internal_error():
    # the central directory then puts the first member before the file's start: zipfile seeks to a negative offset
    for cut in (10, 30, 100):
        with pytest.raises(CorruptPackageError, match="damaged zip archive"):  # was ValueError: negative seek value
            WordDocument.from_bytes(BLANK[cut:], "x.docx")


def test_a_footer_whose_content_type_is_no_footers_is_refused():
    def footer(m):
        m["word/footer1.xml"] = (b'<w:ftr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
                                 b"<w:p/></w:ftr>")
        m["word/_rels/document.xml.rels"] = m["word/_rels/document.xml.rels"].replace(
            b"</Relationships>", b'<Relationship Id="rIdF" Type="http://schemas.openxmlformats.org/officeDocument/'
                                 b'2006/relationships/footer" Target="footer1.xml"/></Relationships>')
        m["[Content_Types].xml"] = m["[Content_Types].xml"].replace(
            b"</Types>", b'<Override PartName="/word/footer1.xml" ContentType="application/x-mangled"/></Types>')

    with pytest.raises(CorruptPackageError, match="footer1.xml is related as a header or footer"):  # was AttributeError
        WordDocument.from_bytes(_rezip(BLANK, footer), "x.docx")


@pytest.mark.parametrize("opened", [b"<!-- never closed", b"<?pi never closed", b"<!DOCTYPE never closed"])
def test_a_part_cut_inside_a_comment_before_its_root_is_refused_not_a_hang(opened):
    """The id namespace was declared by scanning past the prologue; a comment opened at byte 2 or later and never
    closed sent the scan back to it for ever (found by the reader fuzz campaign: a document.xml cut short)."""
    from autodw.core.xml import declare_namespaces_in_xml

    xml = b'<?xml version="1.0" encoding="UTF-8"?>\n' + opened
    assert declare_namespaces_in_xml(xml, {"r": "urn:r"}) == xml
    with pytest.raises(CorruptPackageError):
        WordDocument.from_bytes(_rezip(BLANK, lambda m: m.update({"word/document.xml": xml})), "x.docx")


def test_a_main_part_override_nested_inside_another_element_is_no_override():
    """python-docx reads the children of <Types> only; the check read every descendant, so an override of the main
    part moved inside another one passed it and python-docx loaded the main part as an opaque part (an
    AttributeError; found by the reader fuzz campaign)."""
    main = b'<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.' \
           b'wordprocessingml.document.main+xml"/>'

    def nest(m):
        types = m["[Content_Types].xml"].replace(main, b"")
        m["[Content_Types].xml"] = types.replace(b"</Types>", b'<Override PartName="/x.xml" ContentType="text/x">'
                                                 + main + b"</Override></Types>")

    assert main in _members(BLANK)["[Content_Types].xml"]
    with pytest.raises(MissingPartError, match="has no entry for the main part"):
        WordDocument.from_bytes(_rezip(BLANK, nest), "x.docx")


def test_a_body_written_in_utf16_gets_its_ids_without_its_parsed_tree_being_moved(monkeypatch):
    """A UTF-16 document.xml (with its byte-order mark, as XML allows) got the id namespace declared on its parsed
    tree: lxml re-namespaced every node moved to the new root, minutes for a large body (a hang found by the reader
    fuzz campaign, shard 1 seed 15796: 12 MB of text). It is transcoded to UTF-8 before parsing instead."""
    from autodw.core import ids
    from autodw.core.xml import utf8_xml

    def utf16(m):
        xml = m["word/document.xml"].decode("utf-8").replace("hello", "héllo 你好")
        m["word/document.xml"] = re.sub(r"encoding=(['\"])UTF-8\1", r"encoding=\1UTF-16\1", xml, count=1).encode("utf-16")

    data = _rezip(BLANK, utf16)
    body = _members(data)["word/document.xml"]
    assert body.startswith(b"\xff\xfe") and "encoding='UTF-16'" in body.decode("utf-16")[:60]
    assert b"encoding='UTF-8'" in utf8_xml(body)[:60]
    monkeypatch.setattr(ids, "declare_namespace", lambda root: pytest.fail("the parsed body was moved to a new root"))
    doc = WordDocument.from_bytes(data, "x.docx")
    assert [p.text for p in doc.docx.paragraphs] == ["héllo 你好"]
    reopened = WordDocument.from_bytes(doc.to_bytes(), "x.docx")
    assert reopened.find("p1", "p") is not None and reopened.docx.paragraphs[0].text == "héllo 你好"


def test_the_checks_before_parsing_read_a_part_name_in_any_case():
    """OPC names are case-insensitive: WORD/FONTTABLE.XML is read as word/fontTable.xml once repaired, but the DTD
    and tag-count checks looked only at names ending in lower-case .xml: a DTD in the (unparsed) font table went
    through to the output, which then did not reopen (found by the reader fuzz campaign, shard 0 seed 31383)."""
    dtd = b'<?xml version="1.0"?><!DOCTYPE w:fonts [<!ENTITY x SYSTEM "file:///etc/passwd">]><w:fonts/>'

    def upper(m, blob):
        m.pop("word/fontTable.xml")
        m["WORD/FONTTABLE.XML"] = blob

    assert "word/fontTable.xml" in _members(BLANK)
    with pytest.raises(CorruptPackageError, match="WORD/FONTTABLE.XML declares a DTD"):
        WordDocument.from_bytes(_rezip(BLANK, lambda m: upper(m, dtd)), "x.docx")
    with pytest.raises(PackageTooLargeError, match="WORD/FONTTABLE.XML has"):
        WordDocument.from_bytes(_rezip(BLANK, lambda m: upper(m, b"<a/>" * (package.MAX_PART_TAGS + 1))), "x.docx")
