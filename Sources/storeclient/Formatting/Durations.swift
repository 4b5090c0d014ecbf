/// Short human-readable durations: `87 µs`, `1.24 ms`, `3.05 s`.
enum Durations {
  /// Describes a duration.
  static func describe(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return self.describe(nanoseconds: Double(seconds) * 1e9 + Double(attoseconds) / 1e9)
  }

  /// Describes a number of nanoseconds.
  static func describe(nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<1_000: return "\(Int(nanoseconds.rounded())) ns"
    case ..<1_000_000: return "\(Int((nanoseconds / 1_000).rounded())) µs"
    case ..<1_000_000_000: return Self.fixed(nanoseconds / 1e6, 2) + " ms"
    default: return Self.fixed(nanoseconds / 1e9, 2) + " s"
    }
  }

  /// `value` with `digits` decimals, without Foundation.
  static func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int64((abs(value) * scale).rounded())
    let whole = scaled / Int64(scale)
    var fraction = String(scaled % Int64(scale))
    while fraction.count < digits { fraction = "0" + fraction }
    let sign = value < 0 && scaled != 0 ? "-" : ""
    return digits == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
  }

  /// `1234567` → `1,234,567`.
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return (value < 0 ? "-" : "") + result
  }
}
