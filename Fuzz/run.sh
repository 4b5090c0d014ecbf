#!/usr/bin/env bash
# Builds the Wire fuzz target (libFuzzer + AddressSanitizer) and runs it for a bounded time.
#
#   Fuzz/run.sh [SECONDS]      default 60
#
# Exits non-zero if the fuzzer finds a crash; the crashing input is saved under
# fuzz-artifacts/ (reproduce with: .build/fuzz/wire-fuzz fuzz-artifacts/crash-…) and should
# become a regression test in Tests/WireTests.
set -euo pipefail
seconds="${1:-60}"
cd "$(dirname "$0")/.."

build=.build/fuzz
mkdir -p "$build/corpus" fuzz-artifacts

echo "== building the fuzz target"
# -I: Wire imports the CSystemLinux module map (epoll, eventfd) on Linux. -package-name: Wire
# has `package` declarations, as SwiftPM builds it.
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name WireFuzz \
  -package-name DistributedArchitecture \
  -I Sources/CSystemLinux $(find Sources/Wire -name '*.swift' | sort) Fuzz/FuzzMain.swift \
  -o "$build/wire-fuzz"

echo "== fuzzing for ${seconds}s"
# Without this, Swift's backtracer takes over the crash and libFuzzer cannot save the input.
export SWIFT_BACKTRACE=enable=no
# New inputs go to the scratch corpus in .build; the committed seeds in Fuzz/corpus are only read.
"$build/wire-fuzz" \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix=fuzz-artifacts/ \
  "$build/corpus" Fuzz/corpus
