#!/usr/bin/env bash
# Consumers/check.sh — proves the library works as an ordinary SwiftPM dependency (issue 12).
#
#   Consumers/check.sh        (from anywhere; CI runs it from .ci/run)
#
# 1. Clones this repository's committed HEAD into a temporary directory and tags the clone
#    1.0.0 (the real repository is never tagged).
# 2. Builds Consumers/ArchitectureConsumer of that clone, which depends on the clone through
#    `.package(url: "file://…", from: "1.0.0")` and the `Architecture` product alone.
# 3. Runs its tests: Swift Testing and XCTest must pass, the deliberately wrong expectation in
#    `withKnownIssue` must be recorded as a known issue, and the deliberately failing tests
#    (DeliberateFailures.swift, enabled by ARCHITECTURE_CONSUMER_DELIBERATE_FAILURES=1) must
#    fail the run, each with the test store's message at the line of its `send`.
#
# Everything is written under one temporary directory, removed at exit: the clone, SwiftPM's
# build, cache, configuration and security directories, and the logs (kept, and their path
# printed, when a check fails). Uncommitted changes are not part of the check.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/architecture-consumer.XXXXXX")"
keep=""
cleanup() { if [[ -z "$keep" ]]; then rm -rf "$tmp"; fi; }
trap cleanup EXIT

# SwiftPM keeps its lock files in the temporary directory: this run's own.
mkdir "$tmp/tmp"
export TMPDIR="$tmp/tmp"

log() { printf 'check.sh: %s\n' "$*" >&2; }
fail() {
  keep=1
  log "FAILED: $*"
  log "logs and the clone are kept in $tmp"
  exit 1
}

# --- A tagged clone of HEAD ----------------------------------------------------------------
clone="$tmp/DistributedArchitecture"
commit="$(git -C "$repo" rev-parse HEAD)"
git init --quiet "$clone"
git -C "$clone" fetch --quiet --no-tags "$repo" HEAD
git -C "$clone" checkout --quiet --detach FETCH_HEAD
git -C "$clone" tag 1.0.0
log "cloned ${commit:0:12} into $clone and tagged it 1.0.0 there"

consumer="$clone/Consumers/ArchitectureConsumer"
export ARCHITECTURE_PACKAGE_URL="file://$clone"
swiftpm=(
  --package-path "$consumer"
  --scratch-path "$tmp/build"
  --cache-path "$tmp/cache"
  --config-path "$tmp/config"
  --security-path "$tmp/security"
  --manifest-cache local
)

# --- Build -----------------------------------------------------------------------------------
log "swift build --build-tests (the consumer, against $ARCHITECTURE_PACKAGE_URL from: 1.0.0)"
swift build "${swiftpm[@]}" --build-tests > "$tmp/build.log" 2>&1 ||
  { cat "$tmp/build.log" >&2; fail "the consumer did not build"; }
# SwiftPM names a file:// URL by its path in its progress lines.
grep -E "^(Fetching|Computed|Working copy of) $clone" "$tmp/build.log" >&2 || true
grep -q "^Working copy of $clone resolved at 1\.0\.0" "$tmp/build.log" ||
  { cat "$tmp/build.log" >&2; fail "SwiftPM did not resolve the library at 1.0.0 from its URL"; }

# --- The tests pass --------------------------------------------------------------------------
log "swift test (Swift Testing and XCTest must pass; one known issue expected)"
status=0
swift test "${swiftpm[@]}" --skip-build > "$tmp/test.log" 2>&1 || status=$?
cat "$tmp/test.log"
[[ "$status" -eq 0 ]] || fail "the consumer's tests failed (exit $status)"
grep -q "Executed [0-9]* tests, with 0 failures" "$tmp/test.log" ||
  fail "no XCTest summary with 0 failures in the output"
grep -q "aWrongExpectationIsRecordedAsAnIssue() passed after .* with 1 known issue" "$tmp/test.log" ||
  fail "the wrong expectation inside withKnownIssue was not recorded as a known issue"
grep -q "Test run with [0-9]* tests.* passed" "$tmp/test.log" ||
  fail "no passing Swift Testing summary in the output"

# --- The deliberately failing tests fail -----------------------------------------------------
log "swift test --filter DeliberateFailure with ARCHITECTURE_CONSUMER_DELIBERATE_FAILURES=1 (must fail)"
tests="$consumer/Tests/CounterFeatureTests/DeliberateFailures.swift"
xctest_line="$(grep -n 'deliberately wrong (XCTest)' "$tests" | cut -d: -f1)"
testing_line="$(grep -n 'deliberately wrong (Swift Testing)' "$tests" | cut -d: -f1)"
status=0
ARCHITECTURE_CONSUMER_DELIBERATE_FAILURES=1 swift test "${swiftpm[@]}" --skip-build \
  --filter DeliberateFailure > "$tmp/failing.log" 2>&1 || status=$?
cat "$tmp/failing.log"
[[ "$status" -ne 0 ]] || fail "the deliberately failing tests passed (exit 0)"
message="A state change does not match expectation"
grep -q "DeliberateFailures.swift:$xctest_line: error: DeliberateFailureXCTests.testWrongExpectationFailsTheTest : failed - $message" "$tmp/failing.log" ||
  fail "XCTest did not report the test store's failure at DeliberateFailures.swift:$xctest_line"
grep -q "Executed 1 test, with 1 failure" "$tmp/failing.log" ||
  fail "XCTest did not count exactly one failure"
grep -q "wrongExpectationFailsTheTest() recorded an issue at DeliberateFailures.swift:$testing_line:" "$tmp/failing.log" ||
  fail "Swift Testing did not record the test store's failure at DeliberateFailures.swift:$testing_line"
grep -q "↳ $message" "$tmp/failing.log" ||
  fail "Swift Testing's issue does not carry the test store's message"
grep -q "Test run with 1 test .* failed after .* with 1 issue" "$tmp/failing.log" ||
  fail "Swift Testing did not fail the run with exactly one issue"

log "OK: the consumer built against the tagged clone, its tests passed, the known issue was"
log "    recorded, and both deliberately wrong expectations failed their tests (exit $status)"
