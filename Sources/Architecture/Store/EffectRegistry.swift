/// The effects in flight in one store tree: their tasks, the cancellation ids they run under
/// and the ``StoreTask`` group each belongs to.
///
/// Lock-protected rather than executor-confined because effect tasks deregister themselves from
/// whatever thread they finish on, and `StoreTask.cancel()` may be called from anywhere.
/// Lock order: registry, then group; tasks are cancelled only after the lock is released
/// (cancellation handlers run synchronously and may take other locks).
final class _EffectRegistry: Sendable {
  struct Entry {
    var task: Task<Void, Never>?
    var ids: [_CancelID]
    let group: _EffectGroup
    var isCancelled: Bool
  }

  struct State {
    var nextKey: UInt64 = 0
    var entries: [UInt64: Entry] = [:]
    var byID: [_CancelID: Set<UInt64>] = [:]
    var taskExecutor: (any TaskExecutor)?
  }

  private let state = _Lock(State())

  /// The number of effect tasks running (or cancelled and not yet finished).
  var count: Int { self.state.withLock { $0.entries.count } }

  /// The executor effect tasks prefer (SE-0417) when they start: a test store's serial
  /// executor, or `nil` for the global concurrent executor.
  var taskExecutor: (any TaskExecutor)? {
    get { self.state.withLock { $0.taskExecutor } }
    set { self.state.withLock { $0.taskExecutor = newValue } }
  }

  /// Reserves an entry before its task exists, so that a task finishing at once is handled.
  /// Returns its key and the executor its task should prefer.
  func begin(
    ids: [_CancelID], group: _EffectGroup
  ) -> (key: UInt64, taskExecutor: (any TaskExecutor)?) {
    group.enter()
    return self.state.withLock { state in
      let key = state.nextKey
      state.nextKey &+= 1
      state.entries[key] = Entry(task: nil, ids: ids, group: group, isCancelled: group.isCancelled)
      for id in ids { state.byID[id, default: []].insert(key) }
      return (key, state.taskExecutor)
    }
  }

  /// Records the task of an entry; cancels it at once if the entry was cancelled meanwhile.
  func attach(_ key: UInt64, task: Task<Void, Never>) {
    let cancelNow = self.state.withLock { state -> Bool in
      guard state.entries[key] != nil else { return false }  // already finished
      state.entries[key]!.task = task
      return state.entries[key]!.isCancelled
    }
    if cancelNow { task.cancel() }
  }

  /// Removes a finished entry.
  func finish(_ key: UInt64) {
    let group = self.state.withLock { state -> _EffectGroup? in
      guard let entry = state.entries.removeValue(forKey: key) else { return nil }
      for id in entry.ids {
        state.byID[id]?.remove(key)
        if state.byID[id]?.isEmpty == true { state.byID[id] = nil }
      }
      return entry.group
    }
    group?.leave()
  }

  /// Cancels the effects running under an id.
  func cancel(id: _CancelID) {
    let tasks = self.state.withLock { state -> [Task<Void, Never>] in
      guard let keys = state.byID.removeValue(forKey: id) else { return [] }
      return keys.compactMap { key in
        state.entries[key]?.isCancelled = true
        return state.entries[key]?.task
      }
    }
    for task in tasks { task.cancel() }
  }

  /// Cancels the effects of a group.
  func cancel(group: _EffectGroup) {
    let tasks = self.state.withLock { state -> [Task<Void, Never>] in
      var tasks: [Task<Void, Never>] = []
      for (key, entry) in state.entries where entry.group === group {
        state.entries[key]!.isCancelled = true
        if let task = entry.task { tasks.append(task) }
      }
      return tasks
    }
    for task in tasks { task.cancel() }
  }

  /// Cancels every effect (when a store is torn down).
  func cancelAll() {
    let tasks = self.state.withLock { state -> [Task<Void, Never>] in
      state.byID = [:]
      return state.entries.keys.compactMap { key in
        state.entries[key]!.isCancelled = true
        return state.entries[key]!.task
      }
    }
    for task in tasks { task.cancel() }
  }
}

/// The effects started because of one `send` (including the effects of the actions those
/// effects send back), awaited and cancelled together through a ``StoreTask``.
@usableFromInline
final class _EffectGroup: Sendable {
  private struct State {
    var count = 0
    var isCancelled = false
    var waiters: [UnsafeContinuation<Void, Never>] = []
  }

  private let state = _Lock(State())
  private let registry: _EffectRegistry

  init(registry: _EffectRegistry) {
    self.registry = registry
  }

  var isCancelled: Bool { self.state.withLock { $0.isCancelled } }

  /// The number of the group's effect tasks still running.
  var runningCount: Int { self.state.withLock { $0.count } }

  func enter() {
    self.state.withLock { $0.count += 1 }
  }

  func leave() {
    let waiters = self.state.withLock { state -> [UnsafeContinuation<Void, Never>] in
      state.count -= 1
      guard state.count == 0 else { return [] }
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Suspends until no effect of the group is running.
  func wait() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let done = self.state.withLock { state -> Bool in
        if state.count == 0 { return true }
        state.waiters.append(continuation)
        return false
      }
      if done { continuation.resume() }
    }
  }

  func cancel() {
    self.state.withLock { $0.isCancelled = true }
    self.registry.cancel(group: self)
  }
}
