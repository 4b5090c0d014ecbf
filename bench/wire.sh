#!/usr/bin/env bash
# bench/wire.sh — the Wire benchmarks and the issue-4 speed targets (issue 4).
#
# Usage:  bench/wire.sh               (from anywhere; about 5 minutes here)
#   RUNS=3        how many times the `targets` section runs (each is 21 alternating rounds)
#   SKIP_BUILD=1  reuse .build/release/WireBenchmarks
#   FULL=0        skip the one full run of every section
#
# What it does:
#   1. `swift build -c release --product WireBenchmarks`.
#   2. Runs every section once (json, patch, transport, targets): medians of 5 runs of thread
#      CPU time, best run alongside.
#   3. Runs `WireBenchmarks targets` RUNS times. The issue states its targets for its own
#      machine and calibrates them with Foundation there (JSONDecoder: 1.9 µs for
#      {"increment":{}}; JSONEncoder: 46 MB/s on 10,000 small structs). Each target is timed
#      here alternately with the same Foundation path, and the median ratio, times the
#      reference figure, is the figure held against the target.
#   4. When `perf` is installed, counts user-space instructions per call of the same paths
#      (`WireBenchmarks loop NAME COUNT`, minus a run with COUNT 0): unlike times, these do not
#      move with the machine's load.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNS="${RUNS:-3}"
BIN="$ROOT/.build/release/WireBenchmarks"

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  echo "== swift build -c release --product WireBenchmarks"
  (cd "$ROOT" && swift build -c release --product WireBenchmarks 2>&1 | tail -1)
fi
if [[ ! -x "$BIN" ]]; then
  echo "error: $BIN is missing; run without SKIP_BUILD=1 to build it" >&2
  exit 1
fi

if [[ "${FULL:-1}" != 0 ]]; then
  "$BIN"
fi

for ((run = 1; run <= RUNS; run++)); do
  echo "== targets, run $run of $RUNS ($(date -u +%H:%M:%S) UTC)"
  "$BIN" targets | tail -n +2
done

if ! command -v perf >/dev/null 2>&1; then
  echo "(perf is not installed: no instruction counts)"
  exit 0
fi

# Instructions per call of one loop: a run of COUNT calls minus a run of none.
instructions() {
  local name="$1" count="$2" none all
  none=$(perf stat -x, -e instructions:u "$BIN" loop "$name" 0 2>&1 >/dev/null | awk -F, '/instructions/ {print $1}')
  all=$(perf stat -x, -e instructions:u "$BIN" loop "$name" "$count" 2>&1 >/dev/null | awk -F, '/instructions/ {print $1}')
  if [[ ! "$none" =~ ^[0-9]+$ || ! "$all" =~ ^[0-9]+$ ]]; then
    echo "0"
    return
  fi
  echo $(((all - none) / count))
}

echo "== user-space instructions per call (perf stat)"
send=$(instructions send-reference 200000)
decoder=$(instructions jsondecoder-reference 200000)
parse=$(instructions parse 20)
serialize=$(instructions serialize 20)
encoder=$(instructions jsonencoder-bulk 10)
if ((send == 0 || decoder == 0 || parse == 0 || encoder == 0)); then
  echo "(perf could not count instructions here, e.g. perf_event_paranoid; skipped)"
  exit 0
fi
printf '%-52s %12s\n' "small send {\"increment\":{}}, frame → Codable" "$send"
printf '%-52s %12s\n' "  JSONDecoder {\"increment\":{}}" "$decoder"
printf '%-52s %12s\n' "parse 1 MiB document (result freed)" "$parse"
printf '%-52s %12s\n' "serialize 1 MiB document (reused buffer)" "$serialize"
printf '%-52s %12s\n' "  JSONEncoder, 10,000 small structs" "$encoder"
awk -v s="$send" -v d="$decoder" 'BEGIN {
  printf "send / JSONDecoder = %.3f: %.2f µs at the reference'\''s 1.9 µs (target < 1 µs)\n", s / d, s / d * 1.9 }'
