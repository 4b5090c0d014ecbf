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
#   LOADS="1234 5 6 7 8"  which groups to run: loads 1–4, 5, 6, 7 (durable throughput),
#                8 (recovery) (all by default)
#   RECOVERY_ACTIONS=1000000  counter actions journaled for load 8; RECOVERY_TODOS=100000 to-dos
#                in the snapshot and as many journaled toggles
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
#             actions/s, patch bytes per action per watcher, host RSS (no Redis counterpart);
#             then send→patch p50/p99 for one watcher of the whole `todos` list while one
#             client toggles a to-do through `todos` at 1,000 actions/s (storeclient bench
#             --scope todos --rate 1000 --watchers 1; target ≤ 2 ms p99 at N = 100,000).
#        7    durability: storehost --data DIR --fsync everysec|always vs redis-server
#             --appendonly yes --appendfsync everysec|always (both journaling to files in $TMP),
#             1 and 16 clients, one INCR/increment in flight each; and the same loads on the
#             ephemeral host of loads 1–4, for what journaling costs us (everysec vs --ephemeral)
#        8    recovery: a journal of RECOVERY_ACTIONS counter increments (storeclient bench,
#             16 clients × 16 pipelined; host RSS sampled every quarter: journaling must not
#             grow memory), then the host killed (-9) and restarted RUNS times: the recovery
#             time it logs, and the journal's size on disk; Redis: an AOF of as many INCRs
#             (redis-benchmark -P 16, auto-aof-rewrite off), restarted RUNS times: the load
#             time it logs ("DB loaded from append only file"); and RECOVERY_TODOS to-dos
#             seeded through actions, snapshotted by a clean stop, then as many toggles of
#             distinct to-dos journaled (--snapshot-growth 1000 keeps them in the journal),
#             killed and restarted RUNS times.
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
LOADS="${LOADS:-1234 5 6 7 8}"
RECOVERY_ACTIONS="${RECOVERY_ACTIONS:-1000000}"
RECOVERY_TODOS="${RECOVERY_TODOS:-100000}"
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
EXTRA_PIDS=()
cleanup() {
  for pid in "${EXTRA_PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  [[ -n "$HOST_PID" ]] && kill "$HOST_PID" 2>/dev/null && wait "$HOST_PID" 2>/dev/null
  [[ -n "$REDIS_PID" ]] && kill "$REDIS_PID" 2>/dev/null && wait "$REDIS_PID" 2>/dev/null
  true
}
trap cleanup EXIT

wait_for_socket() { for _ in $(seq 200); do [[ -S "$1" ]] && return 0; sleep 0.05; done; log "no socket at $1"; exit 1; }

