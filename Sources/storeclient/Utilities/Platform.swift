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

// MARK: - Calendar

extension Platform {
  /// The wall-clock time of day of an instant, `HH:MM:SS.mmm`, in the local time zone (`TZ`)
  /// or in UTC.
  ///
  /// - Parameters:
  ///   - milliseconds: Milliseconds since 1970-01-01T00:00:00Z.
  ///   - utc: Whether to show UTC rather than local time.
  static func timeOfDay(milliseconds: Int64, utc: Bool) -> String {
    let millis = ((milliseconds % 1000) + 1000) % 1000
    var seconds = time_t((milliseconds - millis) / 1000)
    var parts = tm()
    if utc { gmtime_r(&seconds, &parts) } else { localtime_r(&seconds, &parts) }
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
    return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)"
  }

  /// Milliseconds since 1970 of a UTC calendar date and time.
  static func utcMilliseconds(
    year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int
  ) -> Int64 {
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_sec = Int32(second)
    return Int64(timegm(&parts)) * 1000 + Int64(millisecond)
  }
}
