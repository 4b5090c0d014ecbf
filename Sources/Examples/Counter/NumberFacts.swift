/// A local, deterministic source of facts about numbers: the live value of
/// ``NumberFactClient``, so that the demo needs no network.
///
/// ```swift
/// NumberFacts.fact(about: 7)
/// // "7 is an odd prime number. Its square is 49, it has 1 digit and its digits add up to 7."
/// ```
public enum NumberFacts {
  /// A fact about a number: its parity, whether it is prime (with a divisor when it is not),
  /// its square, and its digits.
  ///
  /// - Parameter number: Any `Int`.
  /// - Returns: One or two sentences about the number.
  public static func fact(about number: Int) -> String {
    "\(number) is \(self.kind(of: number)). \(self.squareAndDigits(of: number))"
  }

  private static func kind(of number: Int) -> String {
    let parity = number.isMultiple(of: 2) ? "even" : "odd"
    if number < 0 { return "a negative \(parity) number, so it is not prime" }
    if number < 2 { return "an \(parity) number that is neither prime nor composite" }
    if let divisor = self.smallestDivisor(of: number) {
      return "an \(parity) number divisible by \(divisor)"
    }
    if self.isPrime(number) { return "an \(parity) prime number" }
    return "an \(parity) composite number"
  }

  private static func squareAndDigits(of number: Int) -> String {
    let (square, overflow) = number.multipliedReportingOverflow(by: number)
    let squareText =
      overflow ? "Its square does not fit in 64 bits" : "Its square is \(square)"
    let digits = String(number.magnitude)
    let digitSum = digits.reduce(0) { $0 + Int($1.wholeNumberValue ?? 0) }
    let digitCount = digits.count == 1 ? "1 digit" : "\(digits.count) digits"
    return "\(squareText), it has \(digitCount) and its digits add up to \(digitSum)."
  }

  /// The smallest divisor in 2...10_000 of a number ≥ 2 other than the number itself, if any.
  private static func smallestDivisor(of number: Int) -> Int? {
    var divisor = 2
    while divisor <= 10_000, divisor * divisor <= number {
      if number % divisor == 0 { return divisor }
      divisor += 1
    }
    return nil
  }

  /// Deterministic Miller–Rabin for 64-bit numbers (these bases are exact below 3.3 × 10²⁴).
  private static func isPrime(_ number: Int) -> Bool {
    let n = UInt64(number)
    if n < 2 { return false }
    let bases: [UInt64] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]
    for base in bases where n % base == 0 { return n == base }
    var d = n - 1
    var shifts = 0
    while d.isMultiple(of: 2) {
      d /= 2
      shifts += 1
    }
    witnesses: for base in bases {
      var x = self.power(base, d, modulo: n)
      if x == 1 || x == n - 1 { continue }
      for _ in 0..<max(shifts - 1, 0) {
        x = self.multiply(x, x, modulo: n)
        if x == n - 1 { continue witnesses }
      }
      return false
    }
    return true
  }

  private static func multiply(_ a: UInt64, _ b: UInt64, modulo m: UInt64) -> UInt64 {
    let product = a.multipliedFullWidth(by: b)
    return m.dividingFullWidth((product.high, product.low)).remainder
  }

  private static func power(_ base: UInt64, _ exponent: UInt64, modulo m: UInt64) -> UInt64 {
    var result: UInt64 = 1
    var base = base % m
    var exponent = exponent
    while exponent > 0 {
      if exponent & 1 == 1 { result = self.multiply(result, base, modulo: m) }
      base = self.multiply(base, base, modulo: m)
      exponent >>= 1
    }
    return result
  }
}
