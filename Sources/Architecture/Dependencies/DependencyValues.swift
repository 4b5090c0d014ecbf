#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Whether dependencies resolve to their live or their test implementations.
public enum DependencyContext: Sendable, Hashable {
  /// `liveValue`s.
  case live
  /// `testValue`s.
  case test

  /// The context of a process: `.test` when it runs under a test runner (the process was started
  /// from an `.xctest` bundle, as `swift test` does for XCTest and Swift Testing on Linux, or
  /// `XCTestConfigurationFilePath` is set, as on Apple platforms), otherwise `.live`.
  public static let `default`: DependencyContext = {
    let arguments = CommandLine.arguments
    if let first = arguments.first, first.hasSuffix(".xctest") || first.contains(".xctest/") {
      return .test
    }
    if arguments.contains(where: { $0.hasSuffix(".xctest") }) { return .test }
    if ProcessInfo.processInfo.environment["XCTestConfigurationFilePath"] != nil { return .test }
    return .live
  }()
}

/// The dependencies available to reducers and effects, held in a task-local.
///
/// A ``Store`` captures the current values when it is created (plus the overrides given to its
/// initializer) and re-establishes them around every reduce and every effect it starts, so
/// `@Dependency` reads the store's values even when `send` is called from a thread that is not
/// running a task, and each store can have its own overrides. Effects get them as this
/// task-local; a reduce gets them through a cheaper thread-local context (see `_effective`).
///
/// > Important: Inside a reducer, read dependencies with `@Dependency` (or
/// > `DependencyValues._effective`) and override them with ``withDependencies(_:operation:)``;
/// > `DependencyValues.current` itself is the caller's task-local there.
///
/// ## Test context
///
/// Values not overridden resolve to `liveValue` or `testValue` depending on ``context``, whose
/// default is ``DependencyContext/default`` (a test runner process is `.test`); set
/// `$0.context = .test` in `withDependencies` to force it (a `TestStore` does). In a test
/// context each store caches its own test values (so `uuid` counts from 0 per store); in a
/// live context the values are computed once per process.
public struct DependencyValues: Sendable {
  /// The current dependencies of this task.
  @TaskLocal public static var current = DependencyValues()

  var storage: [ObjectIdentifier: any Sendable] = [:]
  var cache: _DependencyCache = .shared
  /// Whether unset dependencies resolve to live or test values.
  public var context: DependencyContext = .default

  /// Creates dependency values with nothing overridden.
  public init() {}

  /// Reads or overrides the dependency of a key.
  public subscript<Key: TestDependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let value = self.storage[ObjectIdentifier(key)] as? Key.Value { return value }
      return self.cache.value(for: key, context: self.context)
    }
    set {
      self.storage[ObjectIdentifier(key)] = newValue
    }
  }

  /// Gives a store its own cache of default values when it runs in a test context.
  mutating func prepareForStore() {
    if self.context == .test { self.cache = _DependencyCache() }
  }
}

/// Default (unoverridden) dependency values, computed once per cache.
final class _DependencyCache: Sendable {
  static let shared = _DependencyCache()

  private struct Key: Hashable {
    let key: ObjectIdentifier
    let context: DependencyContext
  }
  private let values = _Lock<[Key: any Sendable]>([:])

  func value<K: TestDependencyKey>(for key: K.Type, context: DependencyContext) -> K.Value {
    let cacheKey = Key(key: ObjectIdentifier(key), context: context)
    if let value = self.values.withLock({ $0[cacheKey] }) as? K.Value { return value }
    // Computed outside the lock: a default value may itself read dependencies.
    let value = context == .test ? K.testValue : Self.liveValue(of: key)
    return self.values.withLock { values in
      if let existing = values[cacheKey] as? K.Value { return existing }
      values[cacheKey] = value
      return value
    }
  }

  /// The live value of a key, or, for a key with only a test implementation, its test value
  /// (with a runtime warning).
  private static func liveValue<K: TestDependencyKey>(of key: K.Type) -> K.Value {
    func live<Live: DependencyKey>(_ live: Live.Type) -> K.Value? {
      live.liveValue as? K.Value
    }
    if let liveKey = key as? any DependencyKey.Type, let value = live(liveKey) { return value }
    DependencyValues._effective.runtimeWarnings(
      "@Dependency(\(K.self)) has no live implementation and was accessed in a live context;"
        + " its test value is used. Conform the key to DependencyKey with a liveValue in the"
        + " module that registers the live implementation.")
    return K.testValue
  }
}

/// Runs synchronous work with some dependencies overridden.
///
/// ```swift
/// let store = withDependencies {
///   $0.uuid = .incrementing
/// } operation: {
///   Store(initialState: Todos.State()) { Todos() }
/// }
/// ```
///
/// - Parameters:
///   - update: Overrides dependencies.
///   - operation: Runs with the overridden values.
/// - Returns: The operation's result.
@discardableResult
public func withDependencies<R>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () throws -> R
) rethrows -> R {
  var values = DependencyValues._effective
  try DependencyValues.$_isSetting.withValue(true) { try update(&values) }
  return try DependencyValues.$current.withValue(values) {
    // Inside a reduce, the reduce context wins over the task-local: update it too.
    guard _ReduceContext.current != nil else { return try operation() }
    return try _ReduceContext.with(_DependencyBox(values), operation)
  }
}

/// Runs async work with some dependencies overridden.
///
/// - Parameters:
///   - update: Overrides dependencies.
///   - operation: Runs with the overridden values.
/// - Returns: The operation's result.
@discardableResult
public func withDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ update: (inout DependencyValues) async throws -> Void,
  operation: () async throws -> R
) async rethrows -> R {
  var values = DependencyValues._effective
  try await DependencyValues.$_isSetting.withValue(true) { try await update(&values) }
  return try await DependencyValues.$current.withValue(values, operation: operation)
}

/// Reads a dependency from the current ``DependencyValues``, lazily, at each access.
///
/// ```swift
/// struct Feature: Reducer {
///   @Dependency(\.uuid) var uuid
///   @Dependency(\.clock) var clock
/// }
/// ```
@propertyWrapper
public struct Dependency<Value>: Sendable {
  let keyPath: KeyPath<DependencyValues, Value> & Sendable

  /// Names a dependency by its key path in ``DependencyValues``.
  ///
  /// - Parameter keyPath: For example `\.clock`.
  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) {
    self.keyPath = keyPath
  }

  /// Names a dependency by its key, for a type that is its own key (no ``DependencyValues``
  /// property needed), as TCA's `@Dependency(FactClient.self)`:
  ///
  /// ```swift
  /// extension FactClient: DependencyKey { static let liveValue = FactClient(…) }
  ///
  /// @Dependency(FactClient.self) var factClient
  /// ```
  ///
  /// Tests override it through the key: `$0[FactClient.self] = …`.
  ///
  /// - Parameter key: The key.
  public init<Key: TestDependencyKey>(_ key: Key.Type) where Key.Value == Value {
    self.keyPath = \DependencyValues.[_key: _DependencyKeyName<Key>()]
  }

  /// The dependency's current value.
  public var wrappedValue: Value {
    DependencyValues._effective[keyPath: self.keyPath]
  }
}

/// Names a dependency key as a hashable value, so that `@Dependency(Key.self)` is a key path
/// like the others.
struct _DependencyKeyName<Key: TestDependencyKey>: Hashable, Sendable {}

extension DependencyValues {
  /// The value of a key, as a key path component (`@Dependency(Key.self)`).
  subscript<Key: TestDependencyKey>(_key _: _DependencyKeyName<Key>) -> Key.Value {
    self[Key.self]
  }
}
