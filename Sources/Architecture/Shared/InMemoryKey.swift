extension SharedKey {
  /// A key for a value shared in memory for the life of the app (in tests: of the test).
  ///
  /// ```swift
  /// @Shared(.inMemory("isLoggedIn")) var isLoggedIn = false
  /// ```
  ///
  /// - Parameter key: The name of the value.
  /// - Returns: The key.
  public static func inMemory<Value>(_ key: String) -> Self where Self == InMemoryKey<Value> {
    InMemoryKey(key, in: _SharedRegistry.current)
  }
}

/// A ``SharedKey`` for a value kept in memory, by name, in the sharing scope where the key is
/// created (the app; in tests, the test). Create one with `.inMemory("name")`.
public struct InMemoryKey<Value: Sendable>: SharedKey {
  let key: String
  let scope: _SharedRegistry

  init(_ key: String, in scope: _SharedRegistry) {
    self.key = key
    self.scope = scope
  }

  /// The name and the scope.
  public var id: InMemoryKeyID {
    InMemoryKeyID(key: self.key, scope: ObjectIdentifier(self.scope))
  }

  /// Takes the value kept under the name, or keeps the default (and keeps it from now on).
  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    let value = self.scope.inMemoryValues.withLock { values -> (any Sendable)? in
      if values[self.key] == nil, let initial = context.initialValue { values[self.key] = initial }
      return values[self.key]
    }
    if let value = value as? Value {
      continuation.resume(returning: value)
    } else {
      continuation.resumeReturningInitialValue()
    }
  }

  /// Nothing changes the value but the shared reference itself.
  public func subscribe(
    context: LoadContext<Value>, subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    SharedSubscription {}
  }

  /// Keeps the value under the name.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    self.scope.inMemoryValues.withLock { $0[self.key] = value }
    continuation.resume()
  }
}

extension InMemoryKey: CustomStringConvertible {
  /// `.inMemory("name")`.
  public var description: String { ".inMemory(\(String(reflecting: self.key)))" }
}

/// The identity of an ``InMemoryKey``: its name in its scope.
public struct InMemoryKeyID: Hashable, Sendable {
  let key: String
  let scope: ObjectIdentifier
}
