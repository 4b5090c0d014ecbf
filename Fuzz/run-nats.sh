#!/usr/bin/env bash
# Builds the NATS protocol parser's fuzz target (libFuzzer + AddressSanitizer) and runs it for a
# bounded time. The parser reads whatever a NATS server — or a broken or hostile process posing
# as one — sends to a replicating host; the target also checks that reading the same bytes in
# other chunks gives the same operations, and that header blocks survive re-encoding.
#
#   Fuzz/run-nats.sh [SECONDS]      default 60
#
# Exits non-zero if the fuzzer finds a crash; the crashing input is saved under
# fuzz-artifacts/ (reproduce with: .build/fuzz/nats-fuzz fuzz-artifacts/crash-…) and should
# become a regression test in Tests/NATSTests.
set -euo pipefail
seconds="${1:-60}"
cd "$(dirname "$0")/.."

build=.build/fuzz
mkdir -p "$build/nats-corpus" fuzz-artifacts

echo "== building the NATS protocol fuzz target"
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name NATSFuzz \
  $(find Sources/NATS/Protocol -name '*.swift' | sort) Fuzz/NATSFuzzMain.swift \
  -o "$build/nats-fuzz"

echo "== fuzzing the NATS protocol parser for ${seconds}s"
# Without this, Swift's backtracer takes over the crash and libFuzzer cannot save the input.
export SWIFT_BACKTRACE=enable=no
# New inputs go to the scratch corpus in .build; the committed seeds in Fuzz/nats-corpus are
# only read.
"$build/nats-fuzz" \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix=fuzz-artifacts/ \
  "$build/nats-corpus" Fuzz/nats-corpus
