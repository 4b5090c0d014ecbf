#!/usr/bin/env bash
# bench/callgrind.sh — the host's instructions per action under `storeclient bench`, counted by
# callgrind (valgrind), for machines without hardware counters (`perf stat` says <not supported>).
#
# Usage:  bench/callgrind.sh [STOREHOST ...]     (default: .build/release/storehost)
#   ROUNDS=2      how many times each load runs per binary (binaries alternate within a round)
#   CLIENT=PATH   the storeclient to drive the load (default: .build/release/storeclient)
#   DURABLE=MODE  run the hosts on a data directory with --fsync MODE (everysec, always, no)
#                 instead of --ephemeral
#   HOST_ARGS="…" more storehost options (e.g. HOST_ARGS="--history 0": the host without history)
#   LOADS=acked   only the 16-client acknowledged load (bench/history.sh uses it)
#   ACTIONS=500   actions per client of that load
#
# Loads: 16 clients with one action in flight (8,000 actions), 16 clients pipelining 16
# (32,000 actions), and one sender fanned out to 50 watchers (1,000 actions). Each host runs
# under callgrind; counters are zeroed after a warm-up and dumped after the load, so the figure
# is every instruction of the host process (all threads) during the load, divided by the actions
# acknowledged. Batching depends on timing, so compare binaries within one run.
#
# valgrind 3.19 (Debian 12) crashes on storehost's main thread, which libdispatch parks in
# sigsuspend(2) with a mask in read-only memory that valgrind edits in place; a preloaded shim
# (compiled here) passes a writable copy of the mask instead.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${ROUNDS:-2}"
CLIENT="${CLIENT:-$ROOT/.build/release/storeclient}"
if [[ $# -eq 0 ]]; then set -- "$ROOT/.build/release/storehost"; fi
for bin in "$@" "$CLIENT"; do
  [[ -x "$bin" ]] || { echo "error: $bin is missing; build it with swift build -c release" >&2; exit 1; }
done
if ! command -v valgrind >/dev/null 2>&1; then
  echo "== installing valgrind (apt-get install valgrind)"
  apt-get update -qq && apt-get install -y -qq valgrind >/dev/null
fi

work="$(mktemp -d /tmp/callgrind-XXXXXX)"
trap 'rm -rf "$work"' EXIT
cat > "$work/shim.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
/* libdispatch hands sigsuspend a mask in read-only memory, which valgrind 3.19 edits in place. */
int sigsuspend(const sigset_t *mask) {
  static int (*real)(const sigset_t *);
  sigset_t copy = *mask;
  if (!real) real = (int (*)(const sigset_t *))dlsym(RTLD_NEXT, "sigsuspend");
  return real(&copy);
}
EOF
cc -shared -fPIC -O2 -o "$work/shim.so" "$work/shim.c" -ldl

# measure BIN LABEL BENCH-ARGS...: prints "LABEL: N instructions/action".
# The host keeps its state in memory (--ephemeral, for binaries that know it); with
# DURABLE=everysec (or always, no) it keeps it in a data directory of the run instead.
measure() {
  local bin="$1" label="$2"
  shift 2
  local dir storage=()
  dir="$(mktemp -d "$work/run-XXXX")"
  if [[ -n "${DURABLE:-}" ]]; then
    storage=(--data "$dir/data" --fsync "$DURABLE")
  elif [[ "$("$bin" --help 2>/dev/null || true)" == *--ephemeral* ]]; then
    # (Not `--help | grep -q`: grep leaves at the first match, the host's help then dies of
    # SIGPIPE, and under pipefail a binary that knows --ephemeral looked as if it did not.)
    storage=(--ephemeral)
  fi
  LD_PRELOAD="$work/shim.so" valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" \
    "$bin" --socket "$dir/h.sock" "${storage[@]}" ${HOST_ARGS:-} --log-level warning \
    > "$dir/host.log" 2>&1 &
  local host=$!
  for _ in $(seq 1 300); do [[ -S "$dir/h.sock" ]] && break; sleep 0.2; done
  "$CLIENT" bench --socket "$dir/h.sock" --clients 2 --actions 300 > /dev/null 2>&1  # warm-up
  callgrind_control -z "$host" > /dev/null 2>&1
  "$CLIENT" bench --socket "$dir/h.sock" "$@" --json > "$dir/bench.json" 2>&1
  callgrind_control -d "$host" > /dev/null 2>&1
  kill -TERM "$host"
  wait "$host" 2> /dev/null || true
  python3 - "$dir" "$label" <<'EOF'
import glob, json, sys
directory, label = sys.argv[1], sys.argv[2]
report = json.loads(open(directory + "/bench.json").read().strip().splitlines()[-1])
dump = sorted(glob.glob(directory + "/cg.out.*"))[0]
total = next(int(line.split()[1]) for line in open(dump) if line.startswith(("summary:", "totals:")))
print("%-44s %9s instructions/action  (%s actions)" % (label, format(total // report["actions"], ","), format(report["actions"], ",")))
EOF
}

for ((round = 1; round <= ROUNDS; round++)); do
  echo "== round $round of $ROUNDS"
  for bin in "$@"; do
    measure "$bin" "$bin 16 clients" --clients 16 --ack every --actions "${ACTIONS:-500}"
    [[ "${LOADS:-all}" == acked ]] && continue
    measure "$bin" "$bin 16 clients × 16 pipelined" --clients 16 --ack end --pipeline 16 --actions 2000
    measure "$bin" "$bin fan-out to 50 watchers" --clients 1 --watchers 50 --actions 1000
  done
done
