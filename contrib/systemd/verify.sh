#!/usr/bin/env bash
# Checks the unit files with `systemd-analyze verify` (no systemd needed as PID 1), against
# this checkout's storehost: ExecStart's /usr/local/bin/storehost is pointed at the build.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="${STOREHOST_BINARY:-$root/.build/debug/storehost}"
[ -x "$binary" ] || { echo "verify.sh: no storehost at $binary: run 'swift build' first" >&2; exit 1; }
work="$(mktemp -d /tmp/verify-units-XXXXXX)"
trap 'rm -rf "$work"' EXIT
for unit in storehost.socket storehost.service; do
  sed "s|/usr/local/bin/storehost|$binary|" "$root/contrib/systemd/$unit" >"$work/$unit"
done
# User=storehost need not exist on the machine that verifies: its absence is the one finding
# tolerated (it is created on install, see docs/OPERATING.md).
out=$(cd "$work" && systemd-analyze verify storehost.socket storehost.service 2>&1 || true)
findings=$(printf '%s\n' "$out" | grep -v -e '^$' -e "Failed to resolve user 'storehost'" -e "Failed to resolve group 'storehost'" || true)
if [ -n "$findings" ]; then
  printf '%s\n' "$findings" >&2
  echo "verify.sh: systemd-analyze finds the unit files wrong (above)" >&2
  exit 1
fi
echo "contrib/systemd: storehost.socket and storehost.service verify"
