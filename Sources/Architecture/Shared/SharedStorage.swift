/// The identity of a shared reference: its root box and the path from the root to the value,
/// so that two `Shared`s derived the same way from one root are recognized as the same.
struct _SharedIdentity: Hashable {
  let root: ObjectIdentifier
  let path: [AnyHashable]

  func appending(_ component: AnyHashable) -> Self {
    Self(root: self.root, path: self.path + [component])
  }
}

/// A root box, seen without its value type: what the change tracker and the registry hold.
protocol _AnySharedBox: AnyObject {
  /// The current value, boxed.
  var anyValue: Any { get }
  /// How the reference is named in test failures, e.g. `Shared<Int>(.inMemory("count"))`.
  var debugName: String { get }
}

/// Where a ``Shared`` reads and writes: a root box, or a projection of one (a key path into
/// its value, or the unwrapped value of an optional).
///
/// `@unchecked Sendable`: the class is abstract and holds nothing; each subclass says why it is
/// safe.
class _SharedStorage<Value>: @unchecked Sendable {
  /// The identity of the reference.
  var identity: _SharedIdentity { fatalError("abstract") }
  /// The root box.
  var box: any _AnySharedBox { fatalError("abstract") }

  /// The value, as `view` sees it.
  func read(_ view: _SharedView) -> Value { fatalError("abstract") }

  /// Changes the value, as `view` sees it (the live value, or a test's expectation).
  func modify<R>(_ view: _SharedView, _ body: (inout Value) throws -> R) rethrows -> R {
    fatalError("abstract")
  }

  /// Loads the root's value again from its key, if it has one.
  func reload() async throws {}

  /// Saves the root's value with its key now, if it has one.
  func saveNow() async throws {}

  /// The error of the root's last load, if it failed.
  var loadError: (any Error)? { nil }

  /// The error of the root's last save, if it failed.
  var saveError: (any Error)? { nil }
}

/// The storage of a shared value: the value under a lock, and the key that persists it.
///
/// `@unchecked Sendable`: the mutable state is in `state`, only touched inside its lock; the
/// other properties are immutable after init, but for `persistence`, set once right after
/// init (before the box is handed to anyone) by `_SharedRegistry`.
final class _SharedBox<Value>: _SharedStorage<Value>, _AnySharedBox, @unchecked Sendable {
  struct State {
    var value: Value
    var loadError: (any Error)?
    var saveError: (any Error)?
  }

  let state: _SharedLock<State>
  private(set) var persistence: (any _SharedPersisting<Value>)?
  /// The sharing scope of a persisted value, kept alive by its references.
  private(set) var scope: _SharedRegistry?
  let debugName: String

  init(value: Value, debugName: String) {
    self.state = _SharedLock(State(value: value))
    self.debugName = debugName
  }

  /// Attaches the key and the scope, before the box is shared.
  func attach(_ persistence: any _SharedPersisting<Value>, in scope: _SharedRegistry) {
    self.persistence = persistence
    self.scope = scope
  }

  override var identity: _SharedIdentity {
    _SharedIdentity(root: ObjectIdentifier(self), path: [])
  }

  override var box: any _AnySharedBox { self }

  var anyValue: Any { self.state.withLock { $0.value } }

  override func read(_ view: _SharedView) -> Value {
    switch view {
    case .live:
      break
    case .expected(let tracker, _):
      if let value = tracker.expectedValue(of: self) as? Value { return value }
    case .actual(let tracker, let index):
      if let value = tracker.value(of: self, after: index) as? Value { return value }
    }
    return self.state.withLock { $0.value }
  }

  override func modify<R>(_ view: _SharedView, _ body: (inout Value) throws -> R) rethrows -> R {
    if case .expected(let tracker, _) = view {
      // A test describing the state it expects: the live value is left alone.
      var value = self.read(view)
      defer { tracker.setExpectedValue(value, of: self) }
      return try body(&value)
    }
    let tracker = DependencyValues._effective[_SharedChangeTrackerKey.self]
    let (result, before, after) = try self.state.whileLocked {
      // `body` runs with the lock held (so no other thread changes the value meanwhile) but on
      // a copy, with no access to the box open: it may read this shared value again on this
      // thread.
      let before = self.state.locked.value
      var value = before
      let result = try body(&value)
      self.state.locked.value = value
      return (result, before, value)
    }
    tracker?.didChange(self, from: before, to: after)
    self.persistence?.didChange(after)
    return result
  }

  /// Takes a value from the key (a load, or a change made elsewhere), without saving it back.
  func receive(_ result: Result<Value?, any Error>, default defaultValue: Value?) {
    self.state.withLock { state in
      switch result {
      case .success(let value?):
        state.value = value
        state.loadError = nil
      case .success(nil):
        if let defaultValue { state.value = defaultValue }
        state.loadError = nil
      case .failure(let error):
        state.loadError = error
      }
    }
  }

  func didSave(_ result: Result<Void, any Error>) {
    self.state.withLock { state in
      if case .failure(let error) = result {
        state.saveError = error
      } else {
        state.saveError = nil
      }
    }
  }

  override func reload() async throws {
    try await self.persistence?.reload()
  }

  override func saveNow() async throws {
    try await self.persistence?.save(self.state.withLock { $0.value })
  }

