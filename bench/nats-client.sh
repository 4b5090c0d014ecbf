#!/usr/bin/env bash
# bench/nats-client.sh — the NATS client's publish-with-ack latency and pipelined throughput
# against a real 3-node JetStream cluster on 127.0.0.1 (issue 22), to compare with the issue's
# raw-socket figures (R1 p50 115 µs, R3 p50 352 µs, 64 in flight R3 32.7k/s).
#
# Usage:  bench/nats-client.sh [NATSBenchmarks options]     (about 2–4 minutes here)
#   --runs N                 runs per figure, the median is shown (default 3)
#   --messages N             publishes per latency run (default 5000)
#   --pipelined-messages N   publishes per throughput run (default 40000)
#   --size BYTES             message size (default 200, as in the issue)
#   SKIP_BUILD=1             reuse .build/release/NATSBenchmarks
#
# Needs Debian's nats-server (or NATS_SERVER=/path/to/nats-server). The cluster runs in a
# temporary directory and is killed by process id at the end. The client connects to each
# stream's leader. Figures move with the machine's load: compare runs made together.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="$ROOT/.build/release/NATSBenchmarks"

if [[ -z "${NATS_SERVER:-}" ]] && ! command -v nats-server >/dev/null 2>&1 && [[ ! -x /usr/sbin/nats-server ]]; then
  echo "nats-server is not installed (Debian's nats-server package, or set NATS_SERVER)" >&2
  exit 1
fi
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  echo "== swift build -c release --product NATSBenchmarks"
  (cd "$ROOT" && swift build -c release --product NATSBenchmarks 2>&1 | tail -1)
fi
exec "$BIN" "$@"
