#!/usr/bin/env bash
# bench/compare.sh — storehost vs Redis, side by side, on this machine (issue 7).
#
# Usage:  bench/compare.sh            (from anywhere; takes about 10–15 minutes)
#   DURATION=5   seconds per run (≥ 5 for the issue's figures)
#   RUNS=3       runs per load; the table shows the median
#   SCALE_N="1000 100000"  to-do counts for load 6 (seeded through actions: Todos inserts each
#                new item at index 0, which shifts the array, so seeding is quadratic — 100,000
#                take about a minute here)
#   SKIP_BUILD=1 reuse .build/release
#   LOADS="1234 5 6"  which groups to run: loads 1–4, load 5, load 6 (all by default)
#
# What it does:
#   1. `swift build -c release` (storehost, storeclient).
#   2. Installs redis-server/redis-tools with apt-get when missing (exits 1 with a message
#      if that fails).
#   3. Starts `storehost --socket $TMP/host.sock` and
#      `redis-server --port 0 --unixsocket $TMP/redis.sock --save '' --appendonly no`;
#      no CPU pinning: server and load generator share the machine's cores alike for both.
#   4. Runs the loads of issue 7, alternating the two systems, each run DURATION seconds,
#      RUNS times, and prints one table (median of the runs): load, ours, Redis, ratio.
#        1–3  storeclient bench --clients N --ack every        vs redis-benchmark -t incr -c N -P 1
#        4    storeclient bench --clients 16 --ack end (batches of 16 + ping)
#                                                             vs redis-benchmark -c 16 -P 16
#        5    storeclient bench --clients 1 --rate 1000 --watchers K: send→patch p50/p99
#                                                             vs bench/redis_fanout.py (PUBLISH
#                                                             at 1 kHz to K subscribers, read
#                                                             by bench/redis_fanout_sub.swift,
#                                                             compiled here with swiftc -O)
#        6    todos with N items seeded through actions (bench/todos_scale.py seed), a
#             watcher on `todos` and one on `todos/{id}` (bench/todos_scale.py watch),
#             16 senders (4 storeclient bench processes × 4 clients, each process toggling
#             one random item with {"toggleCompleted":{}}, one of them the watched item):
#             actions/s, patch bytes per action per watcher, host RSS (no Redis counterpart).
#   redis-benchmark's request count is calibrated per load so that a run lasts ≈ DURATION.
#        floor  bench/pingpong.c: a C server and C clients over the same kind of socket, a
#             4-byte length and a 60-byte payload echoed, one in flight, 1 and 16 clients —
#             the transport's floor, which loads 1 and 2 are measured against in the same run
#             (built with the system's C compiler; gcc is installed with apt-get if missing).
#   Raw per-run figures are kept in $TMP/raw.tsv (printed path) for inspection.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DURATION="${DURATION:-5}"
RUNS="${RUNS:-3}"
SCALE_N="${SCALE_N:-1000 100000}"
LOADS="${LOADS:-1234 5 6}"
wants() { [[ " $LOADS " == *" $1 "* ]]; }
cd "$ROOT"

log() { printf '%s\n' "compare: $*" >&2; }

# --- Build ---------------------------------------------------------------------------------
if [[ -z "${SKIP_BUILD:-}" ]]; then
  log "swift build -c release"
  swift build -c release 2>&1 | tail -n 3 >&2
fi
BIN="$(swift build -c release --show-bin-path)"
[[ -x "$BIN/storehost" && -x "$BIN/storeclient" ]] || { log "release binaries missing in $BIN"; exit 1; }
# Redis's fan-out reader (load 5): compiled, so that it reads as fast as our bench's watchers.
SUB_BIN="$ROOT/.build/redis_fanout_sub"
if [[ ! -x "$SUB_BIN" || "$ROOT/bench/redis_fanout_sub.swift" -nt "$SUB_BIN" ]]; then
  swiftc -O "$ROOT/bench/redis_fanout_sub.swift" -o "$SUB_BIN" >&2 || SUB_BIN=""
fi
[[ -n "$SUB_BIN" ]] || log "could not compile bench/redis_fanout_sub.swift; load 5 uses the (slower) Python reader"
# The transport floor (loads 1–4): a C ping-pong over the same kind of socket.
if ! command -v cc >/dev/null; then
  log "installing gcc with apt-get (for bench/pingpong.c)"
  { sudo -n apt-get install -y gcc || apt-get install -y gcc; } >&2 || { log "no C compiler; install gcc"; exit 1; }
