#!/usr/bin/env bash
# bench/soak.sh — every kind of client at once against one storehost, for minutes (issue 13).
#
# Usage:  bench/soak.sh [SECONDS]        (default 600; CI runs `bench/soak.sh 60` on the debug build)
#   BUILD=release|debug   which storehost to build and run (default release)
#   SKIP_BUILD=1          use the built binary as it is
#   OUT=DIR               where samples.tsv, result.json, host.log and soak.png go (default: a
#                         new directory under /tmp, printed at the end)
#   PLOT=FILE             also copy the plot there (e.g. bench/soak.png)
#
# The load (bench/soak.py): 4 senders with 8 acknowledged increments in flight each, a to-do
# writer, a writer of 256 KiB descriptions, 6 watchers keeping mirrors by patches, 2 connect/subscribe/leave churners, 2 stalled
# readers replaced every 15 s, and 4 connections that announce a 4 MiB frame, send 3.5 MiB of it
# and stop — against a host with `--max-frame 4194304 --max-buffered 12582912 --frame-timeout
# 5`, so that they are closed both for the budget (`overloaded`) and for stalling (`bad_frame`).
# The host keeps `--history 10000` recent actions: the history is memory kept on purpose
# (about 450 bytes an entry, bounded by --history; bench/HISTORY.md), and at the default of
# 100,000 entries it alone would hold ~45 MiB after the load — more than the recovery check
# allows for what hostile clients leave behind, which is what this check is about. For the same
# reason its byte bounds are 16 MiB (--history-memory, --change-log-memory): the large writer's
# descriptions would otherwise fill the default 64 MiB of history, which is kept on purpose too.
# The host's RSS and open descriptors are sampled every 2 s and plotted (gnuplot, installed
# with apt-get when missing).
#
# Fails (exit 1) when an acknowledged action was lost or a watcher's mirror differs from the
# host's state, when RSS or descriptors keep growing (the last third of the run peaks more than
# 25 % + 16 MiB above the middle third for RSS, or 8 descriptors for fds), or when, 8 s after
# the load stops, RSS is not back within 32 MiB of where it started or descriptors are not back.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_TOTAL="${1:-600}"
BUILD="${BUILD:-release}"
BIN="$ROOT/.build/$BUILD/storehost"
OUT="${OUT:-$(mktemp -d /tmp/soak-XXXXXX)}"
mkdir -p "$OUT"

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  echo "== swift build -c $BUILD --product storehost"
  (cd "$ROOT" && swift build -c "$BUILD" --product storehost 2>&1 | tail -1)
fi
[[ -x "$BIN" ]] || { echo "error: $BIN is missing; run without SKIP_BUILD=1" >&2; exit 1; }

socket="$OUT/host.sock"
"$BIN" --socket "$socket" --ephemeral --log-level warning --max-frame 4194304 --max-buffered 12582912 \
  --frame-timeout 5 --history 10000 --history-memory 16M --change-log-memory 16M 2> "$OUT/host.log" &
host=$!
stop_host() { kill -TERM "$host" 2>/dev/null || true; wait "$host" 2>/dev/null || true; }
trap stop_host EXIT
for _ in $(seq 1 200); do [[ -S "$socket" ]] && break; sleep 0.1; done
[[ -S "$socket" ]] || { echo "error: storehost did not start (see $OUT/host.log)" >&2; exit 1; }

echo "== soak: ${SECONDS_TOTAL} s against $BIN (pid $host), samples in $OUT/samples.tsv"
status=0
python3 "$ROOT/bench/soak.py" --socket "$socket" --pid "$host" --seconds "$SECONDS_TOTAL" \
  --samples "$OUT/samples.tsv" > "$OUT/result.json" || status=$?
cat "$OUT/result.json"
kill -0 "$host" 2>/dev/null || { echo "FAIL: storehost exited during the soak (see $OUT/host.log)"; exit 1; }

# Growth: the last third of the load against the middle third; recovery: after the load.
python3 - "$OUT/samples.tsv" "$SECONDS_TOTAL" > "$OUT/verdict.txt" <<'EOF' || status=1
import sys
rows = [line.split("\t") for line in open(sys.argv[1]).read().split("\n")[1:] if line]
rows = [(float(t), int(r), int(f)) for t, r, f, _ in rows]
total = float(sys.argv[2])
load = [row for row in rows if row[0] <= total]
after = [row for row in rows if row[0] > total]
middle = [row for row in load if total / 3 <= row[0] < 2 * total / 3]
last = [row for row in load if row[0] >= 2 * total / 3]
start_rss, start_fds = rows[0][1], rows[0][2]
failures = []
rss_mid, rss_last = max(r for _, r, _ in middle), max(r for _, r, _ in last)
fds_mid, fds_last = max(f for _, _, f in middle), max(f for _, _, f in last)
if rss_last > rss_mid * 1.25 + 16 * 1024:
    failures.append("RSS keeps growing: peak %d KiB in the last third, %d KiB in the middle" % (rss_last, rss_mid))
if fds_last > fds_mid + 8:
    failures.append("descriptors keep growing: %d in the last third, %d in the middle" % (fds_last, fds_mid))
end_rss, end_fds = after[-1][1], after[-1][2]
if end_rss > start_rss + 32 * 1024:
    failures.append("RSS after the load is %d KiB, %d KiB at the start" % (end_rss, start_rss))
if end_fds > start_fds + 2:
    failures.append("%d descriptors open after the load, %d at the start" % (end_fds, start_fds))
print("RSS MiB: start %.1f, peak middle third %.1f, peak last third %.1f, peak overall %.1f, after %.1f"
      % (start_rss / 1024, rss_mid / 1024, rss_last / 1024, max(r for _, r, _ in rows) / 1024, end_rss / 1024))
print("fds: start %d, peak middle third %d, peak last third %d, after %d" % (start_fds, fds_mid, fds_last, end_fds))
for failure in failures:
    print("FAIL: " + failure)
sys.exit(1 if failures else 0)
EOF
cat "$OUT/verdict.txt"

if ! command -v gnuplot >/dev/null 2>&1; then
  echo "== installing gnuplot (apt-get install gnuplot-nox)"
  { apt-get update -qq && apt-get install -y -qq gnuplot-nox; } >/dev/null 2>&1 \
    || echo "warning: gnuplot could not be installed; no plot"
fi
if command -v gnuplot >/dev/null 2>&1; then
  gnuplot <<EOF
set terminal pngcairo size 1000,520 font ",10"
set output "$OUT/soak.png"
set title "storehost soak: ${SECONDS_TOTAL} s of senders, watchers, churn, stalled readers and oversized partial frames"
set xlabel "seconds"
set ylabel "RSS (MiB)"
set y2label "open descriptors"
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:*]
set grid
set key outside bottom center horizontal
set arrow from ${SECONDS_TOTAL}, graph 0 to ${SECONDS_TOTAL}, graph 1 nohead dashtype 2
plot "$OUT/samples.tsv" using 1:(\$2/1024) skip 1 with lines linewidth 2 title "RSS", \
     "$OUT/samples.tsv" using 1:3 skip 1 axes x1y2 with lines title "descriptors"
EOF
  echo "plot: $OUT/soak.png"
  if [[ -n "${PLOT:-}" ]]; then cp "$OUT/soak.png" "$PLOT"; fi
fi
echo "results: $OUT"
exit "$status"
