#!/usr/bin/env bash
# bench/history.sh — what keeping the history costs the host per action (issue 15): the
# instructions of a release storehost under `storeclient bench --clients 16 --ack every` (the
# 16-client acknowledged load of bench/compare.sh), with the history kept (the default, 100,000
# entries) and turned off (--history 0), counted by callgrind (valgrind), since timings on a
# shared machine are not stable and `perf stat` has no hardware counters here.
#
# Usage:  bench/history.sh          (needs `swift build -c release`; installs valgrind with
#                                    apt-get when missing)
#   ROUNDS=2      how many times each configuration runs (they alternate within a round)
#   ACTIONS=500   actions per client (16 clients)
#   DURABLE=MODE  measure hosts on a data directory with --fsync MODE instead of --ephemeral
#
# Each measurement is one run of bench/callgrind.sh's acknowledged load (its shim, warm-up,
# zeroed and dumped counters): every instruction of the host process during the load, divided
# by the actions acknowledged.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${ROUNDS:-2}"
export ACTIONS="${ACTIONS:-500}" LOADS=acked

# count HOST-ARGS: the instructions per action of one callgrind.sh run, printed and returned.
count() {
  local line
  line="$(ROUNDS=1 HOST_ARGS="$*" "$ROOT/bench/callgrind.sh" | grep 'instructions/action')"
  echo "  ${*:-(default)}: $line" >&2
  awk '{ for (i = 2; i <= NF; i++) if ($i == "instructions/action") { gsub(",", "", $(i-1)); print $(i-1) } }' <<<"$line"
}

with=() without=()
for ((round = 1; round <= ROUNDS; round++)); do
  echo "== round $round of $ROUNDS"
  with+=("$(count)")
  without+=("$(count --history 0)")
done
python3 - "${with[*]}" "${without[*]}" <<'PY'
import statistics, sys
with_history = statistics.median(int(x) for x in sys.argv[1].split())
without = statistics.median(int(x) for x in sys.argv[2].split())
print("median: %s with the history, %s without: +%s instructions/action (+%.1f %%)" % (
  format(int(with_history), ","), format(int(without), ","), format(int(with_history - without), ","),
  100 * (with_history - without) / without))
PY
