#!/usr/bin/env bash
# Type-checks the Darwin shims of Wire (Sources/Wire/Platform/Posix.swift + Posix+Darwin.swift),
# storeclient (Sources/storeclient/Utilities/Platform.swift), ArgumentParsing
# (Sources/ArgumentParsing/TerminalWidth.swift) and HTTPServing (Sources/HTTPServing/Platform/)
# on Linux, where there is no macOS SDK, against this stand-in `Darwin` module: a C module
# restating the SDK's declarations the shims use, and the few Swift overlay declarations (see
# CDarwin/CDarwin.h, Darwin.swift).
# No code is generated and nothing runs: the shims are only ever compiled for real on a Mac.
#
#   Tests/DarwinStandIn/typecheck.sh      exits non-zero, with the compiler's errors, if a
#                                         Darwin shim does not type-check
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/darwin-stand-in-XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

swiftc -emit-module -parse-as-library -module-name Darwin -I "$here/CDarwin" \
  -emit-module-path "$scratch/Darwin.swiftmodule" "$here/Darwin.swift"
swiftc -typecheck -parse-as-library -module-name Wire -swift-version 6 \
  -I "$scratch" -I "$here/CDarwin" \
  "$root/Sources/Wire/Platform/Posix.swift" \
  "$root/Sources/Wire/Platform/Posix+Darwin.swift" \
  "$root/Sources/Wire/Platform/Posix+TCP.swift" \
  "$root/Sources/Wire/Sockets/PeerCredentials.swift"
# storeclient's shim, in a module of its own name.
swiftc -typecheck -parse-as-library -module-name storeclient -swift-version 6 \
  -I "$scratch" -I "$here/CDarwin" "$root/Sources/storeclient/Utilities/Platform.swift" \
  "$root/Sources/storeclient/Utilities/Platform+Relay.swift"
# ArgumentParsing's terminal width.
swiftc -typecheck -parse-as-library -module-name ArgumentParsing -swift-version 6 \
  -I "$scratch" -I "$here/CDarwin" "$root/Sources/ArgumentParsing/TerminalWidth.swift"
# HTTPServing's shim (the web inspector's HTTP server), in a module of its own name.
swiftc -typecheck -parse-as-library -module-name HTTPServing -swift-version 6 \
  -I "$scratch" -I "$here/CDarwin" "$root"/Sources/HTTPServing/Platform/*.swift
echo "the Darwin shims type-check against the stand-in"
