/// Finds the plain decimal text of doubles that have one with at most 15 significant digits,
/// such as prices and measurements, without the general shortest-digits algorithm.
///
/// Why the result is the text `description` would produce: a decimal with at most 15
/// significant digits is the *only* such decimal that converts to its double (`DBL_DIG` is 15),
/// so the shortest round-tripping digits, which never need more, are these digits.
///
/// How it is found: `magnitude` × 10^k, rounded, is the candidate significand; the candidate
/// stands only if dividing it by 10^k gives `magnitude` back exactly. Both operands of that
/// division are exact doubles (significand < 10^15, k ≤ 22), so IEEE division rounds the true
/// quotient correctly, exactly as parsing the decimal text does.
enum ShortDecimal {
  /// 10^0 through 10^15, all exact.
  private static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
  ]

  /// `magnitude` as `significand` × 10^-`fractionDigits`, with `significand` not a multiple of
  /// 10 and below 10^15, or `nil` when that takes more digits or `description` would use an
  /// exponent (below 10^-3 or from 10^15 on).
  ///
  /// - Parameter magnitude: A finite, positive, non-integral value.
  static func parts(_ magnitude: Double) -> (significand: UInt64, fractionDigits: Int)? {
    guard magnitude >= 1e-3 && magnitude < 1e15 else { return nil }
    return Self.powersOfTen.withUnsafeBufferPointer { powers in
      // Scale so that the integer digits plus the fraction digits make 15.
      var integerDigits = 0
      while integerDigits < 15 && magnitude >= powers[integerDigits] { integerDigits += 1 }
      var fractionDigits = 15 - integerDigits
      let scaled = (magnitude * powers[fractionDigits]).rounded()
      guard scaled < 1e15, scaled / powers[fractionDigits] == magnitude else { return nil }
      var significand = UInt64(scaled)
      // Drop the trailing zeros (the shortest text has none), at most 8 + 4 + 2 + 1 of them.
      // The value is not integral, so they never reach into the integer digits.
      for (zeros, power): (Int, UInt64) in [(8, 100_000_000), (4, 10_000), (2, 100), (1, 10)]
      where fractionDigits >= zeros && significand % power == 0 {
        significand /= power
        fractionDigits -= zeros
      }
      return (significand, fractionDigits)
    }
  }
}

/// A fixed 32-byte text stream for one number's text, so that formatting it allocates nothing.
struct ShortText: TextOutputStream {
  /// The bytes written, valid up to `count`.
  var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
  var count = 0
  /// Whether more than 32 bytes were written; the bytes are then incomplete.
  var overflowed = false

  mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { utf8 in self._writeASCII(utf8) }
  }

  /// What `Double.write(to:)` calls, with its own buffer.
  mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
    guard self.count + buffer.count <= 32 else {
      self.overflowed = true
      return
    }
    let count = self.count
    withUnsafeMutableBytes(of: &self.bytes) { raw in
      UnsafeMutableRawBufferPointer(rebasing: raw[count..<count + buffer.count])
        .copyMemory(from: UnsafeRawBufferPointer(buffer))
    }
    self.count += buffer.count
  }
}
