/// Runs async work that can be cancelled by an id, from inside an effect, as TCA's
/// `withTaskCancellation(id:cancelInFlight:operation:)`.
///
/// The id lives in the same space as ``Effect/cancellable(id:cancelInFlight:)``: the reducer's
/// `.cancel(id:)` cancels the work, and with `cancelInFlight` a new call cancels the work still
/// running under the id (a debounce inside one long-running effect):
///
/// ```swift
/// Reduce { state, action in
///   .run { [syncUps = state.syncUps] _ in
///     try await withTaskCancellation(id: CancelID.saveDebounce, cancelInFlight: true) {
///       try await self.clock.sleep(for: .seconds(1))
///       try await self.save(syncUps)
///     }
///   }
/// }
/// ```
///
/// Inside an effect the id belongs to the effect's store and to the presented or stack element
/// the effect came from, as effect ids do; outside any effect it belongs to one process-wide
/// space.
///
/// - Parameters:
///   - id: The cancellation id.
///   - cancelInFlight: Whether to cancel the work already running under `id` first.
///   - operation: The work. It runs in a new task; cancelling the calling task cancels it too.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws (`CancellationError` when it notices its cancellation).
public func withTaskCancellation<T: Sendable, E: Error>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  operation: @escaping @Sendable () async throws(E) -> T
) async throws(E) -> T {
  let context = _EffectContext.current ?? .outsideEffects
  let cancelID = context.cancelID(id)
  if cancelInFlight { context.registry.cancel(id: cancelID) }
  let result = _Lock<Result<T, E>?>(nil)
  // The work runs where the effects of its store run (a test store's serial executor).
  let (key, taskExecutor) = context.registry.begin(ids: [cancelID], group: context.group)
  let task = Task<Void, Never>(executorPreference: taskExecutor) {
    let outcome: Result<T, E>
    do throws(E) {
      outcome = .success(try await operation())
    } catch {
      outcome = .failure(error)
    }
    result.withLock { $0 = outcome }
    context.registry.finish(key)
  }
  context.registry.attach(key, task: task)
  await withTaskCancellationHandler {
    await task.value
  } onCancel: {
    task.cancel()
  }
  // The task stored its outcome before it ended, and `task.value` waited for its end.
  return try result.withLock { $0! }.get()
}

extension Task where Success == Never, Failure == Never {
  /// Cancels the effects and ``withTaskCancellation(id:cancelInFlight:operation:)`` work running
  /// under an id, from async code (as TCA's `Task.cancel(id:)`).
  ///
  /// Inside an effect it reaches the ids of the effect's store and element, as the reducer's
  /// `.cancel(id:)` does.
  ///
  /// - Parameter id: The cancellation id.
  public static func cancel(id: some Hashable & Sendable) {
    let context = _EffectContext.current ?? .outsideEffects
    context.registry.cancel(id: context.cancelID(id))
  }
}

/// Where an effect's task runs: its store's registry, the ``StoreTask`` group of the action that
/// started it, and the cancellation ids it runs under (which tell its navigation scope).
///
/// Set by the store around every effect task, so that cancellation by id from inside the task
/// reaches the same ids the reducer's effects use.
struct _EffectContext: Sendable {
  @TaskLocal static var current: _EffectContext?

  let registry: _EffectRegistry
  let group: _EffectGroup
  let ids: [_CancelID]

  /// The context of code that runs in no effect: ids live in one registry for the process.
  static var outsideEffects: Self {
    let registry = _EffectRegistry.outsideEffects
    return Self(registry: registry, group: _EffectGroup(registry: registry), ids: [])
  }

  /// An id as the effect's reducer would name it: scoped to the presented or stack element the
  /// effect came from (the deepest navigation id it runs under).
  func cancelID(_ id: some Hashable & Sendable) -> _CancelID {
    var cancelID = _CancelID(id)
    if let navigation = self.ids.filter(\.isNavigation).max(by: { $0.path.count < $1.path.count }) {
      var unscoped = navigation
      unscoped.path = []
      cancelID.path = navigation.path + [AnyHashable(unscoped)]
    }
    return cancelID
  }
}

extension _EffectRegistry {
  /// The registry of cancellation ids used outside any effect.
  static let outsideEffects = _EffectRegistry()
}

/// The cancellable work running outside any store (``withTaskCancellation(id:cancelInFlight:operation:)``
/// and standalone effects), for tests of cancellation: TCA's `_cancellationCancellables`, under
/// the same SPI.
///
/// ```swift
/// @_spi(Internals) import Architecture
/// XCTAssertEqual(_cancellationCancellables.count, 0)
/// ```
@_spi(Internals)
public var _cancellationCancellables: _CancellationCancellables { _CancellationCancellables() }

/// A view of the cancellable work running outside any store.
@_spi(Internals)
public struct _CancellationCancellables: Sendable {
  /// The number of tasks registered under a cancellation id, running or cancelled and not yet
  /// finished.
  public var count: Int {
    _EffectRegistry.outsideEffects.count
  }
}
