"""A zip writer that lies when told to: names, sizes, checksums, methods and flags exactly as given.

:mod:`zipfile` writes only honest archives; the reader must survive dishonest ones (a size that is not the
data's, a name twice, an absolute or ``..`` name, a method it cannot decompress, the encryption flag, a
member that expands a thousandfold).
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, replace
from functools import lru_cache

STORED, DEFLATED = 0, 8


@dataclass(frozen=True)
class Entry:
    """One member as written: `data` is what the archive holds (already compressed for DEFLATED); `size` and
    `crc` are what the headers claim (None: the truth)."""

    name: bytes
    data: bytes
    method: int = DEFLATED
    size: int | None = None  # uncompressed size claimed
    real_size: int = 0  # the true uncompressed size (for the honest default)
    crc: int | None = None
    flags: int = 0x800  # bit 11: the name is UTF-8
    compressed_size: int | None = None
    version: int = 20  # version needed to extract (2.0: deflate)


def entry(name: str | bytes, content: bytes, method: int = DEFLATED) -> Entry:
    """An honest entry for `content`."""
    raw = name.encode("utf-8", "surrogatepass") if isinstance(name, str) else name
    data = _deflate(content) if method == DEFLATED else content
    return Entry(raw, data, method, None, len(content), zlib.crc32(content))


def lying(e: Entry, **fields) -> Entry:
    """`e` with some header fields changed."""
    return replace(e, **fields)


def _deflate(content: bytes) -> bytes:
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return c.compress(content) + c.flush()


@lru_cache(maxsize=16)  # the campaign's bombs: six sizes of zeros, three of paragraphs
def _deflated_stream(prefix: bytes, unit: bytes, times: int, suffix: bytes) -> tuple[bytes, int]:
    """(raw deflate of `prefix` + `unit` * `times` + `suffix`, its crc), built without ever holding what it expands
    to and without compressing it all: a MiB of units is deflated once and ended with a full flush (byte-aligned,
    no reference back), so its bytes can be repeated (a GiB bomb took seconds to compress)."""
    per = max(1, (1 << 20) // len(unit))
    chunk, (whole, rest) = unit * per, divmod(times, per)

    def segment(data: bytes, final: bool = False) -> bytes:
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        return c.compress(data) + c.flush(zlib.Z_FINISH if final else zlib.Z_FULL_FLUSH)

    crc = zlib.crc32(prefix)
    for _ in range(whole):
        crc = zlib.crc32(chunk, crc)
    tail = unit * rest + suffix
    stream = segment(prefix) + segment(chunk) * whole + segment(tail, final=True)
    return stream, zlib.crc32(tail, crc)


def bomb(name: str, unit: bytes, times: int, prefix: bytes = b"", suffix: bytes = b"") -> Entry:
    """An honest member holding `prefix` + `unit` * `times` + `suffix`, deflated (cached: the same bomb is
    compressed once per process)."""
    data, crc = _deflated_stream(prefix, unit, times, suffix)
    return Entry(name.encode(), data, DEFLATED, None, len(prefix) + len(unit) * times + len(suffix), crc)


def write(entries: list[Entry], comment: bytes = b"") -> bytes:
    """The bytes of a zip archive of `entries`, headers as the entries say."""
    out, central = bytearray(), bytearray()
    for e in entries:
        size = e.real_size if e.size is None else e.size
        crc = 0 if e.crc is None else e.crc
        csize = len(e.data) if e.compressed_size is None else e.compressed_size
        offset = len(out)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, e.version, e.flags, e.method, 0, 0x21, crc & 0xFFFFFFFF,
                           csize & 0xFFFFFFFF, size & 0xFFFFFFFF, len(e.name), 0) + e.name + e.data
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, e.version, e.flags, e.method, 0, 0x21,
                               crc & 0xFFFFFFFF, csize & 0xFFFFFFFF, size & 0xFFFFFFFF, len(e.name), 0, 0, 0, 0,
                               0o644 << 16, offset & 0xFFFFFFFF) + e.name
    start = len(out)
    out += central
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries) & 0xFFFF, len(entries) & 0xFFFF, len(central),
                       start, len(comment)) + comment
    return bytes(out)
