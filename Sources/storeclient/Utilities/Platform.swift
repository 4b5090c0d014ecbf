// storeclient's only contact with libc: everything platform-specific is here.
// Darwin first: Tests/DarwinStandIn type-checks the Darwin branch on Linux, where Glibc exists.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Thin wrappers over the C library, so the rest of the tool needs no `#if`.
enum Platform {}

// MARK: - Output

extension Platform {
  /// Standard output's descriptor.
  static let standardOutput: Int32 = 1
  /// Standard error's descriptor.
  static let standardError: Int32 = 2

  /// Writes text in as few `write(2)` calls as the descriptor accepts, so that a line written
  /// in one call never interleaves with another and reaches a pipe at once (no buffering:
  /// `watch | jq` sees every line as it is printed).
  static func writeText(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          // A full disk or similar: nothing sensible left to do. (A reader that went away
          // raises SIGPIPE, which ends the tool quietly, as for any Unix filter.)
          return
        }
        offset += written
      }
    }
  }

  /// Whether the descriptor is a terminal.
  static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) == 1
  }

  /// The terminal's width in columns, if the descriptor is one.
  static func terminalColumns(_ descriptor: Int32) -> Int? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }
}

// MARK: - Process

extension Platform {
  /// Ends the process with `code`.
  static func terminate(_ code: Int32) -> Never {
    exit(code)
  }

  /// The value of an environment variable.
  static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}

// MARK: - Input

extension Platform {
  /// Reads one line from standard input, without its newline; `nil` at end of input.
  static func readLine() -> String? {
    Swift.readLine(strippingNewline: true)
  }
}

// MARK: - Time

extension Platform {
  /// Nanoseconds on the monotonic clock (a `vDSO` call: cheap enough for every action).
  static func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
  }
}
