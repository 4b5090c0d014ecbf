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
#
# Each host runs under callgrind with the sigsuspend shim of bench/callgrind.sh; counters are
# zeroed after a warm-up and dumped after the load, so a figure is every instruction of the host
# process (all threads) during the load, divided by the actions acknowledged.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${ROUNDS:-2}"
ACTIONS="${ACTIONS:-500}"
HOST="$ROOT/.build/release/storehost"
CLIENT="$ROOT/.build/release/storeclient"
for bin in "$HOST" "$CLIENT"; do
  [[ -x "$bin" ]] || { echo "error: $bin is missing; build it with swift build -c release" >&2; exit 1; }
done
if ! command -v valgrind >/dev/null 2>&1; then
  echo "== installing valgrind (apt-get install valgrind)"
  apt-get update -qq && apt-get install -y -qq valgrind >/dev/null
fi

work="$(mktemp -d /tmp/history-bench-XXXXXX)"
trap 'rm -rf "$work"' EXIT
cat > "$work/shim.c" <<'SHIM'
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
SHIM
cc -shared -fPIC -O2 -o "$work/shim.so" "$work/shim.c" -ldl

# measure LABEL HOST-ARGS...: prints "LABEL: N instructions/action" and appends N to $work/LABEL.
measure() {
  local label="$1"
  shift
  local dir
  dir="$(mktemp -d "$work/run-XXXX")"
  LD_PRELOAD="$work/shim.so" valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" \
    "$HOST" --socket "$dir/h.sock" --ephemeral --log-level warning "$@" > "$dir/host.log" 2>&1 &
  local host=$!
  for _ in $(seq 1 300); do [[ -S "$dir/h.sock" ]] && break; sleep 0.2; done
  "$CLIENT" bench --socket "$dir/h.sock" --clients 2 --actions 300 > /dev/null 2>&1  # warm-up
  callgrind_control -z "$host" > /dev/null 2>&1
  "$CLIENT" bench --socket "$dir/h.sock" --clients 16 --ack every --actions "$ACTIONS" --json \
    > "$dir/bench.json" 2>&1
  callgrind_control -d "$host" > /dev/null 2>&1
  kill -TERM "$host"
  wait "$host" 2> /dev/null || true
  python3 - "$dir" "$label" "$work/$label" <<'PY'
import glob, json, sys
directory, label, record = sys.argv[1], sys.argv[2], sys.argv[3]
report = json.loads(open(directory + "/bench.json").read().strip().splitlines()[-1])
dump = sorted(glob.glob(directory + "/cg.out.*"))[0]
total = next(int(line.split()[1]) for line in open(dump) if line.startswith(("summary:", "totals:")))
per_action = total // report["actions"]
open(record, "a").write("%d\n" % per_action)
print("%-16s %9s instructions/action  (%s actions)" % (label, format(per_action, ","), format(report["actions"], ",")))
PY
}

for ((round = 1; round <= ROUNDS; round++)); do
  echo "== round $round of $ROUNDS"
  measure "with-history"
  measure "without-history" --history 0
done
python3 - "$work" <<'PY'
import statistics, sys
work = sys.argv[1]
with_history = statistics.median(int(x) for x in open(work + "/with-history"))
without = statistics.median(int(x) for x in open(work + "/without-history"))
print("median: %s with the history, %s without: +%s instructions/action (+%.1f %%)" % (
  format(int(with_history), ","), format(int(without), ","), format(int(with_history - without), ","),
  100 * (with_history - without) / without))
PY
