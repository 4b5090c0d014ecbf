extension Effect {
  /// An effect as one operation, TCA's view of it: nothing, or async work that sends actions.
  ///
  /// A store never needs it; tests of effect code do, to run an effect by hand:
  ///
  /// ```swift
  /// if case .run(_, _, let work) = effect.operation {
  ///   await work(Send { actions.append($0) })
  /// }
  /// ```
  public enum Operation: Sendable {
    /// The effect does nothing.
    case none
    /// The effect runs work that may send actions; merged and concatenated effects are fused
    /// into one such operation, as in TCA.
    case run(
      name: String? = nil,
      priority: TaskPriority? = nil,
      operation: @Sendable (_ send: Send<Action>) async -> Void
    )
  }

  /// This effect as one operation: `.none`, or one `.run` whose work does everything the effect
  /// does — sends its actions, runs its work (merged work at the same time, concatenated work in
  /// order), honours its cancellation ids and debounces — and returns once it is all done.
  public var operation: Operation {
    if self.isNone { return .none }
    let operation = self._operation
    return .run { send in await operation._runAlone(send: send) }
  }

  /// The actions this effect sends when run on its own, outside any store.
  ///
  /// ```swift
  /// for await action in effect.actions {
  ///   print(action)
  /// }
  /// ```
  ///
  /// The stream ends when the effect is done; ending its iteration early cancels the effect.
  /// Cancellation ids act in the process-wide space of code outside stores (where
  /// `Task.cancel(id:)` from the test reaches them).
  public var actions: AsyncStream<Action> {
    let operation = self._operation
    return AsyncStream { continuation in
      let task = Task {
        await operation._runAlone(
          send: Send(_isolated: { action in continuation.yield(action) }))
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}

extension _Operation {
  /// Runs the operation outside any store and returns once it is done: what ``Effect/actions``
  /// and ``Effect/operation`` do.
  ///
  /// Cancellation works as in a store: `.cancellable` tags the work below it with its id
  /// (cancelling what already runs under it first when asked to), and each piece of async work
  /// runs in a task registered under the ids above it, in the registry of code outside effects
  /// (the one `withTaskCancellation(id:)` and `Task.cancel(id:)` use there). So an id never
  /// cancels the work it encloses.
  func _runAlone(send: Send<Action>, ids: [_CancelID] = []) async {
    switch self {
    case .none:
      return
    case .send(let action):
      await send(action.value)
    case .run(_, let dependencies, let body):
      let work: @Sendable () async -> Void = {
        if let dependencies {
          await DependencyValues.$current.withValue(dependencies.values) { await body(send) }
        } else {
          await body(send)
        }
      }
      if ids.isEmpty {
        await work()
      } else {
        await _runRegistered(ids: ids, in: .outsideEffects, work)
      }
    case .merge(let operations):
      await withTaskGroup(of: Void.self) { group in
        for operation in operations {
          group.addTask { await operation._runAlone(send: send, ids: ids) }
        }
      }
    case .concatenate(let operations):
      for operation in operations {
        guard !Task.isCancelled else { return }
        await operation._runAlone(send: send, ids: ids)
      }
    case .cancellable(let id, let cancelInFlight, let operation):
      if cancelInFlight { _EffectRegistry.outsideEffects.cancel(id: id) }
      await operation._runAlone(send: send, ids: ids + [id])
    case .cancel(let id):
      _EffectRegistry.outsideEffects.cancel(id: id)
    case .debounce(let id, let duration, let clock, let operation):
      let registry = _EffectRegistry.outsideEffects
      registry.cancel(id: id)
      await _runRegistered(ids: ids + [id], in: registry) {
        guard (try? await clock.sleep(for: duration)) != nil, !Task.isCancelled else { return }
        await operation._runAlone(send: send)
      }
    }
  }
}

/// Runs work in a task registered under ids, so that cancelling one of them cancels it, and
/// waits for it; cancelling the waiting task cancels the work too.
private func _runRegistered(
  ids: [_CancelID], in registry: _EffectRegistry, _ work: @escaping @Sendable () async -> Void
) async {
  let group = _EffectGroup(registry: registry)
  let (key, taskExecutor) = registry.begin(ids: ids, group: group)
  let context = _EffectContext(registry: registry, group: group, ids: ids)
  let task = Task(executorPreference: taskExecutor) {
    await _EffectContext.$current.withValue(context) { await work() }
    registry.finish(key)
  }
  registry.attach(key, task: task)
  await withTaskCancellationHandler {
    await task.value
  } onCancel: {
    task.cancel()
  }
}