fi
PINGPONG_BIN="$ROOT/.build/pingpong"
if [[ ! -x "$PINGPONG_BIN" || "$ROOT/bench/pingpong.c" -nt "$PINGPONG_BIN" ]]; then
  cc -O2 -pthread -o "$PINGPONG_BIN" "$ROOT/bench/pingpong.c" >&2 || { log "could not compile bench/pingpong.c"; exit 1; }
fi

# --- Redis ---------------------------------------------------------------------------------
if ! command -v redis-server >/dev/null || ! command -v redis-benchmark >/dev/null; then
  log "redis-server/redis-benchmark not found; installing redis-server and redis-tools with apt-get"
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  if ! { $SUDO apt-get install -y redis-server redis-tools >/dev/null 2>&1 ||
         { $SUDO apt-get update >/dev/null 2>&1 && $SUDO apt-get install -y redis-server redis-tools >/dev/null 2>&1; }; }; then
    echo "compare.sh: could not install redis-server and redis-tools with apt-get." >&2
    echo "  Install them (Debian: apt-get install redis-server redis-tools) and run again." >&2
    exit 1
  fi
  command -v redis-server >/dev/null && command -v redis-benchmark >/dev/null || {
    echo "compare.sh: redis-server/redis-benchmark still missing after apt-get." >&2; exit 1; }
fi

# --- Servers ---------------------------------------------------------------------------------
TMP="$(mktemp -d /tmp/compare.XXXXXX)"
HOST_SOCK="$TMP/host.sock"
REDIS_SOCK="$TMP/redis.sock"
RAW="$TMP/raw.tsv"
HOST_PID=""; REDIS_PID=""
cleanup() {
  [[ -n "$HOST_PID" ]] && kill "$HOST_PID" 2>/dev/null && wait "$HOST_PID" 2>/dev/null
  [[ -n "$REDIS_PID" ]] && kill "$REDIS_PID" 2>/dev/null && wait "$REDIS_PID" 2>/dev/null
  true
}
trap cleanup EXIT

wait_for_socket() { for _ in $(seq 200); do [[ -S "$1" ]] && return 0; sleep 0.05; done; log "no socket at $1"; exit 1; }

start_host() {
  local sock="$1"
  "$BIN/storehost" --socket "$sock" --log-level error 2>>"$TMP/host.log" &
  HOST_PID=$!
  wait_for_socket "$sock"
}
stop_host() { kill "$HOST_PID" 2>/dev/null; wait "$HOST_PID" 2>/dev/null || true; HOST_PID=""; }
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }

start_host "$HOST_SOCK"
redis-server --port 0 --unixsocket "$REDIS_SOCK" --unixsocketperm 700 --save '' --appendonly no \
  --daemonize no --logfile "$TMP/redis.log" &
REDIS_PID=$!
wait_for_socket "$REDIS_SOCK"
log "storehost pid $HOST_PID on $HOST_SOCK; redis-server pid $REDIS_PID on $REDIS_SOCK; raw figures in $RAW"
: > "$RAW"

# record LOAD SYSTEM METRIC VALUE
record() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> "$RAW"; }
jget() { python3 -c 'import json,sys; v=json.loads(sys.stdin.read()).get(sys.argv[1]); print("" if v is None else v)' "$1"; }

ours() {  # LOAD ARGS… — one storeclient bench run
  local load="$1"; shift
  local out
  out="$("$BIN/storeclient" bench --socket "$HOST_SOCK" --duration "$DURATION" --json "$@")"
  [[ "$(jget errors <<<"$out")" == "0" ]] || log "load $load: storeclient bench reported errors: $out"
  record "$load" ours rps "$(jget actions_per_s <<<"$out")"
  record "$load" ours p50 "$(jget ack_p50_us <<<"$out")"
  record "$load" ours p99 "$(jget ack_p99_us <<<"$out")"
}

declare -A REDIS_N
redis_run() {  # LOAD CLIENTS PIPELINE — one redis-benchmark run, calibrated to ≈ DURATION
  local load="$1" c="$2" p="$3" n out
  if [[ -z "${REDIS_N[$load]:-}" ]]; then
    out="$(redis-benchmark -s "$REDIS_SOCK" -t incr -c "$c" -P "$p" -n $((20000 * p)) --csv | tail -n 1)"
    REDIS_N[$load]="$(python3 -c 'import sys; print(max(10000, int(float(sys.argv[1]) * float(sys.argv[2]))))' \
      "$(cut -d, -f2 <<<"$out" | tr -d '"')" "$DURATION")"
  fi
  n="${REDIS_N[$load]}"
  # CSV: "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
  out="$(redis-benchmark -s "$REDIS_SOCK" -t incr -c "$c" -P "$p" -n "$n" --csv | tail -n 1 | tr -d '"')"
  record "$load" redis rps "$(cut -d, -f2 <<<"$out")"
  record "$load" redis p50 "$(awk -F, '{print $5 * 1000}' <<<"$out")"
  record "$load" redis p99 "$(awk -F, '{print $7 * 1000}' <<<"$out")"
}

