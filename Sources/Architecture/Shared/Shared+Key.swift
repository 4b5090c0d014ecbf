extension Shared where Value: Sendable {
  /// A reference to the value a key persists, loading it on first use.
  ///
  /// ```swift
  /// @Shared(.inMemory("count")) var count = 0
  /// @Shared(.fileStorage(.syncUpsURL)) var syncUps: IdentifiedArrayOf<SyncUp> = []
  /// ```
  ///
  /// If a reference with an equal key exists in this sharing scope, this is that reference, and
  /// `wrappedValue` is not evaluated. Otherwise the key loads: its value is used if the storage
  /// has one, `wrappedValue` if not.
  ///
  /// - Parameters:
  ///   - wrappedValue: The value to use when the storage has none.
  ///   - key: Where the value lives.
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) {
    self.init(storage: _SharedRegistry.current.box(for: key, default: wrappedValue))
  }

  /// A reference to the value a key with a default value persists: `@Shared(.syncUps) var
  /// syncUps`.
  ///
  /// - Parameter key: Where the value lives, and its default.
  public init<Key: SharedKey>(_ key: _SharedKeyDefault<Key>) where Key.Value == Value {
    self.init(wrappedValue: key.defaultValue(), key)
  }

  /// A reference to the value a key with a default value persists, with another default:
  /// `@Shared(.syncUps) var syncUps = [.mock]` (in a test, say).
  ///
  /// - Parameters:
  ///   - wrappedValue: The value to use when the storage has none, in place of the key's.
  ///   - key: Where the value lives.
  @_disfavoredOverload
  public init<Key: SharedKey>(
    wrappedValue: @autoclosure () -> Value, _ key: _SharedKeyDefault<Key>
  ) where Key.Value == Value {
    self.init(storage: _SharedRegistry.current.box(for: key, default: wrappedValue))
  }

  /// A reference to an optional value a key persists, `nil` when the storage has none.
  ///
  /// - Parameter key: Where the value lives.
  @_disfavoredOverload
  public init<Wrapped>(_ key: some SharedKey<Value>) where Value == Wrapped? {
    self.init(wrappedValue: nil, key)
  }
}
