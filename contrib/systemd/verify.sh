#!/usr/bin/env bash
# Checks the unit files with `systemd-analyze verify` (no systemd needed as PID 1), against
# this checkout's storehost: ExecStart's /usr/local/bin/ is pointed at the build.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${BIN:-$root/.build/debug}"
for tool in storehost storeclient; do
  [ -x "$bin/$tool" ] || { echo "verify.sh: no $tool in $bin: run 'swift build' first" >&2; exit 1; }
done
work="$(mktemp -d /tmp/verify-units-XXXXXX)"
trap 'rm -rf "$work"' EXIT
units=(storehost.socket storehost.service storehost-metrics.service)
for unit in "${units[@]}"; do
  sed "s|/usr/local/bin/|$bin/|" "$root/contrib/systemd/$unit" >"$work/$unit"
done
# User=storehost need not exist on the machine that verifies: its absence is the one finding
# tolerated (it is created on install, see docs/OPERATING.md).
out=$(cd "$work" && systemd-analyze verify "${units[@]}" 2>&1 || true)
findings=$(printf '%s\n' "$out" | grep -v -e '^$' -e "Failed to resolve user 'storehost'" -e "Failed to resolve group 'storehost'" || true)
if [ -n "$findings" ]; then
  printf '%s\n' "$findings" >&2
  echo "verify.sh: systemd-analyze finds the unit files wrong (above)" >&2
  exit 1
fi
echo "contrib/systemd: ${units[*]} verify"
