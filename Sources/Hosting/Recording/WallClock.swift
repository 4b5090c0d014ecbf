#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The wall clock, for the times of history entries.
@usableFromInline
enum WallClock {
  /// Milliseconds since 1970-01-01T00:00:00Z.
  @usableFromInline
  static func milliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }

  /// `milliseconds` as RFC 3339 UTC with milliseconds, e.g. `2026-11-24T14:00:00.123Z`.
  static func rfc3339(milliseconds: Int64) -> String {
    var seconds = time_t(milliseconds.quotientRoundingDown(by: 1000))
    let millis = Int(milliseconds - Int64(seconds) * 1000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func pad(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-"
      + "\(pad(Int(parts.tm_mday), 2))T\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):"
      + "\(pad(Int(parts.tm_sec), 2)).\(pad(millis, 3))Z"
  }
}

extension Int64 {
  /// Division rounding towards negative infinity (times before 1970 stay well-formed).
  fileprivate func quotientRoundingDown(by divisor: Int64) -> Int64 {
    let (quotient, remainder) = self.quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? quotient - 1 : quotient
  }
}
