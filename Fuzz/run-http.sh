#!/usr/bin/env bash
# Builds the HTTP request parser's fuzz target (libFuzzer + AddressSanitizer) and runs it for a
# bounded time; the parser faces whatever connects to `storeclient inspect`'s port.
#
#   Fuzz/run-http.sh [SECONDS]      default 30
#
# Exits non-zero if the fuzzer finds a crash; the crashing input is saved under
# fuzz-artifacts/ (reproduce with: .build/fuzz/http-fuzz fuzz-artifacts/crash-…) and should
# become a regression test in Tests/HTTPServingTests.
set -euo pipefail
seconds="${1:-30}"
cd "$(dirname "$0")/.."

build=.build/fuzz
mkdir -p "$build/http-corpus" fuzz-artifacts

echo "== building the HTTP fuzz target"
# shellcheck disable=SC2046
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name HTTPFuzz \
  $(find Sources/HTTPServing/Messages Sources/HTTPServing/Parsing -name '*.swift' | sort) Fuzz/HTTPFuzzMain.swift \
  -o "$build/http-fuzz"

echo "== fuzzing the HTTP request parser for ${seconds}s"
# Without this, Swift's backtracer takes over the crash and libFuzzer cannot save the input.
export SWIFT_BACKTRACE=enable=no
# New inputs go to the scratch corpus in .build; the committed seeds in Fuzz/http-corpus are
# only read.
"$build/http-fuzz" \
  -max_total_time="$seconds" -max_len=2048 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix=fuzz-artifacts/ \
  "$build/http-corpus" Fuzz/http-corpus