floor_run() {  # CLIENTS — one run of the C ping-pong floor
  local out
  out="$("$PINGPONG_BIN" "$TMP/pingpong.sock" "$1" "$DURATION")"
  record "floor$1" floor rps "$(jget round_trips_per_s <<<"$out")"
  record "floor$1" floor p50 "$(jget p50_us <<<"$out")"
  record "floor$1" floor p99 "$(jget p99_us <<<"$out")"
}

# --- Loads 1–4 -------------------------------------------------------------------------------
for run in $(seq "$RUNS"); do
  wants 1234 || break
  log "run $run/$RUNS: loads 1–4"
  ours 1 --clients 1 --ack every;   redis_run 1 1 1
  ours 2 --clients 16 --ack every;  redis_run 2 16 1
  ours 3 --clients 64 --ack every;  redis_run 3 64 1
  ours 4 --clients 16 --ack end --pipeline 16; redis_run 4 16 16
  floor_run 1; floor_run 16
done

# --- Load 5: fan-out -----------------------------------------------------------------------------
for run in $(seq "$RUNS"); do
  wants 5 || break
  for k in 1 10 100; do
    log "run $run/$RUNS: load 5, K = $k"
    out="$("$BIN/storeclient" bench --socket "$HOST_SOCK" --clients 1 --rate 1000 --watchers "$k" \
      --duration "$DURATION" --json)"
    [[ "$(jget errors <<<"$out")" == "0" ]] || log "load 5 K=$k: storeclient bench reported errors: $out"
    record "5k$k" ours p50 "$(jget patch_p50_us <<<"$out")"
    record "5k$k" ours p99 "$(jget patch_p99_us <<<"$out")"
    out="$(python3 "$ROOT/bench/redis_fanout.py" --socket "$REDIS_SOCK" --subscribers "$k" --rate 1000 \
      --duration "$DURATION" ${SUB_BIN:+--subscriber-bin "$SUB_BIN"})"
    record "5k$k" redis p50 "$(jget p50_us <<<"$out")"
    record "5k$k" redis p99 "$(jget p99_us <<<"$out")"
  done
done

# --- Load 6: scale -------------------------------------------------------------------------------
stop_host
wants 6 || SCALE_N=""
for n in $SCALE_N; do
  sock="$TMP/host-$n.sock"
  start_host "$sock"
  record "6n$n" ours rss0 "$(rss_kib "$HOST_PID")"
  log "load 6: seeding $n to-dos through actions"
  seeded="$(python3 "$ROOT/bench/todos_scale.py" seed --socket "$sock" --count "$n")"
  record "6n$n" ours seed_s "$(jget seconds <<<"$seeded")"
  record "6n$n" ours rss_seeded "$(rss_kib "$HOST_PID")"
  mapfile -t ids < <(python3 -c 'import json,sys; print("\n".join(json.loads(sys.stdin.read())["ids"][:4]))' <<<"$seeded")
  for run in $(seq "$RUNS"); do
    log "run $run/$RUNS: load 6, $n to-dos"
    python3 "$ROOT/bench/todos_scale.py" watch --socket "$sock" --seconds "$((DURATION + 2))" \
      --scope todos --scope "todos/${ids[0]}" > "$TMP/watch.out" &
    watch_pid=$!
    for _ in $(seq 100); do grep -q ready "$TMP/watch.out" 2>/dev/null && break; sleep 0.05; done
    pids=()
    for i in 0 1 2 3; do
      "$BIN/storeclient" bench --socket "$sock" --clients 4 --ack every --duration "$DURATION" --json \
        --scope "todos/${ids[$i]}" --action '{"toggleCompleted":{}}' > "$TMP/sender-$i.out" &
      pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p"; done
    wait "$watch_pid"
    python3 - "$TMP" "$n" "${ids[0]}" >> "$RAW" <<'PY'
import json, sys
tmp, n, watched = sys.argv[1], sys.argv[2], sys.argv[3]
reports = [json.load(open("%s/sender-%d.out" % (tmp, i))) for i in range(4)]
stats = json.loads(open(tmp + "/watch.out").read().split("\n", 1)[1])
actions = sum(r["actions"] for r in reports)
seconds = max(r["seconds"] for r in reports)
row = lambda metric, value: print("6n%s\tours\t%s\t%s" % (n, metric, value))
row("rps", round(actions / seconds, 1))
row("p99", max(r["ack_p99_us"] for r in reports))
row("list_bytes", round(stats["todos"]["bytes"] / max(actions, 1), 1))
row("elem_bytes", round(stats["todos/" + watched]["bytes"] / max(actions, 1), 1))
row("list_patches", round(stats["todos"]["patches"] / max(actions, 1), 4))
row("list_patch_count", stats["todos"]["patches"])
row("errors", sum(r["errors"] for r in reports))
PY
    record "6n$n" ours "rss_run$run" "$(rss_kib "$HOST_PID")"
  done
  record "6n$n" ours rss_after "$(rss_kib "$HOST_PID")"
  stop_host
