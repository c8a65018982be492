"""Faults the machine cannot be made to have on demand, injected: a disk that fills up, a folder that refuses
new files. Every write of a document, a record or a side file goes through ``os.fsync`` after its data and
through ``tempfile.mkstemp`` for its temporary file (atomic writes), so failing those fails the write as the
kernel would (ENOSPC at the flush, EACCES at the create)."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from typing import Iterator


@contextlib.contextmanager
def disk_full_after(writes: int) -> Iterator[dict]:
    """Let `writes` fsyncs succeed, then fail every later one with ENOSPC. Yields a dict counting them."""
    seen = {"fsyncs": 0}
    real = os.fsync

    def fsync(fd: int) -> None:
        seen["fsyncs"] += 1
        if seen["fsyncs"] > writes:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd)

    os.fsync = fsync
    try:
        yield seen
    finally:
        os.fsync = real


@contextlib.contextmanager
def folder_refuses_files() -> Iterator[None]:
    """Every new temporary file fails with EACCES (as root, a chmod would not stop the write)."""
    real = tempfile.mkstemp

    def mkstemp(*args, **kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    tempfile.mkstemp = mkstemp
    try:
        yield
    finally:
        tempfile.mkstemp = real
