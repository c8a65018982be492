"""Generating a unit of a run: the system under test carries out the unit's instruction on the document it starts
from; the output, the trace and the status are saved (:mod:`autodw.eval.run_folder`), nothing is judged."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from autodw.core.document import WordDocument
from autodw.eval.run_folder import Unit, write_json
from autodw.eval.systems import System
from autodw.core.package import write_atomically


def generate(system: System, unit: Unit, doc: WordDocument, earlier: list[tuple[str, str]],
             resume: Path | None = None) -> dict[str, Any]:
    """Run `system` on `doc` (edited in place) for the unit's instruction, `earlier` being the (text, status) of the
    session's earlier instructions; save the output, with `resume` the document with its element ids there too (to
    continue a session from), then the unit's status, last. Returns the status: everything the system reported, how
    long it took, and the data hash of the instruction it was run on."""
    ins = unit.instruction
    start = time.perf_counter()
    result = system.run_turn(doc, ins, earlier, unit.trace)
    seconds = time.perf_counter() - start
    write_atomically(unit.output, doc.to_bytes())
    if resume is not None:
        write_atomically(resume, doc.to_bytes(keep_ids=True))
    status = {
        "key": ins.key, "session_id": ins.session_id, "turn": ins.turn, "data_hash": unit.session.data_hash(ins.turn),
        "status": result.status, "error": result.error, "api_calls": result.api_calls, "calls": result.calls,
        "usage": result.usage, "faults": result.faults, "seconds": round(seconds, 3), "output": unit.output.name,
        "trace": unit.trace.name if unit.trace.is_file() else None,
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S"), "pid": os.getpid(),
    }
    write_json(unit.status, status)
    return status
