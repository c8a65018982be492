"""Mutated Word packages: a corpus file changed at the zip level or the XML level, by decisions from a Draw.

Zip level: truncation, flipped bytes, sizes and checksums that lie, a name twice, absolute, ``..`` and Windows
names, unsupported methods, the encryption flag, too many members, members that expand a thousandfold.
XML level (one part, the main document most often): broken markup, external entities and entity expansion
behind a long prologue, deep nesting, huge attributes and texts, wrong namespaces, relationships missing,
dangling, looping or pointing outside, random elements moved, copied, dropped or given odd attribute values.
"""

from __future__ import annotations

import functools
import os
import re
import zipfile
from pathlib import Path
from typing import Callable

from tests.fuzz import zipraw
from tests.fuzz.draw import Draw, coin, pick, small

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("AUTODW_CORPUS") or ROOT.parent / "shared" / "corpus").resolve()

W = b"http://schemas.openxmlformats.org/wordprocessingml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


@functools.lru_cache(maxsize=1)
def seed_files() -> tuple[Path, ...]:
    """The seeds: every corpus package and the examples, smallest first (drawn more often: faster to try)."""
    found = [*CORPUS.glob("docx/*"), *CORPUS.glob("other/*"), *(ROOT / "examples").glob("*.docx")]
    return tuple(sorted((p for p in found if p.is_file()), key=lambda p: p.stat().st_size))


@functools.lru_cache(maxsize=64)
def seed_members(path: Path) -> tuple[tuple[str, bytes], ...]:
    """The members of a seed file (none when it is no zip: some corpus files are damaged on purpose)."""
    try:
        with zipfile.ZipFile(path) as zf:
            return tuple((i.filename, zf.read(i)) for i in zf.infolist() if not i.is_dir())
    except Exception:  # noqa: BLE001 - a deliberately broken seed is mutated as raw bytes
        return ()


def choose_seed(draw: Draw) -> Path:
    """A seed file, small ones far more often (the index is drawn squared)."""
    files = seed_files()
    u = draw.int(0, 999) / 1000
    return files[min(len(files) - 1, int(len(files) * u * u * u))]


def mutated_package(draw: Draw, sandbox: Path | None = None) -> tuple[bytes, list[str]]:
    """(bytes of a mutated package, what was done to it). `sandbox`: where absolute names point (so a write
    they caused would be seen)."""
    seed = choose_seed(draw)
    members = dict(seed_members(seed))
    done = [f"seed {seed.name}"]
    if not members:
        return _raw_mutation(draw, seed.read_bytes(), done), done
    for _ in range(1 + small(draw, 3)):
        kind = pick(draw, ("xml", "xml", "xml", "rels", "members"))
        if kind == "xml":
            _xml_mutation(draw, members, done)
        elif kind == "rels":
            _rels_mutation(draw, members, done)
        else:
            _member_mutation(draw, members, done, sandbox)
    entries = [zipraw.entry(name, blob, pick(draw, (zipraw.DEFLATED,) * 7 + (zipraw.STORED,)))
               for name, blob in members.items()]
    if coin(draw, 35):
        entries = _zip_mutation(draw, entries, done, sandbox)
    data = zipraw.write(entries)
    if coin(draw, 10):
        data = _raw_mutation(draw, data, done)
    return data, done


# --- zip level ------------------------------------------------------------------------------


