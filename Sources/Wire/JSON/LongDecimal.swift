/// Converts decimals with 16 to 19 significant digits and a fraction, such as
/// `0.44499999999999995` (the shortest text of many doubles), without `strtod`.
///
/// Clinger's fast path in the parser needs the significand to be an exact double (at most
/// 2^53); longer ones used to go through a `String` and the C library. Here the quotient
/// `significand` / 10^`power` is computed in 128-bit integers to exactly 53 bits plus a
/// remainder, which is all that correct rounding needs.
enum LongDecimal {
  /// 10^0 through 10^19, the powers that fit `UInt64`.
  private static let powersOfTen: [UInt64] = (0...19).map { power in
    (0..<power).reduce(1) { result, _ in result * 10 }
  }

  /// The double nearest to `significand` / 10^`power`, ties to even.
  ///
  /// - Parameters:
  ///   - significand: Above 2^53 (smaller ones are exact doubles: use one division).
  ///   - power: 1 through 19.
  static func quotient(_ significand: UInt64, dividedByPowerOfTenTo power: Int) -> Double {
    precondition(significand > 1 << 53 && (1...19).contains(power))
    let divisor = Self.powersOfTen[power]
    // With this shift the quotient has 53 or 54 bits; one step less if it has 54.
    var shift = 53 + divisor.bitWidth - divisor.leadingZeroBitCount
      - (significand.bitWidth - significand.leadingZeroBitCount)
    while true {
      // The significand has at least 54 bits, so `shift` ≤ 63 and the numerator < 2^127.
      let numerator = shift >= 0 ? UInt128(significand) << shift : UInt128(significand)
      let denominator = shift >= 0 ? UInt128(divisor) : UInt128(divisor) << -shift
      var (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
      if quotient >= 1 << 53 {
        shift -= 1
        continue
      }
      let twice = remainder << 1
      if twice > denominator || (twice == denominator && quotient & 1 == 1) { quotient += 1 }
      // Both factors are exact (the quotient is at most 2^53), so this multiplication is too.
      return Double(UInt64(quotient)) * Double(sign: .plus, exponent: -shift, significand: 1)
    }
  }
}
