#!/bin/sh
# Copy a run folder's records into the repository (docs/runs/NAME), so a long local-model run survives the machine:
# run.json, summary.json, every instruction and turn record and status (.status: what generating it reported), its
# output document (~40 KB: what `autodw bench rescore --rejudge` needs to judge the run again with a later judge) and
# a session's resume document (resume-T.docx: what `autodw bench run` needs to continue); traces stay behind (up
# to 1 MB each). `autodw bench report` and
# `compare` read the copy as it is; to continue the run, copy it out (cp -r docs/runs/NAME runs/NAME) and rerun its
# `autodw bench run` command with `--out runs/NAME`: only the instructions without a record are run.
# An LLM cache file (--llm-cache CACHE.jsonl, shared by runs) is kept gzipped: docs/runs/CACHE.jsonl.gz; to use it
# again, `gunzip -c docs/runs/CACHE.jsonl.gz > runs/CACHE.jsonl` and pass `--llm-cache runs/CACHE.jsonl`.
# --no-outputs keeps the JSON records alone, no .docx (outputs and resume documents): for a finished long run whose
# LLM cache is kept too (replaying it with the cache makes the outputs again in minutes), so git does not carry
# ~15 MB of zipped .docx.
# Usage: sh scripts/keep_run_records.sh [--no-outputs] RUN_DIR|CACHE.jsonl [...]
set -e
dest=$(dirname "$0")/../docs/runs
documents="-o -name *.docx"
if [ "$1" = "--no-outputs" ]; then documents=""; shift; fi
for run in "$@"; do
  case "$run" in *.jsonl)
    gzip -9 -n -c "$run" > "$dest/$(basename "$run").gz"
    echo "$run -> $dest/$(basename "$run").gz ($(wc -l < "$run") answers)"
    continue;;
  esac
  [ -f "$run/run.json" ] || { echo "$run is not a run folder (no run.json)" >&2; exit 2; }
  name=$(basename "$run")
  (set -f; cd "$run" && find . \( -name '*.json' -o -name '*.status' -o -name commands.txt $documents \) -print) | while read -r f; do
    mkdir -p "$dest/$name/$(dirname "$f")"
    cp -p "$run/$f" "$dest/$name/$f"
  done
  echo "$run -> $dest/$name ($(find "$dest/$name" -type f | wc -l) files)"
done
