#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Generates UUIDs: random ones live, predictable ones in tests.
///
/// ```swift
/// @Dependency(\.uuid) var uuid
/// state.todos.insert(Todo.State(id: uuid()), at: 0)
/// ```
public struct UUIDGenerator: Sendable {
  let generate: @Sendable () -> UUID

  /// Creates a generator from a closure.
  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  /// Returns a new UUID.
  public func callAsFunction() -> UUID {
    self.generate()
  }

  /// Random UUIDs (`UUID()`).
  public static let random = UUIDGenerator { UUID() }

  /// A generator that always returns the same UUID.
  public static func constant(_ uuid: UUID) -> Self {
    Self { uuid }
  }

  /// A new generator counting from `00000000-0000-0000-0000-000000000000`, then `…0001`, and
  /// so on (the low 64 bits count). Each access returns a fresh counter.
  public static var incrementing: Self {
    let counter = _Lock<UInt64>(0)
    return Self {
      let value = counter.withLock { value in
        defer { value &+= 1 }
        return value
      }
      return UUID(counting: value)
    }
  }
}

extension UUID {
  /// A UUID for tests whose last hex digits are an integer: `UUID(0)` is
  /// `00000000-0000-0000-0000-000000000000`, `UUID(1)` is `…-000000000001`, the values
  /// ``UUIDGenerator/incrementing`` produces, in order (as in swift-dependencies).
  ///
  /// ```swift
  /// await store.send(.addButtonTapped) {
  ///   $0.todos.insert(Todo.State(id: UUID(0)), at: 0)
  /// }
  /// ```
  ///
  /// - Parameter intValue: A non-negative integer.
  public init(_ intValue: Int) {
    precondition(intValue >= 0, "UUID(\(intValue)): a test UUID counts from 0")
    self.init(counting: UInt64(intValue))
  }

  /// The UUID whose last 12 hex digits are `value` (the form `.incrementing` produces).
  init(counting value: UInt64) {
    let b = withUnsafeBytes(of: value.bigEndian) { Array($0) }
    self.init(uuid: (0, 0, 0, 0, 0, 0, 0, 0, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]))
  }
}

private enum UUIDGeneratorKey: DependencyKey {
  static let liveValue = UUIDGenerator.random
  static var testValue: UUIDGenerator { .incrementing }
}

extension DependencyValues {
  /// The UUID generator: random live, ``UUIDGenerator/incrementing`` (per store) in tests.
  public var uuid: UUIDGenerator {
    get { self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}
