#!/usr/bin/env bash
# bench/history-cost/measure.sh — the instructions one acknowledged action costs the host's
# event-loop thread with the history kept (storehost's default, 100,000 entries) and without
# it (--history 0), under the load of `storeclient bench --clients 16 --ack every`.
#
# Usage: bench/history-cost/measure.sh   (builds this package in release; needs valgrind,
#        installed with apt-get when missing; takes a few minutes)
#   CLIENTS=16  SMALL=200  LARGE=1200  (actions per client in the two runs)
#
# Each configuration runs twice under `valgrind --tool=callgrind --separate-threads=yes`,
# with SMALL and LARGE actions per client; the host's loop thread is the one whose profile
# names HostCore most. (LARGE − SMALL) × CLIENTS actions divide the difference of its totals:
# start-up and shutdown cancel out. Instruction counts are deterministic to a few per action
# here, where timings on the shared 2-core machine are not.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CLIENTS="${CLIENTS:-16}"; SMALL="${SMALL:-200}"; LARGE="${LARGE:-1200}"
if ! command -v valgrind >/dev/null; then
  echo "measure.sh: installing valgrind with apt-get" >&2
  apt-get install -y valgrind >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y valgrind >/dev/null 2>&1; } ||
    { echo "measure.sh: could not install valgrind" >&2; exit 1; }
fi
(cd "$HERE" && swift build -c release 2>&1 | tail -n 1 >&2)
BIN="$(cd "$HERE" && swift build -c release --show-bin-path)/HistoryCost"
OUT="$(mktemp -d /tmp/history-cost.XXXXXX)"

host_thread_total() {  # the total of the profile file of the host's loop thread
  local best="" most=0
  for file in "$1"-*; do
    local count; count=$(grep -c "HostCore" "$file" || true)
    if (( count > most )); then most=$count; best=$file; fi
  done
  grep -E "^(summary|totals):" "$best" | head -1 | awk '{print $2}'
}

declare -A per_action
for history in 100000 0; do
  totals=()
  for actions in "$SMALL" "$LARGE"; do
    valgrind --tool=callgrind --separate-threads=yes \
      --callgrind-out-file="$OUT/cg.$history.$actions" "$BIN" "$history" "$CLIENTS" "$actions" \
      >"$OUT/run.$history.$actions.log" 2>&1
    totals+=("$(host_thread_total "$OUT/cg.$history.$actions")")
  done
  per_action[$history]=$(( (totals[1] - totals[0]) / ((LARGE - SMALL) * CLIENTS) ))
  echo "history $history: host loop thread ${totals[0]} → ${totals[1]} instructions;" \
    "${per_action[$history]} per action" >&2
done
with=${per_action[100000]}; without=${per_action[0]}
echo "instructions per action on the host's loop thread: with history $with, without $without," \
  "cost $(( with - without )) ($(( (with - without) * 1000 / without / 10 )).$(( (with - without) * 1000 / without % 10 )) %)"
echo "(profiles in $OUT)"
