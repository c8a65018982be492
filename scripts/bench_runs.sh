#!/bin/sh
# The runs behind the DWBench tables of docs/measurements-history.md (from the README), in order; each is resumable (rerun this script to continue).
# Usage: sh scripts/bench_runs.sh RUNS_DIR [GROUP...]
#   groups: oracle noisy local-autodw local-noisy baselines local-ablations local-mini-sessions local-aid-ablations
#           iset-aid-ablations
#   (default: all, in this order)
# The local groups take hours on 2 cores (1-2.5 min per instruction): every system's iACC comes first, its sACC last
# (local-mini-sessions continues the same run folders); the oracle and noisy groups take minutes. Keep the records of
# a long run in the repository with scripts/keep_run_records.sh (docs/runs), the shared LLM cache with it.
# The local mini runs share one LLM cache: the agent and its rollback ablations send the same prompts until their
# first rollback, and a session's first turn is its instruction's; a recalled answer counts the seconds it took when
# first asked, so each run reports what it would take alone.
set -e
# the baselines put the whole API library (reasoning-only) or ten full API docs (retrieval-only) beside the document
# state: 8k tokens are too few for some mini instructions, so the local model gets 16k for every system alike
export AUTODW_LOCAL_N_CTX=${AUTODW_LOCAL_N_CTX:-16384}
runs=${1:?give a folder for the run folders}; shift
cache="$runs/local-mini-llm-cache.jsonl"
groups=${*:-"oracle noisy local-autodw local-noisy baselines local-ablations local-mini-sessions local-aid-ablations iset-aid-ablations"}
for group in $groups; do
  case $group in
    oracle)
      for split in dev test mini; do
        autodw bench run --system oracle --split $split --no-word-check --out "$runs/oracle-$split"
      done ;;
    noisy)
      for rb in none full; do
        autodw bench run --system noisy-oracle --p 0.2 --validator oracle --rollback $rb --split dev --no-word-check \
          --out "$runs/noisy-oracle-dev-$rb"
      done
      autodw bench sweep --validator oracle --split dev --out "$runs/sweep-oracle-dev" --plot "$runs/sweep-oracle-dev.png" ;;
    local-autodw)
      autodw bench run --system autodw --llm local --split mini --mode instruction --llm-cache "$cache" \
        --out "$runs/local-autodw-mini" ;;
    local-ablations)
      for system in no-rollback arg-rollback; do
        autodw bench run --system $system --llm local --split mini --mode instruction --llm-cache "$cache" \
          --out "$runs/local-$system-mini"
      done ;;
    local-mini-sessions)  # sACC: a session ends at its first failed turn (exact sACC for a turn or two per session)
      for system in autodw no-rollback arg-rollback hybrid retrieval-only reasoning-only; do
        autodw bench run --system $system --llm local --split mini --mode session --stop-at-failure \
          --llm-cache "$cache" --out "$runs/local-$system-mini"
      done ;;
    local-noisy)  # the embedded model's LLM validator on the whole of dev: iACC, precision and recall, the threshold sweep,
      # then sACC (~9 s per validator call at 172 prompt tokens/s, 3-4 h per mode; at 2026-11-28's 34 tokens/s 33-53 s
      # per call and 160-210 s per instruction: 15-19 h for instruction mode; answers kept: gunzip -c
      # docs/runs/local-validator-cache.jsonl.gz).
      # With rollback off nothing is validated (0 LLM calls, 6 minutes: the oracle validator's row by construction).
      # With rollback on, sACC stops each session at its first failed turn: the turns before it start from outputs
      # the judge found right, so they mostly recall instruction mode's answers, while every turn after a failure
      # would start from a state of its own and cost as much as a new run (the final-state variant is not measured).
      # The sweep's threshold 0.6 is the rollback-on run again, and the other thresholds recall most of its answers.
      noisy_local() {
        autodw bench run --system noisy-oracle --p 0.2 --validator llm --llm local --rollback "$@" --split dev \
          --no-word-check --llm-cache "$runs/local-validator-cache.jsonl" --out "$runs/noisy-local-dev-$1"
      }
      noisy_local none --mode both
      noisy_local full --mode instruction
      noisy_local full --mode session --stop-at-failure
      autodw bench sweep --validator llm --llm local --split dev --llm-cache "$runs/local-validator-cache.jsonl" \
        --out "$runs/sweep-local-dev" --plot "$runs/sweep-local-dev.png" ;;
    baselines)
      for system in hybrid retrieval-only reasoning-only; do
        autodw bench run --system $system --llm local --split mini --mode instruction --out "$runs/local-$system-mini"
      done ;;
    local-aid-ablations)  # issue 18: the agent without each of its aids (compare each with local-autodw-mini)
      for setting in grounding=false rule_checks=false split_requests=false repair_calls=false \
                     "end_on_repeated_call=false refuse_repeated_steps=false"; do
        name=$(echo $setting | sed 's/=false//g; s/ /+/g')
        sets=$(for s in $setting; do printf -- '--set %s ' $s; done)
        # shellcheck disable=SC2086
        autodw bench run --system autodw --llm local --split mini --mode instruction $sets --llm-cache "$cache" \
          --out "$runs/local-autodw-mini-no-$name"
      done ;;
    iset-aid-ablations)  # the same aids on the 27-task instruction set (~45 min; not resumable: one JSON at the end)
      autodw bench perf local-agent --configs default,nogrounding,norules,nosplit,norepair,norepeat \
        --json "$runs/iset-aid-ablations.json" ;;
    *) echo "unknown group $group" >&2; exit 2 ;;
  esac
done