  override var loadError: (any Error)? { self.state.withLock { $0.loadError } }
  override var saveError: (any Error)? { self.state.withLock { $0.saveError } }
}

/// A shared part of another shared value: `$signUp.phoneNumber`.
///
/// `@unchecked Sendable`: immutable. A key path is an immutable object; the subscript arguments
/// it may capture (`\.[id: id]`) are values copied into it and only read when it is applied.
final class _SharedKeyPathStorage<Root, Value>: _SharedStorage<Value>, @unchecked Sendable {
  let base: _SharedStorage<Root>
  let keyPath: WritableKeyPath<Root, Value>

  init(base: _SharedStorage<Root>, keyPath: WritableKeyPath<Root, Value>) {
    self.base = base
    self.keyPath = keyPath
  }

  override var identity: _SharedIdentity { self.base.identity.appending(self.keyPath) }
  override var box: any _AnySharedBox { self.base.box }

  override func read(_ view: _SharedView) -> Value {
    self.base.read(view)[keyPath: self.keyPath]
  }

  override func modify<R>(_ view: _SharedView, _ body: (inout Value) throws -> R) rethrows -> R {
    try self.base.modify(view) { try body(&$0[keyPath: self.keyPath]) }
  }

  override func reload() async throws { try await self.base.reload() }
  override func saveNow() async throws { try await self.base.saveNow() }
  override var loadError: (any Error)? { self.base.loadError }
  override var saveError: (any Error)? { self.base.saveError }
}

/// The unwrapped value of a shared optional: `Shared($syncUps[id: id])`. After the optional
/// becomes `nil` it keeps its last value, and writes no longer reach the root.
///
/// `@unchecked Sendable`: `base` is immutable, `last` is only touched inside its lock.
final class _SharedUnwrappedStorage<Value>: _SharedStorage<Value>, @unchecked Sendable {
  let base: _SharedStorage<Value?>
  let last: _SharedLock<Value>

  init(base: _SharedStorage<Value?>, value: Value) {
    self.base = base
    self.last = _SharedLock(value)
  }

  override var identity: _SharedIdentity { self.base.identity.appending("!") }
  override var box: any _AnySharedBox { self.base.box }

  override func read(_ view: _SharedView) -> Value {
    guard let value = self.base.read(view) else { return self.last.withLock { $0 } }
    if case .live = view { self.last.withLock { $0 = value } }
    return value
  }

  override func modify<R>(_ view: _SharedView, _ body: (inout Value) throws -> R) rethrows -> R {
    try self.base.modify(view) { optional in
      var value = optional ?? self.last.withLock { $0 }
      let result = try body(&value)
      if optional != nil { optional = value }
      if case .live = view { self.last.withLock { $0 = value } }
      return result
    }
  }

  override func reload() async throws { try await self.base.reload() }
  override func saveNow() async throws { try await self.base.saveNow() }
  override var loadError: (any Error)? { self.base.loadError }
  override var saveError: (any Error)? { self.base.saveError }
}

/// What a root box asks of its key, seen without the key's type.
protocol _SharedPersisting<Value>: AnyObject, Sendable {
  associatedtype Value
  /// Saves after a change (the key may coalesce).
  func didChange(_ value: Value)
  /// Loads again.
  func reload() async throws
  /// Saves now.
  func save(_ value: Value) async throws
}

/// A root box's link to its key: loads, subscription, saves.
///
/// `@unchecked Sendable`: `key` and `defaultValue` are immutable (and `Sendable`); the
/// subscription is only touched inside its lock.
final class _SharedPersistence<Value: Sendable>: _SharedPersisting, @unchecked Sendable {
  let key: any SharedKey<Value>
  let defaultValue: Value
  weak var box: _SharedBox<Value>?
  private let subscription = _SharedLock<SharedSubscription?>(nil)

  init(key: any SharedKey<Value>, defaultValue: Value, box: _SharedBox<Value>) {
    self.key = key
    self.defaultValue = defaultValue
    self.box = box
  }

  /// Loads the first value and subscribes to changes made elsewhere.
  func start() {
    let context = LoadContext.initialValue(self.defaultValue)
    self.key.load(
      context: context,
      continuation: LoadContinuation { [weak box] result in
        box?.receive(result, default: nil)
      })
    let subscription = self.key.subscribe(
      context: context,
      subscriber: SharedSubscriber { [weak box, defaultValue] result in
        box?.receive(result, default: defaultValue)
      })
    self.subscription.withLock { $0 = subscription }
  }

  func didChange(_ value: Value) {
    self.key.save(
      value, context: .didSet,
      continuation: SaveContinuation { [weak box] result in box?.didSave(result) })
  }

  func reload() async throws {
    let result = await withCheckedContinuation { continuation in
      self.key.load(
        context: .userInitiated,
        continuation: LoadContinuation { continuation.resume(returning: $0) })
    }
    self.box?.receive(result, default: nil)
    if case .failure(let error) = result { throw error }
  }

  func save(_ value: Value) async throws {
    let result = await withCheckedContinuation { continuation in
      self.key.save(
        value, context: .userInitiated,
        continuation: SaveContinuation { continuation.resume(returning: $0) })
    }
    self.box?.didSave(result)
    if case .failure(let error) = result { throw error }
  }

  deinit {
    self.subscription.withLock { $0 }?.cancel()
  }
}
