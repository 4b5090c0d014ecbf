/// Where a ``Shared`` value is persisted, and how it is loaded, saved and kept up to date.
///
/// The library comes with ``InMemoryKey`` (`.inMemory("name")`) and ``FileStorageKey``
/// (`.fileStorage(url)`). Conform to this protocol to share state with another kind of storage:
///
/// ```swift
/// @Shared(.inMemory("count")) var count = 0
/// @Shared(.fileStorage(.syncUpsURL)) var syncUps: IdentifiedArrayOf<SyncUp> = []
/// ```
///
/// Every `@Shared` created with keys of equal ``id`` in one sharing scope is the same reference:
/// a change through one is seen by all, and the key loads once. The first one created asks
/// the key to ``load(context:continuation:)`` (a synchronous `resume` is used at once, so the
/// value is there at the first read), then to ``subscribe(context:subscriber:)`` to external
/// changes for as long as the reference lives, and every `withLock` that changes the value asks
/// it to ``save(_:context:continuation:)``.
///
/// ## A key backed by a host's scope
///
/// This protocol is how state owned by a `storehost` can later be shared into a local feature,
/// with no change to `Shared` or to the features using it. Such a key would:
///
/// - have an ``id`` made of the host's socket path and the scope (`counter`, `todos/<id>`), so
///   that every feature sharing a scope holds one reference;
/// - in ``load(context:continuation:)``, fetch the scope's snapshot (asynchronously: the
///   `@Shared` starts with its default value and takes the snapshot when the continuation is
///   resumed);
/// - in ``subscribe(context:subscriber:)``, subscribe to the scope, apply each patch to its copy
///   and ``SharedSubscriber/yield(_:)`` the decoded state; cancel the subscription in the
///   returned ``SharedSubscription``;
/// - in ``save(_:context:continuation:)``, send the host the action that sets the value (a host
///   scope is changed by actions, not by writes), resuming the continuation with the host's
///   acknowledgement or error.
///
/// Keys can be dependency-aware like the built-in ones: read `@Dependency` values in the key's
/// initializer (it runs where the `@Shared` is declared) so that tests can swap the storage.
public protocol SharedKey<Value>: Sendable {
  /// The value stored.
  associatedtype Value: Sendable
  /// The identity of the stored value: keys with equal ids share one reference.
  associatedtype ID: Hashable & Sendable = Self

  /// The identity of the stored value.
  var id: ID { get }

  /// Loads the value. Resume the continuation exactly once: with a value, with
  /// ``LoadContinuation/resumeReturningInitialValue()`` when the storage has none (the default
  /// value is kept), or with an error.
  ///
  /// - Parameters:
  ///   - context: Whether this is the first load (with the default value) or a reload asked for
  ///     with ``Shared/load()``.
  ///   - continuation: Receives the result, now or later.
  func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>)

  /// Starts delivering changes made to the storage from elsewhere.
  ///
  /// - Parameters:
  ///   - context: The first load's context.
  ///   - subscriber: Receives each new value.
  /// - Returns: A subscription, cancelled when the shared reference goes away.
  func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>)
    -> SharedSubscription

  /// Saves the value. Resume the continuation exactly once, when the value is saved (or with the
  /// error that prevented it); a key may delay a `.didSet` save to coalesce several changes.
  ///
  /// - Parameters:
  ///   - value: The value to save.
  ///   - context: `.didSet` after a `withLock` changed it, `.userInitiated` from
  ///     ``Shared/save()`` (save now).
  ///   - continuation: Receives the outcome.
  func save(_ value: Value, context: SaveContext, continuation: SaveContinuation)
}

extension SharedKey where ID == Self, Self: Hashable {
  /// A hashable key is its own identity.
  public var id: Self { self }
}

/// Why a ``SharedKey`` loads.
public enum LoadContext<Value> {
  /// The first load, when the first `@Shared` for the key is created with this default value.
  case initialValue(Value)
  /// A reload asked for with ``Shared/load()``.
  case userInitiated

  /// The default value of a first load.
  public var initialValue: Value? {
    if case .initialValue(let value) = self { value } else { nil }
  }
}

extension LoadContext: Sendable where Value: Sendable {}

/// Why a ``SharedKey`` saves.
public enum SaveContext: Hashable, Sendable {
  /// A `withLock` changed the value: the key may coalesce saves.
  case didSet
  /// ``Shared/save()`` asked for it: save now.
  case userInitiated
}

