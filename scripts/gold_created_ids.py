"""The ids every gold call creates and removes, replaying each session of each split of both tracks call by call.

    python scripts/gold_created_ids.py > ids.txt      # then diff against the same output of another commit

An API change must not renumber the ids later gold calls name: an extra paragraph created by one call shifts every
id created after it, and a later gold call then names another element or none (`autodw bench validate` catches only
the second). Two commits whose outputs are identical replay every gold call onto the same ids. Reads gold data only,
no system output.
"""

from __future__ import annotations

from autodw.apis import execute
from autodw.core.errors import AutodwError
from autodw.core.provenance import SPLITS
from autodw.dwbench.records import TRACKS, load_split


def main() -> None:
    for track in TRACKS:
        for split in SPLITS:
            try:
                sessions = load_split(split, track)
            except AutodwError:  # a split the track does not have
                continue
            for session in sessions:
                doc = session.initial_document(1)
                for ins in session.instructions:
                    for k, call in enumerate(ins.gold):
                        try:
                            result = execute(doc, call.api, call.args)
                        except AutodwError as exc:
                            print(track, split, session.session_id, ins.turn, k, call.api, "FAILS", type(exc).__name__)
                            break
                        print(track, split, session.session_id, ins.turn, k, call.api, result.created, result.removed)


if __name__ == "__main__":
    main()
