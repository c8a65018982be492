"""One-off: bring run folders made before generation and grading were apart (issue 46) to the layout in which they
are (a unit's status beside its record: what generating it reported, from which grading makes the record), with every
setting written out, so that no code reads the old shapes.

For every run folder under the folders given (a folder with run.json, at any depth):
- each record (instructions/SID--T.json, sessions/SID/turn-T.json) gets its unit's status (SID--T.status,
  turn-T.status): the record's generation fields, its data hash None where it has none (made on DWBench 1.x);
- a session folder's resume.docx (folders made before 2026-11-25) becomes resume-T.docx, T its last turn with a
  record, the turn it was written after;
- a run.json gets the settings it was made before: "instructions": null (every instruction), "judge_version": 1,
  "data_version": "1.0", "track": "templated" (what a run made before they were recorded was), and its summary.json
  the same versions and track, and "wall_seconds": null (not known: made before 2026-11-25); a record without a
  judge version gets 1.
Files already in the new layout are left as they are, so running it twice changes nothing.

Usage: python scripts/migrate_run_folders.py DIR...
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

#: what a run made before these settings were recorded was
BEFORE_RECORDED = {"instructions": None, "stop_at_failure": False, "judge_version": 1, "data_version": "1.0",
                   "track": "templated"}
GENERATION = ("key", "session_id", "turn", "data_hash", "status", "error", "api_calls", "calls", "usage", "faults",
              "seconds", "output", "trace", "finished_at", "pid")


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _write(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1, default=str) + "\n", encoding="utf-8")


def _turn(path: Path) -> int:
    return int(path.stem.split("-")[1])


def migrate(run: Path) -> dict[str, int]:
    """Migrate run folder `run`; what it changed, counted."""
    done = {"statuses": 0, "records": 0, "resume documents": 0, "summaries": 0, "settings": 0}
    records = sorted((run / "instructions").glob("*.json")) + sorted((run / "sessions").glob("*/turn-*.json"))
    for record_path in records:
        record = _read(record_path)
        status = record_path.with_suffix(".status")
        if not status.exists():
            _write(status, {k: record.get(k) for k in GENERATION})
            done["statuses"] += 1
        if "judge_version" not in record:
            _write(record_path, {**record, "judge_version": 1})
            done["records"] += 1
    for old in sorted((run / "sessions").glob("*/resume.docx")):
        turns = {_turn(p) for p in old.parent.glob("turn-*.json")}
        last = next(t for t in range(1, len(turns) + 2) if t not in turns) - 1
        if last == 0:
            raise SystemExit(f"{old}: no turn record to continue after")
        old.rename(old.with_name(f"resume-{last}.docx"))
        done["resume documents"] += 1
    settings = _read(run / "run.json")
    recorded = {**BEFORE_RECORDED, **settings}
    if recorded != settings:
        _write(run / "run.json", recorded)
        done["settings"] += 1
    summary_path = run / "summary.json"
    summary = _read(summary_path) if summary_path.is_file() else None
    if summary is not None:
        versions = {k: recorded[k] for k in ("judge_version", "data_version", "track")}
        if {**versions, "wall_seconds": None, **summary} != summary:
            _write(summary_path, {**versions, "wall_seconds": None, **summary})
            done["summaries"] += 1
    return done


def main(folders: list[str]) -> int:
    for folder in map(Path, folders):
        for settings in sorted(folder.rglob("run.json")):
            done = migrate(settings.parent)
            print(f"{settings.parent}: " + ", ".join(f"{n} {what}" for what, n in done.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
