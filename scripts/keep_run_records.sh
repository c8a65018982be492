#!/bin/sh
# Copy a run folder's records into the repository (docs/runs/NAME) for the results pages (docs/results/manifest.json
# lists the kept runs they cite; `autodw bench report --manifest docs/results/manifest.json` makes the page again).
# By default: run.json, summary.json, commands.txt, every instruction and turn record and status (.status: what
# generating it reported), its output document (~40 KB: what `autodw bench rescore --rejudge` needs to judge the run
# again with a later judge) and a session's resume document (resume-T.docx: what `autodw bench run` needs to
# continue); traces stay behind (up to 1 MB each). For a run nothing can make again (a model's, without its answers).
# --summary keeps run.json, summary.json and commands.txt alone: for a run its command makes again, records and
# outputs (the oracle and the noisy oracle with the rules validator are deterministic: rerun the command of its
# commands.txt with --out a new folder).
# --no-outputs keeps the JSON records alone, no .docx (outputs and resume documents): for a finished long run whose
# LLM cache is kept too (replaying it with the cache makes the outputs again in minutes).
# An LLM cache file (--llm-cache CACHE.jsonl, shared by runs) is kept gzipped: docs/runs/CACHE.jsonl.gz; to use it
# again, `gunzip -c docs/runs/CACHE.jsonl.gz > runs/CACHE.jsonl` and pass `--llm-cache runs/CACHE.jsonl`.
# `autodw bench report` and `compare` read the copy as it is; to continue the run, copy it out (cp -r docs/runs/NAME
# runs/NAME) and rerun its `autodw bench run` command with `--out runs/NAME`: only the units without a record run.
# Usage: sh scripts/keep_run_records.sh [--no-outputs|--summary] RUN_DIR|CACHE.jsonl [...]
set -e
dest=$(dirname "$0")/../docs/runs
kept="-name *.json -o -name *.status -o -name commands.txt -o -name *.docx"
case "$1" in
  --no-outputs) kept="-name *.json -o -name *.status -o -name commands.txt"; shift ;;
  --summary) kept="-path ./run.json -o -path ./summary.json -o -path ./commands.txt"; shift ;;
esac
for run in "$@"; do
  case "$run" in *.jsonl)
    gzip -9 -n -c "$run" > "$dest/$(basename "$run").gz"
    echo "$run -> $dest/$(basename "$run").gz ($(wc -l < "$run") answers)"
    continue;;
  esac
  [ -f "$run/run.json" ] || { echo "$run is not a run folder (no run.json)" >&2; exit 2; }
  name=$(basename "$run")
  (set -f; cd "$run" && find . \( $kept \) -print) | while read -r f; do
    mkdir -p "$dest/$name/$(dirname "$f")"
    cp -p "$run/$f" "$dest/$name/$f"
  done
  echo "$run -> $dest/$name ($(find "$dest/$name" -type f | wc -l) files)"
done
