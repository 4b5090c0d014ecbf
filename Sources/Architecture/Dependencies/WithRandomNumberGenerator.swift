/// Gives access to a random number generator: the system's live, a seeded one in tests.
///
/// Reducers that need randomness draw it from this dependency rather than from
/// `SystemRandomNumberGenerator` directly, so that tests can make it predictable and a host can
/// record what was drawn (and give it back when it replays its journal):
///
/// ```swift
/// @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
///
/// case .rollDiceButtonTapped:
///   state.roll = withRandomNumberGenerator { Int.random(in: 1...6, using: &$0) }
///   return .none
/// ```
///
/// In tests, override it with a seeded generator:
///
/// ```swift
/// $0.withRandomNumberGenerator = WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 0))
/// ```
public struct WithRandomNumberGenerator: Sendable {
  let next: @Sendable () -> UInt64

  /// Creates a dependency that draws from `generator` (shared by every use of this value, under
  /// a lock, so that concurrent effects never draw the same numbers twice).
  ///
  /// - Parameter generator: The generator to draw from.
  public init(_ generator: some RandomNumberGenerator & Sendable) {
    let state = _Lock(generator)
    self.next = { state.withLock { $0.next() } }
  }

  /// Creates a dependency from a function that returns the next 64 random bits.
  ///
  /// - Parameter next: Called once per 64 bits drawn.
  public init(next: @escaping @Sendable () -> UInt64) {
    self.next = next
  }

  /// Runs `body` with a generator that draws from this dependency.
  ///
  /// - Parameter body: Uses the generator, e.g. `Int.random(in: 1...6, using: &$0)`.
  /// - Returns: What `body` returns.
  public func callAsFunction<R>(_ body: (inout any RandomNumberGenerator) throws -> R) rethrows
    -> R
  {
    var generator: any RandomNumberGenerator = _DrawingGenerator(draw: self.next)
    return try body(&generator)
  }

  /// The system's generator (`SystemRandomNumberGenerator`).
  public static let system = WithRandomNumberGenerator(next: {
    var generator = SystemRandomNumberGenerator()
    return generator.next()
  })
}

/// A generator whose every 64 bits come from a function.
private struct _DrawingGenerator: RandomNumberGenerator {
  let draw: @Sendable () -> UInt64

  mutating func next() -> UInt64 { self.draw() }
}

/// A small, fast generator with a fixed sequence for a given seed (SplitMix64), for tests and
/// anything else that needs repeatable randomness.
///
/// ```swift
/// var generator = SeededRandomNumberGenerator(seed: 42)
/// let roll = Int.random(in: 1...6, using: &generator)
/// ```
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence is determined by `seed`.
  ///
  /// - Parameter seed: Any value; the same seed gives the same sequence.
  public init(seed: UInt64) {
    self.state = seed
  }

  /// The next 64 bits of the sequence.
  public mutating func next() -> UInt64 {
    self.state &+= 0x9E37_79B9_7F4A_7C15
    var z = self.state
    z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z &>> 31)
  }
}

private enum WithRandomNumberGeneratorKey: DependencyKey {
  static let liveValue = WithRandomNumberGenerator.system
  static var testValue: WithRandomNumberGenerator {
    WithRandomNumberGenerator(next: {
      DependencyValues._effective.runtimeWarnings(
        "Unimplemented: @Dependency(\\.withRandomNumberGenerator) was used in a test context."
          + " Override it with WithRandomNumberGenerator(SeededRandomNumberGenerator(seed: 0)).")
      var generator = SystemRandomNumberGenerator()
      return generator.next()
    })
  }
}

extension DependencyValues {
  /// The random number generator reducers and effects draw from: the system's live; in tests
  /// it reports a warning unless overridden.
  public var withRandomNumberGenerator: WithRandomNumberGenerator {
    get { self[WithRandomNumberGeneratorKey.self] }
    set { self[WithRandomNumberGeneratorKey.self] = newValue }
  }
}
