/// A sharing scope: the persisted references alive in it (by key), the values of its
/// `.inMemory` keys, and, in tests, its in-memory files.
///
/// Every `@Shared(key)` created in one scope with keys of equal id is the same reference; a
/// reference leaves its scope when the last `Shared` holding it goes away (its key is then
/// flushed). In-memory values stay for the scope's lifetime.
///
/// Which scope code runs in:
///
/// - in a live context (``DependencyContext/live``), one scope for the whole process: the app;
/// - in a test context, the scope of the task the code runs in: a test's `@Shared`
///   declarations and a `TestStore` created in the same test share one scope, and tests running
///   in parallel (Swift Testing runs each in its own task) are isolated from each other. A test
///   store hands its scope to its feature and effects through its dependencies, so that they use
///   it from any task;
/// - wherever the dependency is set explicitly (a test store sets it).
///
/// `@unchecked Sendable`: its mutable state is in its locks.
final class _SharedRegistry: @unchecked Sendable {
  private final class WeakBox {
    weak var box: (any _AnySharedBox)?
    init(_ box: any _AnySharedBox) { self.box = box }
  }

  private final class WeakRegistry {
    weak var registry: _SharedRegistry?
    init(_ registry: _SharedRegistry) { self.registry = registry }
  }

  private let references = _SharedLock<[AnyHashable: WeakBox]>([:])
  /// The values of `.inMemory` keys.
  let inMemoryValues = _SharedLock<[String: any Sendable]>([:])
  /// The files of `FileStorage.inMemory` storage resolved in this scope (tests).
  let files = _InMemoryFiles()

  /// The scope of a live process.
  static let live = _SharedRegistry()

  /// Test scopes, by task (the hash of the task they belong to); held weakly, so a scope ends
  /// with the last reference, test store or key that uses it.
  private static let taskScopes = _SharedLock<[Int: WeakRegistry]>([:])

  /// The scope of code running here (see the type's documentation).
  static var current: _SharedRegistry {
    self.resolve(in: DependencyValues._effective)
  }

  /// The scope for some dependencies (see the type's documentation).
  static func resolve(in dependencies: DependencyValues) -> _SharedRegistry {
    if let explicit = dependencies[_SharedRegistryKey.self] { return explicit }
    if dependencies.context == .live { return .live }
    // Outside any task (a synchronous XCTest method), all such code shares one scope; XCTest
    // runs its tests one at a time, and the scope ends between tests once nothing holds it.
    let task = withUnsafeCurrentTask { $0?.hashValue } ?? 0
    return self.taskScopes.withLock { scopes in
      if let registry = scopes[task]?.registry { return registry }
      scopes = scopes.filter { $0.value.registry != nil }
      let registry = _SharedRegistry()
      scopes[task] = WeakRegistry(registry)
      return registry
    }
  }

  /// The root box of a key in this scope: the existing one, or a new one that loads with the
  /// key (and subscribes to it).
  func box<Key: SharedKey>(
    for key: Key, default defaultValue: () -> Key.Value
  ) -> _SharedBox<Key.Value> {
    let id = AnyHashable(key.id)
    if let existing = self.existingBox(id, of: Key.Value.self, key: key) { return existing }
    // The default value and the key's load are user code (which may create other shared
    // references): outside the lock.
    let box = self.makeBox(key, defaultValue())
    let winner = self.references.withLock { references -> _SharedBox<Key.Value> in
      // Another thread may have registered the key meanwhile: theirs wins.
      if let other = references[id]?.box {
        // The same type, or (reported above) another type, which keeps the key.
        return other as? _SharedBox<Key.Value> ?? box
      }
      references[id] = WeakBox(box)
      if references.count % 64 == 0 { references = references.filter { $0.value.box != nil } }
      return box
    }
    if winner === box { (box.persistence as? _SharedPersistence<Key.Value>)?.start() }
    return winner
  }

  private func existingBox<Key: SharedKey>(
    _ id: AnyHashable, of type: Key.Value.Type, key: Key
  ) -> _SharedBox<Key.Value>? {
    guard let existing = self.references.withLock({ $0[id]?.box }) else { return nil }
    if let box = existing as? _SharedBox<Key.Value> { return box }
    DependencyValues._effective.runtimeWarnings(
      "A @Shared of \(Key.Value.self) was created with the key \(key), which already shares"
        + " \(existing.debugName) in this scope; it gets a reference of its own.")
    return nil
  }

  private func makeBox<Key: SharedKey>(_ key: Key, _ value: Key.Value) -> _SharedBox<Key.Value> {
    let box = _SharedBox(value: value, debugName: "Shared<\(Key.Value.self)>(\(key))")
    box.attach(_SharedPersistence(key: key, defaultValue: value, box: box), in: self)
    return box
  }
}

/// Where code finds its sharing scope when it is set explicitly (a test store sets it for its
/// feature).
enum _SharedRegistryKey: DependencyKey {
  static let liveValue: _SharedRegistry? = nil
  static let testValue: _SharedRegistry? = nil
}
