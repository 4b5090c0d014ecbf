#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Tells the current date: the real one live, a fixed one when overridden in tests.
///
/// ```swift
/// @Dependency(\.date.now) var now
/// ```
public struct DateGenerator: Sendable {
  var generate: @Sendable () -> Date

  /// Creates a generator from a closure.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  /// The current date. Setting it makes the generator return that date from then on, as
  /// swift-dependencies' (`$0.date.now = Date(timeIntervalSince1970: 0)` in a test).
  public var now: Date {
    get { self.generate() }
    set { self.generate = { newValue } }
  }

  /// Returns the current date.
  public func callAsFunction() -> Date {
    self.generate()
  }

  /// A generator that always returns the same date.
  public static func constant(_ date: Date) -> Self {
    Self { date }
  }
}

private enum DateGeneratorKey: DependencyKey {
  static let liveValue = DateGenerator { Date() }
  static let testValue = DateGenerator {
    DependencyValues._effective.runtimeWarnings(
      "Unimplemented: @Dependency(\\.date) was used in a test context."
        + " Override it with DateGenerator.constant(…).")
    return Date()
  }
}

extension DependencyValues {
  /// The current date: `Date()` live; in tests it reports a warning unless overridden.
  public var date: DateGenerator {
    get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}