start_host() {
  local sock="$1"
  "$BIN/storehost" --socket "$sock" --ephemeral --log-level error 2>>"$TMP/host.log" &
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

ours() {  # LOAD ARGS… — one storeclient bench run (on $OURS_SOCK, else the ephemeral host)
  local load="$1"; shift
  local out
  out="$("$BIN/storeclient" bench --socket "${OURS_SOCK:-$HOST_SOCK}" --duration "$DURATION" --json "$@")"
  [[ "$(jget errors <<<"$out")" == "0" ]] || log "load $load: storeclient bench reported errors: $out"
  record "$load" ours rps "$(jget actions_per_s <<<"$out")"
  record "$load" ours p50 "$(jget ack_p50_us <<<"$out")"
  record "$load" ours p99 "$(jget ack_p99_us <<<"$out")"
}

declare -A REDIS_N
redis_run() {  # LOAD CLIENTS PIPELINE [SOCKET] — one redis-benchmark run, calibrated to ≈ DURATION
  local load="$1" c="$2" p="$3" socket="${4:-$REDIS_SOCK}" n out
  if [[ -z "${REDIS_N[$load]:-}" ]]; then
    out="$(redis-benchmark -s "$socket" -t incr -c "$c" -P "$p" -n $((5000 * p)) --csv | tail -n 1)"
    REDIS_N[$load]="$(python3 -c 'import sys; print(max(10000, int(float(sys.argv[1]) * float(sys.argv[2]))))' \
      "$(cut -d, -f2 <<<"$out" | tr -d '"')" "$DURATION")"
  fi
  n="${REDIS_N[$load]}"
  # CSV: "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
  out="$(redis-benchmark -s "$socket" -t incr -c "$c" -P "$p" -n "$n" --csv | tail -n 1 | tr -d '"')"
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

# --- Load 7: durability, throughput ----------------------------------------------------------------
start_durable_host() {  # SOCKET DIR FSYNC [ARGS…] — a durable storehost; its pid in DURABLE_PID
  local sock="$1" dir="$2" fsync="$3"; shift 3
  "$BIN/storehost" --socket "$sock" --data "$dir" --fsync "$fsync" --log-level info "$@" \
    2>>"$TMP/durable-host.log" &
  DURABLE_PID=$!
  EXTRA_PIDS+=("$DURABLE_PID")
  wait_for_socket "$sock"
}
start_aof_redis() {  # SOCKET DIR FSYNC [ARGS…] — redis-server with its AOF in DIR; pid in AOF_REDIS_PID
  local sock="$1" dir="$2" fsync="$3"; shift 3
  mkdir -p "$dir"
  : > "$dir/redis.log"
  redis-server --port 0 --unixsocket "$sock" --unixsocketperm 700 --save '' --appendonly yes \
    --appendfsync "$fsync" --dir "$dir" --daemonize no --logfile "$dir/redis.log" "$@" &
  AOF_REDIS_PID=$!
  EXTRA_PIDS+=("$AOF_REDIS_PID")
  wait_for_socket "$sock"
  # The socket accepts while the AOF is still loading: wait until Redis says it is ready.
  for _ in $(seq 1200); do grep -qi "ready to accept connections" "$dir/redis.log" && return 0; sleep 0.05; done
  log "redis-server did not finish loading $dir"; exit 1
}
if wants 7; then
  declare -A DURABLE_SOCK AOF_SOCK
  for mode in everysec always; do
    DURABLE_SOCK[$mode]="$TMP/host-$mode.sock"
    start_durable_host "${DURABLE_SOCK[$mode]}" "$TMP/data-$mode" "$mode"
    AOF_SOCK[$mode]="$TMP/redis-$mode.sock"
    start_aof_redis "${AOF_SOCK[$mode]}" "$TMP/redis-$mode" "$mode"
  done
  for run in $(seq "$RUNS"); do
    log "run $run/$RUNS: load 7 (durability)"
    for c in 1 16; do
      OURS_SOCK="" ours "7n$c" --clients "$c" --ack every
      OURS_SOCK="${DURABLE_SOCK[everysec]}" ours "7e$c" --clients "$c" --ack every
      redis_run "7e$c" "$c" 1 "${AOF_SOCK[everysec]}"
      OURS_SOCK="${DURABLE_SOCK[always]}" ours "7a$c" --clients "$c" --ack every
      redis_run "7a$c" "$c" 1 "${AOF_SOCK[always]}"
      # What journaling costs us, from this run's two figures.
      python3 - "$RAW" "$c" "$run" >> "$RAW" <<'PY'
import sys
raw, c, run = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = [l.rstrip("\n").split("\t") for l in open(raw)]
def nth(load):
    values = [float(r[3]) for r in rows if r[0] == load and r[1] == "ours" and r[2] == "rps"]
    return values[run - 1]
print("7c%s\tours\tcost\t%.4f" % (c, 1 - nth("7e" + c) / nth("7n" + c)))
PY
    done
  done
  # Stopped cleanly first: the journal segment being written is then cut to its records (it
  # runs on with the space it allocates ahead while open).
  for pid in "${EXTRA_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; done
  EXTRA_PIDS=()
  for mode in everysec always; do
    record "7d$mode" ours journal_mib "$(du -sm "$TMP/data-$mode" | cut -f1)"
    record "7d$mode" redis journal_mib "$(du -sm "$TMP/redis-$mode" | cut -f1)"
  done
fi

# --- Load 8: recovery ------------------------------------------------------------------------------
recovered_ms() {  # LOGFILE — the recovery time of the last "recovered revision" line, in ms
  grep 'recovered revision' "$1" | tail -n 1 | sed -E 's/.* in ([0-9.]+) ms.*/\1/'
}
restart_and_measure() {  # LOAD SOCKET DIR ARGS… — kill -9'd host restarted: its recovery time
  local load="$1" sock="$2" dir="$3"; shift 3
  local logfile="$TMP/recovery-$load.log" started ended
  started=$(date +%s.%N)
  "$BIN/storehost" --socket "$sock" --data "$dir" --log-level info "$@" 2>"$logfile" &
  local pid=$!
  EXTRA_PIDS+=("$pid")
  wait_for_socket "$sock"
  ended=$(date +%s.%N)
  record "$load" ours recovery_ms "$(recovered_ms "$logfile")"
  record "$load" ours start_ms "$(python3 -c "print(($ended - $started) * 1000)")"
  record "$load" ours revision "$(grep -o 'recovered revision [0-9]*' "$logfile" | grep -o '[0-9]*$')"
  kill -9 "$pid"; wait "$pid" 2>/dev/null || true
  rm -f "$sock"
}
if wants 8; then
  # Ours: RECOVERY_ACTIONS increments, journaled (no snapshot: below the 64 MiB minimum).
  sock="$TMP/rec-counter.sock"; dir="$TMP/rec-counter"
  start_durable_host "$sock" "$dir" no
  per_quarter=$((RECOVERY_ACTIONS / 16 / 4))
  record 8c ours rss_q0 "$(rss_kib "$DURABLE_PID")"
  for quarter in 1 2 3 4; do
    log "load 8: journaling counter actions, quarter $quarter/4"
    "$BIN/storeclient" bench --socket "$sock" --clients 16 --actions "$per_quarter" --ack end \
      --pipeline 16 --json > "$TMP/rec-bench.out"
    record 8c ours "rss_q$quarter" "$(rss_kib "$DURABLE_PID")"
  done
  record 8c ours actions "$((per_quarter * 16 * 4))"
  kill -9 "$DURABLE_PID"; wait "$DURABLE_PID" 2>/dev/null || true; rm -f "$sock"
  # Redis: as many INCRs in its AOF (no rewrite), then killed.
  rsock="$TMP/rec-redis.sock"; rdir="$TMP/rec-redis"
  start_aof_redis "$rsock" "$rdir" no --auto-aof-rewrite-percentage 0
  log "load 8: redis-benchmark appending $((per_quarter * 64)) INCRs"
  redis-benchmark -s "$rsock" -t incr -c 16 -P 16 -n "$((per_quarter * 64))" -q >/dev/null
  record 8r redis aof_bytes "$(cat "$rdir"/appendonlydir/*.aof | wc -c)"
  kill -9 "$AOF_REDIS_PID"; wait "$AOF_REDIS_PID" 2>/dev/null || true; rm -f "$rsock"
  # Ours: RECOVERY_TODOS to-dos in a snapshot, then as many toggles journaled.
  tsock="$TMP/rec-todos.sock"; tdir="$TMP/rec-todos"
  start_durable_host "$tsock" "$tdir" no --snapshot-growth 1000
  log "load 8: seeding $RECOVERY_TODOS to-dos through actions"
  python3 "$ROOT/bench/todos_scale.py" seed --socket "$tsock" --count "$RECOVERY_TODOS" >/dev/null
  kill -TERM "$DURABLE_PID"; wait "$DURABLE_PID" 2>/dev/null || true  # the snapshot
  start_durable_host "$tsock" "$tdir" no --snapshot-growth 1000
  log "load 8: journaling $RECOVERY_TODOS toggles of distinct to-dos"
  python3 "$ROOT/bench/durability.py" toggles --socket "$tsock" --count "$RECOVERY_TODOS" >/dev/null
  record 8t ours snapshot_bytes "$(ls -1 "$tdir"/snapshot-*.snap | tail -n 1 | xargs cat | wc -c)"
  kill -9 "$DURABLE_PID"; wait "$DURABLE_PID" 2>/dev/null || true; rm -f "$tsock"
  for run in $(seq "$RUNS"); do
    log "run $run/$RUNS: load 8 (recovery)"
    restart_and_measure 8c "$sock" "$dir" --fsync no
    start_aof_redis "$rsock" "$rdir" no --auto-aof-rewrite-percentage 0
    record 8r redis recovery_ms "$(grep 'DB loaded from append only file' "$rdir/redis.log" | tail -n 1 \
      | sed -E 's/.*: ([0-9.]+) seconds.*/\1/' | python3 -c 'import sys; print(float(sys.stdin.read()) * 1000)')"
    record 8r redis count "$(redis-cli -s "$rsock" get counter:__rand_int__)"
    kill -9 "$AOF_REDIS_PID"; wait "$AOF_REDIS_PID" 2>/dev/null || true; rm -f "$rsock"
    restart_and_measure 8t "$tsock" "$tdir" --fsync no --snapshot-growth 1000
    if [[ "$run" == 1 ]]; then
      # Recovery cut the killed hosts' segments to their records: what they take on disk.
      record 8c ours journal_bytes "$(cat "$dir"/journal-*.log | wc -c)"
      record 8t ours journal_bytes "$(ls -1 "$tdir"/journal-*.log | tail -n 2 | head -n 1 | xargs cat | wc -c)"
    fi
  done
fi

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
  # A watcher of the whole list: how long each change takes to reach it (O(changes), not O(N)).
  toggle="{\"todos\":{\"_0\":{\"element\":{\"id\":\"${ids[1]}\",\"action\":{\"toggleCompleted\":{}}}}}}"
  for run in $(seq "$RUNS"); do
    log "run $run/$RUNS: load 6, $n to-dos, send→patch to a todos watcher at 1 kHz"
    out="$("$BIN/storeclient" bench --socket "$sock" --clients 1 --rate 1000 --watchers 1 \
      --duration "$DURATION" --json --scope todos --action "$toggle")"
    [[ "$(jget errors <<<"$out")" == "0" ]] || log "load 6 N=$n watcher: storeclient bench reported errors: $out"
    record "6n$n" ours list_patch_p50 "$(jget patch_p50_us <<<"$out")"
    record "6n$n" ours list_patch_p99 "$(jget patch_p99_us <<<"$out")"
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
                                ("list_patch_p50", "todos watcher send→patch p50 at 1 kHz", "us"),
                                ("list_patch_p99", "todos watcher send→patch p99 at 1 kHz", "us"),
                                ("seed_s", "seeding time (s)", ""),
                                ("rss0", "host RSS at start", "MiB"), ("rss_seeded", "host RSS seeded", "MiB"),
                                ("rss_run1", "host RSS after load run 1", "MiB"),
                                ("rss_run2", "host RSS after load run 2", "MiB"),
                                ("rss_run3", "host RSS after load run 3", "MiB"),
                                ("rss_after", "host RSS after load", "MiB")):
        rows.append(("6: todos N=%s %s" % (n, label), fmt(med(load, "ours", metric), unit), "n/a", ""))
for c in ("1", "16"):
    clients = "1 client" if c == "1" else c + " clients"
    for mode, name in (("e", "everysec"), ("a", "always")):
        for metric, unit in (("rps", "/s"), ("p50", "us"), ("p99", "us")):
            o, r = med("7" + mode + c, "ours", metric), med("7" + mode + c, "redis", metric)
            rows.append(("7: fsync %s, %s, 1 in flight %s" % (name, clients, {"rps": "req/s", "p50": "p50", "p99": "p99"}[metric]),
                         fmt(o, unit), fmt(r, unit), ratio(o, r)))
    o = med("7n" + c, "ours", "rps")
    rows.append(("7: --ephemeral (same run), %s req/s" % clients, fmt(o, "/s"), "n/a", ""))
    cost = med("7c" + c, "ours", "cost")
    rows.append(("7: everysec's cost vs --ephemeral, %s (median of runs)" % clients,
                 "-" if cost is None else "{:.1%}".format(cost), "n/a", ""))
for mode in ("everysec", "always"):
    o, r = med("7d" + mode, "ours", "journal_mib"), med("7d" + mode, "redis", "journal_mib")
    if o is not None:
        rows.append(("7: fsync %s, journal/AOF on disk after the runs (MiB)" % mode, fmt(o), fmt(r), ratio(o, r)))
o, r = med("8c", "ours", "recovery_ms"), med("8r", "redis", "recovery_ms")
if o is not None or r is not None:
    actions = med("8c", "ours", "actions") or 0
    rows.append(("8: recovery of %s counter actions (journal) vs AOF load of as many INCRs, ms" % "{:,.0f}".format(actions),
                 fmt(o), fmt(r), ratio(o, r)))
    rows.append(("8: …host start to listening, ms", fmt(med("8c", "ours", "start_ms")), "n/a", ""))
    jb, ab = med("8c", "ours", "journal_bytes"), med("8r", "redis", "aof_bytes")
    if jb and actions:
        rows.append(("8: on disk per 1,000,000 actions, MB", fmt(jb / actions), fmt(ab / actions if ab else None), ratio(jb, ab)))
    for q in range(5):
        rows.append(("8: host RSS after %d/4 of the journaling" % q, fmt(med("8c", "ours", "rss_q%d" % q), "MiB"), "n/a", ""))
    t = med("8t", "ours", "recovery_ms")
    rows.append(("8: recovery of to-dos in the snapshot + as many toggles journaled, ms", fmt(t), fmt(r), ratio(t, r)))
    rows.append(("8: …snapshot / toggles journal on disk, MB",
                 "%s / %s" % (fmt((med("8t", "ours", "snapshot_bytes") or 0) / 1e6), fmt((med("8t", "ours", "journal_bytes") or 0) / 1e6)), "n/a", ""))
header = ("load", "storehost", "redis", "ratio")
widths = [max(len(r[i]) for r in rows + [header]) for i in range(4)]
print("storehost vs redis — median of %s runs × %s s, raw figures in %s" % (runs, duration, raw))
print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
print("  ".join("-" * w for w in widths))
for r in rows:
    print("  ".join([r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]))
PY
