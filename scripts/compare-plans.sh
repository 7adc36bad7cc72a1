#!/usr/bin/env bash
# Checks that two builds plan the same: runs ckpt-chain and ckpt-sched of
# OLD_BIN and NEW_BIN on the same inputs and compares their outputs byte for
# byte (only ckpt-sched's plan_ms, a time, is left out). Lists what differs
# and exits 1 if anything does.
#
#   scripts/compare-plans.sh OLD_BIN NEW_BIN [GRAPHS_DIR]
#
# OLD_BIN, NEW_BIN: directories holding ckpt-chain, ckpt-sched and (NEW_BIN)
# ckpt-bench-chain, e.g. a copy of build/bin made before a change, and
# build/bin. GRAPHS_DIR: Checkmate's graphs (default
# ../shared/graphs/checkmate beside the checkout; skipped when absent).
#
# Inputs: ckpt-chain on test/Solver/Inputs' chains (six strategies, one
# schedule and a 25-budget sweep each) and on the chain benchmark's chains
# (L = 50, 100, 200, 339 at 10-90% of store-all, optimal and revolve, 500
# and 100 slots); ckpt-sched on every graph of GRAPHS_DIR at 90-10% with
# four strategies that run the chain DP, schedules printed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ $# -lt 2 ]; then
  echo "usage: scripts/compare-plans.sh OLD_BIN NEW_BIN [GRAPHS_DIR]" >&2
  exit 2
fi
old=$(cd "$1" && pwd)
new=$(cd "$2" && pwd)
graphs=${3:-$root/../shared/graphs/checkmate}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
compared=0
differing=0

# same NAME TOOL ARGS...: runs TOOL from both directories.
same() {
  local name=$1 tool=$2
  shift 2
  local a b
  a=$("$old/$tool" "$@" 2>&1 | sed 's/"plan_ms":[0-9.e+-]*//g' || true)
  b=$("$new/$tool" "$@" 2>&1 | sed 's/"plan_ms":[0-9.e+-]*//g' || true)
  compared=$((compared + 1))
  if [ "$a" != "$b" ]; then
    differing=$((differing + 1))
    echo "differs: $tool $name"
  fi
}

for f in test/Solver/Inputs/chain2.json test/Solver/Inputs/chain2-slots.json \
  test/Solver/Inputs/chain200.json; do
  for st in optimal revolve store-all sqrt periodic:3 memory-poor; do
    same "$f $st" ckpt-chain "$f" --strategy=$st --threads=1
    same "$f $st sweep" ckpt-chain "$f" --strategy=$st --sweep=25 --threads=1
  done
done
for L in 50 100 200 339; do
  for pct in 10 25 50 75 90; do
    c=$tmp/chain-$L-$pct.json
    "$new/ckpt-bench-chain" --write-chain=$L:500:$pct:"$c"
    for st in optimal revolve; do
      same "L=$L $pct% $st" ckpt-chain "$c" --strategy=$st
      same "L=$L $pct% $st slots=100" ckpt-chain "$c" --strategy=$st --slots=100
    done
  done
done
if [ -d "$graphs" ]; then
  for g in "$graphs"/*.json; do
    for b in 90% 70% 50% 30% 20% 10%; do
      for st in optimal revolve articulation sqrt; do
        same "$(basename "$g") $b $st" ckpt-sched "$g" --budget=$b \
          --strategy=$st --schedule --compact
      done
    done
  done
fi
echo "compare-plans: $compared outputs compared, $differing differ"
[ "$differing" -eq 0 ]
