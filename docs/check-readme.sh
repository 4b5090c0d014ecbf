#!/usr/bin/env bash
# Documentation tests for README.md, as rustdoc has them: every Swift block the README
# presents as a package manifest or a program is built, as pasted, against a fresh clone of
# this repository's committed HEAD, and the programs are run together.
#
#   docs/check-readme.sh            (CI runs it from .ci/run)
#
# Each ```swift block in README.md is preceded by a marker saying what it is:
#
#   <!-- readme-test: manifest -->          the Package.swift of the consumer package
#   <!-- readme-test: program NAME -->      Sources/NAME/main.swift of that package
#   <!-- readme-test: fragment (why) -->    part of a program, not built on its own
#
# A Swift block without a marker fails the check, so that no new snippet goes untested by
# oversight. Two substitutions are made, the ones a reader makes too: the manifest's
# `file:///home/me/src/DistributedArchitecture` becomes the clone's URL, and the programs'
# `/tmp/my-app.sock` a socket in this run's temporary directory (runs never share one).
#
# Then: the package builds with no warning in its own sources; `my-host` serves; two
# `my-client`s each send an increment and the first sees the second's; SIGTERM stops the
# host with status 0, a `bye` to both clients and its socket file removed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
readme="${README_PATH:-$root/README.md}"   # README_PATH: another file, to try the check itself
# CHECK_README_DIR=dir keeps the clone and the build there between runs (for working on the
# README: the next run rebuilds only what changed); by default all is temporary.
work="${CHECK_README_DIR:-$(mktemp -d /tmp/check-readme-XXXXXX)}"
mkdir -p "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -n "${CHECK_README_DIR:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "check-readme: $*" >&2; exit 1; }

# --- extract the blocks ------------------------------------------------------------------
rm -rf "$work/blocks" "$work"/*.out "$work"/*.log "$work/my-app.sock"
mkdir -p "$work/blocks"
awk -v out="$work/blocks" '
  /^<!-- readme-test: / {
    marker = $0; sub(/^<!-- readme-test: /, "", marker); sub(/ *-->$/, "", marker)
    markerLine = NR; next
  }
  /^```swift[ \t]*$/ {
    if (markerLine != NR - 1) { print "unmarked " NR; bad = 1 }
    inside = 1; split(marker, words, " "); kind = words[1]; name = words[2]
    file = out "/" (kind == "manifest" ? "Package.swift" : kind == "program" ? name ".swift" : "fragment-" NR ".swift")
    printf "" > file
    print kind " " NR " " (name == "" || kind == "fragment" ? "-" : name)
    next
  }
  /^```[ \t]*$/ && inside { inside = 0; close(file); marker = ""; next }
  inside { print >> file }
  END { exit bad }
' "$readme" >"$work/blocks.txt" || {
  grep '^unmarked' "$work/blocks.txt" | while read -r _ line; do
    echo "README.md:$line: a \`\`\`swift block without a <!-- readme-test: … --> marker" >&2
  done
  fail "mark each Swift block as manifest, program NAME or fragment (see docs/check-readme.sh)"
}
echo "README.md's Swift blocks:"
sed 's/^/  /' "$work/blocks.txt"
[ -f "$work/blocks/Package.swift" ] || fail "no block is marked as the manifest"
programs=$(awk '$1 == "program" { print $3 }' "$work/blocks.txt")
for needed in my-host my-client; do
  echo "$programs" | grep -qx "$needed" || fail "no block is marked as program $needed"
done

# --- a fresh clone, and the consumer package ---------------------------------------------
clone="$work/DistributedArchitecture"
if [ -d "$clone/.git" ]; then
  git -C "$clone" fetch -q "$root" HEAD && git -C "$clone" checkout -q -B main FETCH_HEAD
else
  git clone -q "$root" "$clone"
  git -C "$clone" checkout -q -B main   # an untagged clone of main, as the README assumes
fi

app="$work/MyApp"
mkdir -p "$app"
grep -q 'file:///home/me/src/DistributedArchitecture' "$work/blocks/Package.swift" \
  || fail "the manifest no longer names file:///home/me/src/DistributedArchitecture: update this check"
sed "s|file:///home/me/src/DistributedArchitecture|file://$clone|" \
  "$work/blocks/Package.swift" >"$app/Package.swift"
socket="$work/my-app.sock"
for program in $programs; do
  mkdir -p "$app/Sources/$program"
  sed "s|/tmp/my-app.sock|$socket|g" "$work/blocks/$program.swift" >"$app/Sources/$program/main.swift"
done

echo "building the README's package against a fresh clone ($(git -C "$clone" rev-parse --short HEAD))"
if ! (cd "$app" && swift build >"$work/build.log" 2>&1); then
  cat "$work/build.log" >&2
  fail "the README's package does not build as pasted"
fi
if grep -E "^$app/Sources/.*(warning|error):" "$work/build.log" >&2; then
  fail "the README's programs compile with warnings"
fi
bin="$(cd "$app" && swift build --show-bin-path)"

# --- run them together -------------------------------------------------------------------
# Waits for a line in a file while the process that writes it lives (no wall-clock deadline
# that a busy machine could miss; a generous cap so that a hung program still ends the run).
wait_for() { # file text pid
  for _ in $(seq 1 1200); do
    grep -qF -- "$2" "$1" 2>/dev/null && return 0
    kill -0 "$3" 2>/dev/null || { grep -qF -- "$2" "$1" 2>/dev/null && return 0; break; }
    sleep 0.1
  done
  echo "--- $1:" >&2; cat "$1" >&2
  fail "no '$2' in $(basename "$1")"
}

stdbuf -oL "$bin/my-host" 2>"$work/host.log" &
host=$!; pids+=("$host")
wait_for "$work/host.log" "listening on $socket" "$host"

# stdbuf: their output goes to files here, where stdio would hold it back until exit.
stdbuf -oL "$bin/my-client" >"$work/first.out" 2>&1 &
first=$!; pids+=("$first")
wait_for "$work/first.out" "count 1" "$first"
grep -q "^revision [0-9]*: count 1$" "$work/first.out" || { cat "$work/first.out" >&2; fail "my-client's first line"; }

stdbuf -oL "$bin/my-client" >"$work/second.out" 2>&1 &
second=$!; pids+=("$second")
wait_for "$work/second.out" "count 2" "$second"
wait_for "$work/first.out" "count 2" "$first"   # the first client sees the second's send

kill -TERM "$host"
status=0; wait "$host" || status=$?
[ "$status" -eq 0 ] || { cat "$work/host.log" >&2; fail "my-host exited $status on SIGTERM, not 0"; }
[ ! -e "$socket" ] || fail "my-host left its socket file behind"
grep -q "said bye to 2 client" "$work/host.log" || { cat "$work/host.log" >&2; fail "my-host did not say bye to both clients"; }
kill "$first" "$second" 2>/dev/null || true

echo "README.md: the manifest and the programs $(echo $programs) build and run as pasted"