/// Receives the result of a ``SharedKey/load(context:continuation:)``, once.
public struct LoadContinuation<Value>: Sendable {
  private let once: _ResumeOnce<Value?>

  /// Creates a continuation.
  ///
  /// - Parameter callback: Receives the result: a value, `nil` for "keep the default", or an
  ///   error.
  public init(_ callback: @escaping @Sendable (Result<Value?, any Error>) -> Void) {
    self.once = _ResumeOnce("A shared key's load", callback)
  }

  /// Resumes with a loaded value.
  ///
  /// - Parameter value: The value.
  public func resume(returning value: Value) {
    self.once.resume(.success(value))
  }

  /// Resumes saying the storage has no value: the reference keeps its default.
  public func resumeReturningInitialValue() {
    self.once.resume(.success(nil))
  }

  /// Resumes with the error that prevented loading; the reference keeps its value and exposes
  /// the error as ``Shared/loadError``.
  ///
  /// - Parameter error: The error.
  public func resume(throwing error: any Error) {
    self.once.resume(.failure(error))
  }
}

/// Receives the outcome of a ``SharedKey/save(_:context:continuation:)``, once.
public struct SaveContinuation: Sendable {
  private let once: _ResumeOnce<Void>

  /// Creates a continuation.
  ///
  /// - Parameter callback: Receives the outcome.
  public init(_ callback: @escaping @Sendable (Result<Void, any Error>) -> Void) {
    self.once = _ResumeOnce("A shared key's save", callback)
  }

  /// Resumes saying the value is saved.
  public func resume() {
    self.once.resume(.success(()))
  }

  /// Resumes with the error that prevented saving (exposed as ``Shared/saveError``).
  ///
  /// - Parameter error: The error.
  public func resume(throwing error: any Error) {
    self.once.resume(.failure(error))
  }
}

/// Receives the values a ``SharedKey``'s storage takes when it changes from elsewhere.
public struct SharedSubscriber<Value>: Sendable {
  let callback: @Sendable (Result<Value?, any Error>) -> Void

  /// Creates a subscriber.
  ///
  /// - Parameter callback: Receives each new value (`nil` when the storage lost its value), or
  ///   an error.
  public init(_ callback: @escaping @Sendable (Result<Value?, any Error>) -> Void) {
    self.callback = callback
  }

  /// Delivers a new value.
  ///
  /// - Parameter value: The value.
  public func yield(_ value: Value) {
    self.callback(.success(value))
  }

  /// Says the storage lost its value: the reference goes back to its default value.
  public func yieldReturningInitialValue() {
    self.callback(.success(nil))
  }

  /// Delivers an error (exposed as ``Shared/loadError``).
  ///
  /// - Parameter error: The error.
  public func yield(throwing error: any Error) {
    self.callback(.failure(error))
  }
}

/// A subscription to a ``SharedKey``'s external changes; cancelled once, explicitly or when the
/// last copy goes away.
public struct SharedSubscription: Sendable {
  private final class Box: Sendable {
    let onCancel: _SharedLock<(@Sendable () -> Void)?>

    init(_ onCancel: @escaping @Sendable () -> Void) {
      self.onCancel = _SharedLock(onCancel)
    }

    func cancel() {
      let onCancel = self.onCancel.withLock { onCancel in
        defer { onCancel = nil }
        return onCancel
      }
      onCancel?()
    }

    deinit { self.cancel() }
  }

  private let box: Box

  /// Creates a subscription.
  ///
  /// - Parameter cancel: Stops the delivery of changes; called once.
  public init(_ cancel: @escaping @Sendable () -> Void) {
    self.box = Box(cancel)
  }

  /// Stops the delivery of changes.
  public func cancel() {
    self.box.cancel()
  }
}

/// Calls a callback once; a second resume is a programming error of the key, reported as a
/// runtime warning and ignored.
final class _ResumeOnce<Value>: Sendable {
  private let callback: _SharedLock<(@Sendable (Result<Value, any Error>) -> Void)?>
  private let what: String

  init(_ what: String, _ callback: @escaping @Sendable (Result<Value, any Error>) -> Void) {
    self.what = what
    self.callback = _SharedLock(callback)
  }

  func resume(_ result: Result<Value, any Error>) {
    let callback = self.callback.withLock { callback in
      defer { callback = nil }
      return callback
    }
    guard let callback else {
      DependencyValues._effective.runtimeWarnings(
        "\(self.what) resumed its continuation more than once; only the first result is used.")
      return
    }
    callback(result)
  }
}
