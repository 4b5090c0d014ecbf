/// A mutable value isolated to an actor, for tests that record from async code what a dependency
/// was called with (as in swift-concurrency-extras, which TCA exports).
///
/// ```swift
/// let events = ActorIsolated<[String]>([])
/// … $0.analytics.track = { event in await events.withValue { $0.append(event) } }
/// await events.withValue { #expect($0 == ["tapped"]) }
/// ```
///
/// ``LockIsolated`` does the same synchronously.
public final actor ActorIsolated<Value> {
  /// The value.
  public var value: Value

  /// Isolates a value.
  ///
  /// - Parameter value: The initial value.
  public init(_ value: sending Value) {
    self.value = value
  }

  /// Reads or changes the value in one step.
  ///
  /// - Parameter operation: Reads or changes the value.
  /// - Returns: What `operation` returns.
  public func withValue<T: Sendable>(
    _ operation: @Sendable (inout Value) throws -> T
  ) rethrows -> T {
    try operation(&self.value)
  }

  /// Replaces the value.
  ///
  /// - Parameter newValue: The new value.
  public func setValue(_ newValue: sending Value) {
    self.value = newValue
  }
}
