/// A small, fast, seedable pseudo-random generator (SplitMix64), so that property tests,
/// fuzz-style tests and benchmark data reproduce from their seed.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let size = Int.random(in: 0..<100, using: &random)   // the same on every run
/// ```
///
/// `package`: shared by this package's tests and benchmarks, not part of Wire's API. Not for
/// anything that must be unpredictable.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator whose sequence is determined by `seed`.
  ///
  /// - Parameter seed: Any value; equal seeds give equal sequences.
  package init(seed: UInt64) { self.state = seed }

  /// The next 64 random bits.
  ///
  /// - Returns: A pseudo-random value.
  package mutating func next() -> UInt64 {
    self.state &+= 0x9E37_79B9_7F4A_7C15
    var z = self.state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