def _raw_mutation(draw: Draw, data: bytes, done: list[str]) -> bytes:
    how = pick(draw, ("truncate", "flip", "splice", "prefix"))
    done.append(f"raw {how}")
    if how == "truncate" or not data:
        return data[: draw.int(0, len(data))]
    if how == "flip":
        out = bytearray(data)
        for _ in range(1 + small(draw, 64)):
            out[draw.int(0, len(out) - 1)] = draw.int(0, 255)
        return bytes(out)
    if how == "splice":
        at = draw.int(0, len(data))
        return data[:at] + draw.bytes(256) + data[at + small(draw, 4096):]
    return pick(draw, (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", b"%PDF-1.4\n", b"{\\rtf1", b"PK\x03\x04", b"")) + data


def _zip_mutation(draw: Draw, entries: list[zipraw.Entry], done: list[str], sandbox: Path | None) -> list[zipraw.Entry]:
    how = pick(draw, ("size", "crc", "method", "encrypted", "duplicate", "name", "bomb", "xml_bomb", "many",
                      "compressed_size", "drop_central", "version"))
    done.append(f"zip {how}")
    if not entries:
        return entries
    i = draw.int(0, len(entries) - 1)
    e = entries[i]
    if how == "size":
        entries[i] = zipraw.lying(e, size=pick(draw, (0, 1, e.real_size + 1, max(0, e.real_size - 1), 0xFFFFFFFF,
                                                      (1 << 30) + 1, draw.int(0, 1 << 31))))
    elif how == "crc":
        entries[i] = zipraw.lying(e, crc=draw.int(0, 0xFFFFFFFF))
    elif how == "method":
        entries[i] = zipraw.lying(e, method=pick(draw, (1, 6, 9, 12, 14, 93, 95, 98, 99, draw.int(0, 0xFFFF))))
    elif how == "encrypted":  # traditional, strong (with and without bit 0), patched data, central directory
        entries[i] = zipraw.lying(e, flags=e.flags | pick(draw, (0x1, 0x41, 0x40, 0x20, 0x2000)))
    elif how == "version":  # the version needed to extract: 6.3 is the newest zipfile reads
        entries[i] = zipraw.lying(e, version=pick(draw, (10, 45, 63, 64, 217, 0xFFFF)))
    elif how == "compressed_size":
        entries[i] = zipraw.lying(e, compressed_size=pick(draw, (0, 1, len(e.data) + 10, 0xFFFFFFFF)))
    elif how == "duplicate":
        other = pick(draw, entries)
        entries.insert(draw.int(0, len(entries)), zipraw.lying(other, data=e.data, real_size=e.real_size, crc=e.crc,
                                                               method=e.method))
    elif how == "name":
        entries[i] = zipraw.lying(e, name=_odd_name(draw, e.name, sandbox))
    elif how == "bomb":
        # within the reader's total limit, or just over it; zeros compress a thousandfold
        mib = pick(draw, (16, 16, 16, 64, 64, 256, 900, 1100))  # the large ones are slow to build and to read
        entries.append(zipraw.bomb(pick(draw, ("word/media/bomb.bin", "customXml/item9.xml", e.name.decode("utf-8", "replace"))),
                                   b"\x00" * 4096, mib * 256))
    elif how == "xml_bomb":
        # a well-formed main document of millions of empty paragraphs: expands to little, parses to much
        count = pick(draw, (200_000, 2_000_000, 20_000_000))
        prefix = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="' + W + b'"><w:body>'
        bombed = zipraw.bomb("word/document.xml", b"<w:p/>", count, prefix, b"</w:body></w:document>")
        entries = [x for x in entries if x.name != b"word/document.xml"] + [bombed]
    elif how == "many":
        entries += [zipraw.entry(f"customXml/x{n}.bin", b"", zipraw.STORED) for n in range(pick(draw, (1000, 50_001)))]
    else:  # the central directory cut off: only local headers remain
        entries = entries[: draw.int(0, len(entries))]
    return entries


def _odd_name(draw: Draw, name: bytes, sandbox: Path | None) -> bytes:
    target = str(sandbox / "abs-target" / "escaped.xml") if sandbox else "/tmp/autodw-fuzz-escaped.xml"
    return pick(draw, (
        b"../../escaped.xml", b"word/../../escaped.xml", b"/" + name, target.encode(),
        b"..\\..\\escaped.xml", b"C:\\Windows\\escaped.xml", b"\\\\server\\share\\escaped.xml",
        name.upper(), name + b"/", b"word//document.xml", b"word/./document.xml", name + b"\x00.xml",
        b"\xff\xfe" + name, b"", b"a" * 65_535, name.replace(b"/", b"\\"),
    ))


# --- members ------------------------------------------------------------------------------


def _member_mutation(draw: Draw, members: dict[str, bytes], done: list[str], sandbox: Path | None) -> None:
    names = list(members)
    if not names:
        return
    name = pick(draw, names)
    how = pick(draw, ("drop", "swap", "rename_case", "empty", "garbage", "copy_over"))
    done.append(f"member {how} {name}")
    if how == "drop":
        members.pop(name)
    elif how == "swap":
        other = pick(draw, names)
        members[name], members[other] = members[other], members[name]
    elif how == "rename_case":
        members[name.swapcase()] = members.pop(name)
    elif how == "empty":
        members[name] = b""
    elif how == "garbage":
        members[name] = draw.bytes(512)
    else:
        members[pick(draw, names)] = members[name]


# --- XML level --------------------------------------------------------------------------


def _xml_names(members: dict[str, bytes]) -> list[str]:
    return [n for n in members if n.endswith(".xml") and not n.startswith("[")]


def _xml_mutation(draw: Draw, members: dict[str, bytes], done: list[str]) -> None:
    names = _xml_names(members)
    if not names:
        return
    main = next((n for n in names if n.endswith("document.xml")), names[0])
    name = main if coin(draw, 60) else pick(draw, names + ["[Content_Types].xml"] * bool("[Content_Types].xml" in members))
    how = pick(draw, tuple(XML_MUTATIONS))
    done.append(f"xml {how} {name}")
    members[name] = XML_MUTATIONS[how](draw, members[name])


def _truncate(draw: Draw, xml: bytes) -> bytes:
    return xml[: draw.int(0, len(xml))]


def _break_markup(draw: Draw, xml: bytes) -> bytes:
    at = draw.int(0, len(xml))
    return xml[:at] + pick(draw, (b"<", b">", b"</w:p>", b"<w:p>", b"&", b"&bogus;", b"\x00", b"\xff\xfe", b"]]>",
                                  b"<![CDATA[", b"<!--", b"<?pi", b'"', b"\xe9")) + xml[at:]


def _prologue(xml: bytes) -> tuple[bytes, bytes]:
    """(the XML declaration, the rest)."""
    m = re.match(rb"\s*<\?xml[^>]*\?>", xml)
    return (m.group(0), xml[m.end():]) if m else (b"", xml)


def _dtd(draw: Draw, xml: bytes) -> bytes:
    """A DOCTYPE with external entities or an expansion bomb, often behind a comment long enough to hide it from
    a check of the first kilobytes."""
    decl, rest = _prologue(xml)
    root = re.search(rb"<([A-Za-z_][\w.:-]*)", rest)
    root_name = root.group(1) if root else b"w:document"
    dtd = pick(draw, (
        b'<!ENTITY xxe SYSTEM "file:///etc/passwd">',
        b'<!ENTITY xxe SYSTEM "http://127.0.0.1:9/fetched">',
        b'<!ENTITY % p SYSTEM "http://127.0.0.1:9/dtd"> %p;',
        b'<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">'
        b'<!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY xxe "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">',
    ))
    pad = b"<!--" + b"x" * pick(draw, (0, 5000, 70_000)) + b"-->" if coin(draw, 70) else b""
    body = re.sub(rb"(<w:t(?: [^>]*)?>)", rb"\1&xxe;", rest, count=1)
    return decl + pad + b"<!DOCTYPE " + root_name + b" [" + dtd + b"]>" + body


def _deep(draw: Draw, xml: bytes) -> bytes:
    """Deep nesting inside the first paragraph or body: tables in tables, content controls, runs in hyperlinks."""
    depth = pick(draw, (50, 200, 255, 300, 1000, 100_000))
    opener, closer = pick(draw, (
        (b"<w:tbl><w:tr><w:tc>", b"<w:p/></w:tc></w:tr></w:tbl>"),
        (b"<w:sdt><w:sdtContent>", b"</w:sdtContent></w:sdt>"),
        (b"<w:customXml>", b"</w:customXml>"),
        (b"<w:smartTag>", b"</w:smartTag>"),
    ))
    m = re.search(rb"<w:body>", xml)
    if not m:
        return xml
    return xml[: m.end()] + opener * depth + b"<w:p/>" + closer * depth + xml[m.end():]


def _huge(draw: Draw, xml: bytes) -> bytes:
    """A huge attribute value or text (around the XML parser's 10 MB limits)."""
    size = pick(draw, (100_000, 9_000_000, 11_000_000))
    # the replacement is given as a function: as a template string, re parses its megabytes one character at a time
    if coin(draw):
        value = b'w:val="' + b"9" * size + b'"'
        return re.sub(rb'w:val="[^"]*"', lambda m: value, xml, count=1)
    return re.sub(rb"(<w:t(?: [^>]*)?>)", lambda m: m.group(1) + b"Z" * size, xml, count=1)


def _namespace(draw: Draw, xml: bytes) -> bytes:
    """The main namespace changed everywhere, or declared twice, or one prefix bound to another namespace."""
    how = draw.int(0, 3)
    if how == 0:
        return xml.replace(W, b"http://purl.oclc.org/ooxml/wordprocessingml/main")
    if how == 1:
        return xml.replace(W, b"urn:not-word", 1)
    if how == 2:
        return xml.replace(b'xmlns:w="', b'xmlns:w="urn:x" xmlns:w="', 1)
    return re.sub(rb'xmlns:(\w+)="[^"]*"', rb'xmlns:\1="' + W + b'"', xml, count=draw.int(1, 5))


def _attributes(draw: Draw, xml: bytes) -> bytes:
    """Odd values for a few attributes: numbers where words go, negative and huge sizes, empty, unknown words."""
    values = (b"", b"-1", b"0", b"abc", b"999999999999999999999", b"1.5", b"NaN", b"auto", b"true", b"#FF0000",
              b"\xc3\xa9", b"-2147483649", b"1e309", b"&#0;")
    matches = list(re.finditer(rb'(w:\w+)="([^"]*)"', xml))
    if not matches:
        return xml
    out = bytearray(xml)
    for m in sorted({pick(draw, matches).span(2) for _ in range(1 + small(draw, 8))}, reverse=True):
        out[m[0]:m[1]] = pick(draw, values)
    return bytes(out)


def _elements(draw: Draw, xml: bytes) -> bytes:
    """A random element dropped, copied or moved (kept well-formed: whole elements move)."""
    from lxml import etree

    try:
        root = etree.fromstring(xml, etree.XMLParser(resolve_entities=False, huge_tree=False))
    except etree.XMLSyntaxError:
        return xml
    everything = [el for el in root.iter() if el is not root and isinstance(el.tag, str)]
    for _ in range(1 + small(draw, 6)):
        if not everything:
            break
        el = pick(draw, everything)
        parent = el.getparent()
        if parent is None:
            continue
        how = draw.int(0, 3)
        if how == 0:
            parent.remove(el)
            everything = [e for e in everything if e is not el and el not in e.iterancestors()]
        elif how == 1:
            parent.insert(parent.index(el), _copy(el))
        elif how == 2:
            target = pick(draw, everything)
            if target is not el and el not in target.iterancestors() and target is not parent:
                target.append(el)
        else:
            el.tag = pick(draw, ("{%s}p" % W.decode(), "{%s}tbl" % W.decode(), "{%s}r" % W.decode(),
                                 "{%s}sectPr" % W.decode(), "{%s}tc" % W.decode(), "{urn:x}x"))
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def _copy(el):
    import copy

    return copy.deepcopy(el)


def _encoding(draw: Draw, xml: bytes) -> bytes:
    """Another declared encoding than the bytes', a byte-order mark, or UTF-16."""
    decl, rest = _prologue(xml)
    how = draw.int(0, 3)
    if how == 0:
        return b'<?xml version="1.0" encoding="UTF-16"?>' + rest
    if how == 1:
        return b"\xef\xbb\xbf" + xml
    if how == 2:
        return b'<?xml version="1.0" encoding="x-unknown"?>' + rest
    return (decl.replace(b"UTF-8", b"UTF-16") + rest).decode("utf-8", "replace").encode("utf-16")


XML_MUTATIONS: dict[str, Callable[[Draw, bytes], bytes]] = {
    "truncate": _truncate, "markup": _break_markup, "dtd": _dtd, "deep": _deep, "huge": _huge,
    "namespace": _namespace, "attributes": _attributes, "attributes2": _attributes, "elements": _elements,
    "elements2": _elements, "encoding": _encoding,
}


# --- relationships ------------------------------------------------------------------------


def _rels_mutation(draw: Draw, members: dict[str, bytes], done: list[str]) -> None:
    names = [n for n in members if n.endswith(".rels")]
    if not names:
        return
    name = pick(draw, names)
    xml = members[name]
    rels = list(re.finditer(rb"<Relationship [^>]*/>", xml))
    how = pick(draw, ("drop", "dangling", "loop", "self", "external", "absolute", "parent", "duplicate_id",
                      "hyperlink_internal", "missing_target", "type"))
    done.append(f"rels {how} {name}")
    if how == "drop" and rels:
        m = pick(draw, rels)
        members[name] = xml[: m.start()] + xml[m.end():]
        return
    targets = {
        "dangling": b"media/nothing-here.png",
        "loop": b"document.xml" if name != "_rels/.rels" else b"word/document.xml",
        "self": (name.split("/")[-1][:-5]).encode() or b"document.xml",
        "external": b"file:///etc/passwd",
        "absolute": b"/word/document.xml",
        "parent": b"../../../../etc/passwd",
        "missing_target": b"",
    }
    if how in targets:
        mode = b' TargetMode="External"' if how == "external" else b""
        rid = b"rIdFuzz%d" % draw.int(0, 99)
        reltype = pick(draw, (REL + "/image", REL + "/header", REL + "/footer", REL + "/styles",
                              REL + "/officeDocument", REL + "/footnotes", REL + "/hyperlink")).encode()
        new = b'<Relationship Id="' + rid + b'" Type="' + reltype + b'" Target="' + targets[how] + b'"' + mode + b"/>"
        members[name] = xml.replace(b"</Relationships>", new + b"</Relationships>")
        return
    if not rels:
        return
    m = pick(draw, rels)
    rel = m.group(0)
    if how == "duplicate_id":
        members[name] = xml.replace(b"</Relationships>", rel + b"</Relationships>")
    elif how == "hyperlink_internal":
        members[name] = xml.replace(rel, re.sub(rb'Type="[^"]*"', b'Type="' + REL.encode() + b'/hyperlink"', rel)
                                    .replace(b' TargetMode="External"', b""))
    else:
        members[name] = xml.replace(rel, re.sub(rb'Type="[^"]*"', b'Type="urn:unknown"', rel))
