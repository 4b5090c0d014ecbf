#!/usr/bin/env bash
# bench/ssh.sh — what the ssh hop costs (issue 16): `storeclient bench` against one storehost,
# directly on its socket and through `--host ssh://…`, i.e. ssh to Debian's OpenSSH server on
# a loopback port (a temporary host key and client key) running `storeclient dial-stdio`
# there. Both sides are on this machine, so the figures are the cost of ssh and the relay
# (encryption, two more processes and pipes per connection), not of a network.
#
# Usage:  bench/ssh.sh         (needs `swift build -c release`, or BUILD=debug; installs
#                               openssh-server with apt-get when missing and run as root)
#   BUILD=release   which build's storehost and storeclient
#   ROUNDS=3        runs of each load, direct and through ssh alternating
#   ACTIONS=2000    actions per client
#
# Prints one line per run and writes them to $OUT/ssh.tsv (OUT defaults to a new temporary
# directory, which is kept). As root, sshd runs as root (it needs /run/sshd, which is created) and root logs
# in with the temporary key; otherwise sshd runs as the invoking user, who logs in.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${BUILD:-release}"
ROUNDS="${ROUNDS:-3}"
ACTIONS="${ACTIONS:-2000}"
HOST="$ROOT/.build/$BUILD/storehost"
CLIENT="$ROOT/.build/$BUILD/storeclient"
for bin in "$HOST" "$CLIENT"; do
  [[ -x "$bin" ]] || { echo "error: $bin is missing; build it with swift build -c $BUILD" >&2; exit 1; }
done
if [[ ! -x /usr/sbin/sshd || ! -x /usr/bin/ssh ]]; then
  [[ "$(id -u)" -eq 0 ]] || { echo "error: openssh-server is missing; install it (apt-get install openssh-server)" >&2; exit 1; }
  echo "== installing openssh-server and openssh-client (apt-get)"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openssh-server openssh-client >/dev/null
fi
[[ "$(id -u)" -ne 0 ]] || mkdir -p /run/sshd

work="$(mktemp -d /tmp/ssh-bench-XXXXXX)"
OUT="${OUT:-$(mktemp -d /tmp/ssh-bench-out-XXXXXX)}"
mkdir -p "$OUT"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

ssh-keygen -q -t ed25519 -N '' -C 'bench host' -f "$work/host_key"
ssh-keygen -q -t ed25519 -N '' -C 'bench client' -f "$work/client_key"
cp "$work/client_key.pub" "$work/authorized_keys"
login="$(id -un)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
cat > "$work/sshd_config" <<CONFIG
Port $port
ListenAddress 127.0.0.1
HostKey $work/host_key
AuthorizedKeysFile $work/authorized_keys
PidFile none
UsePAM no
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
MaxStartups 64
AllowUsers $login
CONFIG
/usr/sbin/sshd -D -e -f "$work/sshd_config" 2> "$work/sshd.log" &
pids+=($!)
for _ in $(seq 1 100); do grep -q "Server listening" "$work/sshd.log" && break; sleep 0.1; done
grep -q "Server listening" "$work/sshd.log" || { cat "$work/sshd.log" >&2; echo "error: sshd did not start" >&2; exit 1; }

socket="$work/host.sock"
"$HOST" --socket "$socket" --ephemeral --log-level warning &
pids+=($!)
for _ in $(seq 1 100); do [[ -S "$socket" ]] && break; sleep 0.1; done

export STOREHOST_SSH_COMMAND="/usr/bin/ssh -F /dev/null -i $work/client_key -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile=$work/known_hosts -o LogLevel=ERROR"
url="ssh://$login@127.0.0.1:$port$socket"

# name | bench options
loads=(
  "1 client, ack every|--clients 1 --ack every"
  "1 client, ack end, pipeline 16|--clients 1 --ack end --pipeline 16"
  "16 clients, ack every|--clients 16 --ack every"
)
printf 'load\tpath\tactions_per_s\tack_p50_us\tack_p99_us\tbytes_sent_per_action\n' > "$OUT/ssh.tsv"
for round in $(seq 1 "$ROUNDS"); do
  for load in "${loads[@]}"; do
    name="${load%%|*}"
    read -r -a options <<< "${load#*|}"
    for path in direct ssh; do
      if [[ "$path" == direct ]]; then
        where=(--socket "$socket")
      else
        where=(--host "$url" --remote-storeclient "$CLIENT")
      fi
      report="$("$CLIENT" bench "${where[@]}" "${options[@]}" --actions "$ACTIONS" --json)"
      line="$(python3 - "$name" "$path" "$report" <<'PY'
import json, sys
name, path, report = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
if report["lost"] or report["errors"]:
    sys.exit(f"error: {name} {path}: lost {report['lost']}, errors {report['errors']}")
def figure(key, digits):
    value = report.get(key)
    return "-" if value is None else f"{value:.{digits}f}"
print("\t".join([name, path, figure("actions_per_s", 0), figure("ack_p50_us", 1),
                 figure("ack_p99_us", 1), figure("bytes_sent_per_action", 1)]))
PY
)"
      echo "round $round  $line"
      echo "$line" >> "$OUT/ssh.tsv"
    done
  done
done
echo "== written to $OUT/ssh.tsv"
