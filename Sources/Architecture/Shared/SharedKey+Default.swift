extension SharedKey {
  /// A key with a default value, so that `@Shared(.key) var value` needs no initial value.
  ///
  /// ```swift
  /// extension SharedKey where Self == FileStorageKey<IdentifiedArrayOf<SyncUp>>.Default {
  ///   static var syncUps: Self {
  ///     Self[.fileStorage(.documentsDirectory.appending(component: "sync-ups.json")), default: []]
  ///   }
  /// }
  ///
  /// @Shared(.syncUps) var syncUps             // [] unless the file has sync-ups
  /// @Shared(.syncUps) var syncUps = [.mock]   // another default, e.g. in a test
  /// ```
  public typealias Default = _SharedKeyDefault<Self>
}

/// A ``SharedKey`` with a default value; write it `SomeKey.Default`, build it with
/// `Self[key, default: value]`.
public struct _SharedKeyDefault<Base: SharedKey>: SharedKey {
  /// The key.
  public let base: Base
  let defaultValue: @Sendable () -> Base.Value

  /// A key with its default value.
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - value: The value used when the storage has none (evaluated only then).
  public static subscript(
    _ key: Base, default value: @autoclosure @escaping @Sendable () -> Base.Value
  ) -> Self {
    Self(base: key, defaultValue: value)
  }

  /// The key's identity.
  public var id: Base.ID { self.base.id }

  /// Loads with the key.
  public func load(context: LoadContext<Base.Value>, continuation: LoadContinuation<Base.Value>) {
    self.base.load(context: context, continuation: continuation)
  }

  /// Subscribes with the key.
  public func subscribe(
    context: LoadContext<Base.Value>, subscriber: SharedSubscriber<Base.Value>
  ) -> SharedSubscription {
    self.base.subscribe(context: context, subscriber: subscriber)
  }

  /// Saves with the key.
  public func save(_ value: Base.Value, context: SaveContext, continuation: SaveContinuation) {
    self.base.save(value, context: context, continuation: continuation)
  }
}
