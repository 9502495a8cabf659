#!/usr/bin/env bash
# Instructions per call of one peers case (bench/support/one-step.mjs), under callgrind: the
# difference between a run of WARMUP + ITERATIONS steps and one of WARMUP steps alone, divided by
# ITERATIONS × N, so start-up and warm-up are left out. Needs valgrind and a built dist/.
#   bench/instructions-per-call.sh <case> [N=10] [ITERATIONS=40]
#   e.g. bench/instructions-per-call.sh agents-adapter 10 40
set -euo pipefail
case_name=$1
n=${2:-10}
iterations=${3:-40}
here=$(dirname "$0")
count() {
  CASE=$case_name N=$n ITERATIONS=$1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    --smc-check=all node --single-threaded "$here/support/one-step.mjs" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
warm=$(count 0)
measured=$(count "$iterations")
echo "$case_name N=$n: $(((measured - warm) / (iterations * n))) instructions per call"
