#!/usr/bin/env bash
# Runs the stateful protocol fuzzer (Sources/ProtocolFuzz) against real storehost processes:
# many adversarial clients at once — every request type with valid and invalid members,
# subscriptions and tails made and dropped, reading paused, abrupt closes, torn and
# oversized frames — first against an in-memory host, then against a durable one.
#
#   Fuzz/run-protocol.sh [SECONDS] [SEED]     default 120 s in all, a random seed
#
# Exits non-zero if a host crashes, stalls, stops answering, does not exit cleanly on
# SIGTERM, or keeps its memory after the load; the seed to replay is printed. Uses the debug
# build (`swift build` first, or BUILD=release): its assertions find more than release would.
set -euo pipefail
seconds="${1:-120}"
seed="${2:-$(( $(od -An -N4 -tu4 /dev/urandom) ))}"
cd "$(dirname "$0")/.."
build="${BUILD:-debug}"

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  swift build -c "$build" --product storehost
  swift build -c "$build" --product ProtocolFuzz
fi
bin=".build/$build"
dir=$(mktemp -d /tmp/fuzz-protocol-XXXXXX)
host=""
cleanup() {
  [ -n "$host" ] && kill -KILL "$host" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

# One run: start a host with the given storage, fuzz it, stop it with SIGTERM.
fuzz() {
  local name="$1" secs="$2" run_seed="$3"
  shift 3
  echo "== $name host, $secs s"
  # A short history keeps the host's legitimate memory small, so that what the load leaves
  # behind shows; it also makes the tails' readers fall behind its oldest entry (entry_gap).
  "$bin/storehost" --socket "$dir/$name.sock" --history 2000 --log-level error "$@" \
    2>"$dir/$name.log" &
  host=$!
  for _ in $(seq 1 200); do [ -S "$dir/$name.sock" ] && break; sleep 0.1; done
  local status=0
  "$bin/ProtocolFuzz" --socket "$dir/$name.sock" --seconds "$secs" --seed "$run_seed" \
    --host-pid "$host" || status=$?
  if kill -0 "$host" 2>/dev/null; then
    kill -TERM "$host"
    wait "$host" || { echo "the $name host did not exit 0 on SIGTERM"; status=1; }
  else
    wait "$host" || true
    status=1
  fi
  host=""
  if [ "$status" -ne 0 ]; then
    echo "== the $name host's log (last 60 lines):"
    tail -n 60 "$dir/$name.log"
    echo "== FAILED: replay with: Fuzz/run-protocol.sh $seconds $seed"
    exit 1
  fi
}

memory_secs=$(( seconds * 2 / 3 ))
durable_secs=$(( seconds - memory_secs ))
fuzz memory "$memory_secs" "$seed" --ephemeral
fuzz durable "$durable_secs" "$(( seed + 1 ))" --data "$dir/data" --fsync everysec
echo "== no crash, no stall; seed $seed"