done

# --- Table ---------------------------------------------------------------------------------------
python3 - "$RAW" "$DURATION" "$RUNS" <<'PY'
import collections, statistics, sys
raw, duration, runs = sys.argv[1], sys.argv[2], sys.argv[3]
values = collections.defaultdict(list)
for line in open(raw):
    load, system, metric, value = line.rstrip("\n").split("\t")
    if value != "":
        values[(load, system, metric)].append(float(value))
def med(load, system, metric):
    v = values.get((load, system, metric))
    return statistics.median(v) if v else None
def fmt(v, unit=""):
    if v is None: return "-"
    if unit == "/s": return "{:,.0f}/s".format(v)
    if unit == "us": return "{:,.0f} µs".format(v)
    if unit == "B": return "{:,.1f} B".format(v)
    if unit == "MiB": return "{:,.1f} MiB".format(v / 1024)
    return "{:.3g}".format(v) if abs(v) < 1 else "{:,.2f}".format(v)
def ratio(a, b, inverse=False):
    if a is None or b is None or a == 0 or b == 0: return "-"
    return "{:.2f}×".format(b / a if inverse else a / b)
rows = []
names = {"1": "1: 1 client, 1 in flight", "2": "2: 16 clients, 1 in flight",
         "3": "3: 64 clients, 1 in flight", "4": "4: 16 clients, pipelined 16 (our p50/p99: per batch of 16)"}
for load in "1234":
    for metric, unit in (("rps", "/s"), ("p50", "us"), ("p99", "us")):
        o, r = med(load, "ours", metric), med(load, "redis", metric)
        rows.append((names[load] + " " + {"rps": "req/s", "p50": "p50", "p99": "p99"}[metric],
                     fmt(o, unit), fmt(r, unit), ratio(o, r)))
for clients, load in (("1", "1"), ("16", "2")):
    for metric, unit in (("rps", "/s"), ("p50", "us"), ("p99", "us")):
        o, f = med(load, "ours", metric), med("floor" + clients, "floor", metric)
        rows.append(("floor: %s vs C ping-pong, %s client%s %s" % (load, clients, "" if clients == "1" else "s",
                     {"rps": "req/s", "p50": "p50", "p99": "p99"}[metric]),
                     fmt(o, unit), fmt(f, unit) + " (C)", ratio(o, f)))
for k in ("1", "10", "100"):
    for metric in ("p50", "p99"):
        o, r = med("5k" + k, "ours", metric), med("5k" + k, "redis", metric)
        rows.append(("5: fan-out 1 kHz, K=%s %s send→patch" % (k, metric), fmt(o, "us"), fmt(r, "us"), ratio(o, r)))
for load in sorted({l for (l, _, _) in values if l.startswith("6n")}, key=lambda l: int(l[2:])):
    n = "{:,}".format(int(load[2:]))
    for metric, label, unit in (("rps", "actions/s", "/s"), ("p99", "ack p99", "us"),
                                ("elem_bytes", "todos/{id} watcher patch B/action", "B"),
                                ("list_bytes", "todos watcher patch B/action", "B"),
                                ("list_patches", "todos watcher patches/action", ""),
                                ("list_patch_count", "todos watcher patches per run", ""),
                                ("seed_s", "seeding time (s)", ""),
                                ("rss0", "host RSS at start", "MiB"), ("rss_seeded", "host RSS seeded", "MiB"),
                                ("rss_run1", "host RSS after load run 1", "MiB"),
                                ("rss_run2", "host RSS after load run 2", "MiB"),
                                ("rss_run3", "host RSS after load run 3", "MiB"),
                                ("rss_after", "host RSS after load", "MiB")):
        rows.append(("6: todos N=%s %s" % (n, label), fmt(med(load, "ours", metric), unit), "n/a", ""))
header = ("load", "storehost", "redis", "ratio")
widths = [max(len(r[i]) for r in rows + [header]) for i in range(4)]
print("storehost vs redis — median of %s runs × %s s, raw figures in %s" % (runs, duration, raw))
print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
print("  ".join("-" * w for w in widths))
for r in rows:
    print("  ".join([r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]))
PY
