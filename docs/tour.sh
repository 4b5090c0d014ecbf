#!/usr/bin/env bash
# README's "A five-minute tour", run as a script: the same commands, in the same order, against
# a fresh host whose data and socket are in a temporary directory. It prints a transcript in
# the README's form (`$ command`, then its output), and fails when a command does not do what
# the tour says: an exit status other than the one shown, a watcher that misses a change, a
# restarted host that does not recover the revision it stopped at. CI runs it (.ci/run); the
# README's sample outputs are taken from its transcript (times, pids and ids aside).
#
#   swift build && docs/tour.sh            (BIN=dir for other binaries than .build/debug)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${BIN:-$root/.build/debug}"
for tool in storehost storeclient; do
  [ -x "$bin/$tool" ] || { echo "tour.sh: no $tool in $bin: run 'swift build' first" >&2; exit 1; }
done
export PATH="$bin:$PATH"
work="$(mktemp -d /tmp/tour-XXXXXX)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
# The tour's environment: the socket as the README exports it; the data where storehost puts
# it by default ($XDG_STATE_HOME/storehost/examples), here in the temporary directory.
export STOREHOST_SOCKET="$work/storehost.sock"
export XDG_STATE_HOME="$work/state"
export SWIFT_BACKTRACE=enable=no

fail() { echo "tour.sh: $*" >&2; exit 1; }
# `$ command` and its output; fails unless the exit status is the expected one (0 by default).
run() { # [--status N] command…
  local expected=0
  if [ "$1" = --status ]; then expected=$2; shift 2; fi
  local shown="" word
  for word in "$@"; do
    if [[ "$word" =~ ^[A-Za-z0-9_./:=@-]+$ ]]; then shown+=" $word"; else shown+=" '$word'"; fi
  done
  echo "\$${shown}"
  local status=0
  "$@" 2>&1 || status=$?
  [ "$status" -eq "$expected" ] || fail "'$*' exited $status, not $expected"
}
# Waits for a line in a file while the process that writes it lives (no wall-clock deadline
# a busy machine could miss; a generous cap so that a hung program still ends the run).
wait_for() { # file text pid
  for _ in $(seq 1 1200); do
    grep -qF -- "$2" "$1" 2>/dev/null && return 0
    kill -0 "$3" 2>/dev/null || break
    sleep 0.1
  done
  grep -qF -- "$2" "$1" 2>/dev/null && return 0
  cat "$1" >&2
  fail "no '$2' in $(basename "$1")"
}
start_host() { # log
  storehost 2>"$1" &
  host=$!; pids+=("$host")
  wait_for "$1" "listening on" "$host"
  echo "\$ storehost"; cat "$1"
}

start_host "$work/host1.log"
echo
run storeclient scopes
echo
run storeclient actions counter
echo
# The second terminal: the watcher.
stdbuf -oL storeclient watch counter >"$work/watch.out" 2>&1 &
watcher=$!; pids+=("$watcher")
wait_for "$work/watch.out" "rev " "$watcher"
run storeclient send counter '{"incrementButtonTapped":{}}'
run storeclient send counter '{"incrementButtonTapped":{}}'
run storeclient send counter '{"factButtonTapped":{}}'
run storeclient send counter '{"toggleTimerButtonTapped":{}}'
echo "\$ sleep 3"; sleep 3
run storeclient send counter '{"toggleTimerButtonTapped":{}}'
run storeclient send todos '{"addTodoButtonTapped":{}}'
wait_for "$work/watch.out" "/isTimerRunning: true → false" "$watcher"
echo
echo "\$ storeclient watch counter      # in the other terminal, meanwhile"
cat "$work/watch.out"
kill "$watcher" 2>/dev/null || true
echo
run storeclient get counter
echo
run storeclient log --since 3
echo
run storeclient log counter --changes --limit 3
run storeclient log --format json --limit 1
echo
run storeclient get counter --at 5
run storeclient diff counter 3 8
run storeclient diff counter 3 8 --format patch
echo
run --status 64 storeclient send counter '{bad'
echo
stopped=$(storeclient get _host 2>/dev/null | grep -o '"revision" *: *[0-9]*' | grep -o '[0-9]*$' || true)
kill -TERM "$host"
status=0; wait "$host" || status=$?
[ "$status" -eq 0 ] || { cat "$work/host1.log" >&2; fail "storehost exited $status on SIGTERM, not 0"; }
[ ! -e "$STOREHOST_SOCKET" ] || fail "storehost left its socket file behind"
start_host "$work/host2.log"
grep -q "recovered revision" "$work/host2.log" || fail "the restarted host did not recover its state"
if [ -n "$stopped" ]; then
  grep -q "recovered revision $stopped " "$work/host2.log" \
    || fail "the restarted host did not recover revision $stopped, where the first one stopped"
fi
kill -TERM "$host"; wait "$host" || true
echo
echo "tour.sh: the tour ran as the README says"
