#!/usr/bin/env bash
# Takes a screenshot of `storeclient inspect`'s page (docs/inspector.png in the README):
# starts a host on a temporary socket, gives it some history, starts the inspector and
# photographs the page in headless Chromium once it shows live data.
#
#   docs/inspector-screenshot.sh [FILE]        default docs/inspector.png
#
# STOREHOST_BINARY runs another storehost than the one built here.
# Needs Debian's chromium (apt-get install chromium) and python3; the browser is driven by
# clients/chromium/drive_inspector.py over the DevTools protocol.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/inspector.png}"

swift build >/dev/null
storehost="${STOREHOST_BINARY:-.build/debug/storehost}"
dir=$(mktemp -d /tmp/inspector-shot-XXXXXX)
socket="$dir/host.sock"
host_args=(--socket "$socket" --log-level warning)
# A host that keeps nothing on disk, where the host can be told so.
if "$storehost" --help | grep -q -- '--ephemeral'; then host_args+=(--ephemeral); fi
"$storehost" "${host_args[@]}" &
host=$!
inspector=""
cleanup() {
  [ -z "$inspector" ] || kill -TERM "$inspector" 2>/dev/null || true
  kill -TERM "$host" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
for _ in $(seq 1 100); do [ -S "$socket" ] && break; sleep 0.1; done

client() { .build/debug/storeclient --socket "$socket" "$@" >/dev/null; }
client send counter '{"incrementButtonTapped":{}}'
client send counter '{"incrementButtonTapped":{}}'
client send counter '{"factButtonTapped":{}}'
client send todos '{"addTodoButtonTapped":{}}'
client send shop/products/2/addToCart '{"didTapPlusButton":{}}'

.build/debug/storeclient --socket "$socket" inspect >"$dir/inspect.out" &
inspector=$!
url=""
for _ in $(seq 1 100); do
  url=$(grep -o 'http://[^ ]*' "$dir/inspect.out" || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "the inspector did not print its URL" >&2; exit 1; }
python3 clients/chromium/drive_inspector.py screenshot "$url" "$out"
