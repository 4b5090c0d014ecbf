/// A handle on the effects started by one ``Store/send(_:)``.
///
/// ```swift
/// await store.send(.refresh).finish()   // waits for the refresh effects, and what they sent
/// let task = store.send(.startTimer)
/// task.cancel()                         // cancels them
/// ```
public struct StoreTask: Hashable, Sendable {
  @usableFromInline let group: _EffectGroup?

  @usableFromInline
  init(_ group: _EffectGroup?) {
    self.group = group
  }

  /// A handle on a task, as on the effects of a send: cancelling it cancels the task, and
  /// finishing waits for it.
  ///
  /// - Parameter task: The task, or `nil` for a handle on nothing (already finished).
  init(task: Task<Void, Never>?) {
    guard let task else {
      self.init(nil)
      return
    }
    // The task joins a group of its own, in a registry of its own, exactly as an effect task
    // does: the group counts it until a watcher sees it end, and cancelling the group cancels it.
    let registry = _EffectRegistry()
    let group = _EffectGroup(registry: registry)
    let (key, _) = registry.begin(ids: [], group: group)
    registry.attach(key, task: task)
    Task {
      await task.value
      registry.finish(key)
    }
    self.init(group)
  }

  /// Cancels the effects of the action (and of the actions they sent).
  public func cancel() {
    self.group?.cancel()
  }

  /// Waits until the effects of the action, and of the actions they sent, have finished.
  /// Cancelling the waiting task cancels the effects.
  public func finish() async {
    guard let group = self.group else { return }
    await withTaskCancellationHandler {
      await group.wait()
    } onCancel: {
      group.cancel()
    }
  }

  /// Whether every effect of the action (and of the actions they sent) has finished; for a
  /// test store's "an effect is still running" check at the `send` that started it.
  var _isFinished: Bool {
    (self.group?.runningCount ?? 0) == 0
  }

  /// Whether the effects were cancelled. An action that started no effect counts as cancelled,
  /// as in TCA.
  public var isCancelled: Bool {
    self.group?.isCancelled ?? true
  }

  /// A task that finishes when the effects have finished, and whose cancellation cancels them:
  /// what TCA's stores return from the `Task`-typed `send` (`await store.send(.tap)?.value`).
  /// `nil` when the action started no effect.
  var task: Task<Void, Never>? {
    guard let group = self.group, group.runningCount > 0 else { return nil }
    return Task {
      await withTaskCancellationHandler {
        await group.wait()
      } onCancel: {
        group.cancel()
      }
    }
  }

  /// Compares task identities.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.group === rhs.group
  }

  /// Hashes the task identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.group.map(ObjectIdentifier.init))
  }
}
