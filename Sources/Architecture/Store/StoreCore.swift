/// What a root store and every store scoped from it share: the count of reduced actions, the
/// observers, and the effects in flight.
///
/// `@unchecked Sendable`: every mutable property is only touched from isolated methods of
/// `Store`s that share one serial executor (scoped stores reuse the root's executor), so
/// accesses are serialized by that executor. It is handed from a parent store to its scoped
/// child, which runs on the same executor.
final class _StoreRoot: @unchecked Sendable {
  /// Incremented after every action the root reduces.
  var version: UInt64 = 0
  var nextObserverID: UInt64 = 0
  var stateWaiters: [UInt64: UnsafeContinuation<Void, Never>] = [:]
  var observers: [UInt64: () -> Void] = [:]
  let registry = _EffectRegistry()

  @inline(__always)
  func didReduce() {
    self.version &+= 1
    if !self.stateWaiters.isEmpty {
      let waiters = self.stateWaiters
      self.stateWaiters = [:]
      for waiter in waiters.values { waiter.resume() }
    }
    if !self.observers.isEmpty {
      for observer in self.observers.values { observer() }
    }
  }

  func makeID() -> UInt64 {
    defer { self.nextObserverID &+= 1 }
    return self.nextObserverID
  }
}

/// The runtime behind a ``Store``: a root core that owns the state and runs the reducer, or a
/// scoped core that reads and sends through its parent.
///
/// `@unchecked Sendable` for the reason given on `_StoreRoot`: confined to the stores' shared
/// serial executor.
class _Core<State, Action>: @unchecked Sendable {
  let root: _StoreRoot

  init(root: _StoreRoot) {
    self.root = root
  }

  var state: State { fatalError("abstract") }

  func send(_ action: Action) -> StoreTask { fatalError("abstract") }
}

final class _ScopedCore<ParentState, ParentAction, State, Action>: _Core<State, Action>,
  @unchecked Sendable
{
  let parent: _Core<ParentState, ParentAction>
  let toState: KeyPath<ParentState, State>
  let embed: @Sendable (Action) -> ParentAction

  init(
    parent: _Core<ParentState, ParentAction>,
    toState: KeyPath<ParentState, State>,
    embed: @escaping @Sendable (Action) -> ParentAction
  ) {
    self.parent = parent
    self.toState = toState
    self.embed = embed
    super.init(root: parent.root)
  }

  override var state: State {
    self.parent.state[keyPath: self.toState]
  }

  override func send(_ action: Action) -> StoreTask {
    self.parent.send(self.embed(action))
  }
}

final class _RootCore<State, Action>: _Core<State, Action>, @unchecked Sendable {
  var _state: State
  let reduce: _ReduceFunction<State, Action>
  let dependencies: DependencyValues
  weak var store: Store<State, Action>?

  /// Whether an action is being processed; sends made meanwhile are queued.
  var isSending = false
  var queue: [(action: Action, group: _EffectGroup?, fromEffect: Bool)] = []
  var queueHead = 0

  /// Called after an action sent by an effect has been reduced (for a test store).
  var receivedActionObserver: ((Action, State) -> Void)?

  init(
    state: State,
    reduce: @escaping _ReduceFunction<State, Action>,
    dependencies: DependencyValues,
    root: _StoreRoot
  ) {
    self._state = state
    self.reduce = reduce
    self.dependencies = dependencies
    super.init(root: root)
  }

  override var state: State { self._state }

  override func send(_ action: Action) -> StoreTask {
    StoreTask(self.send(action, group: nil, fromEffect: false))
  }

  /// Reduces an action now, or queues it if an action is being processed; then processes the
  /// queue. Returns the group of effects the action started, if any.
  func send(_ action: Action, group: _EffectGroup?, fromEffect: Bool) -> _EffectGroup? {
    if self.isSending {
      // Re-entrant: the action gets its own group now, filled when it is processed (before the
      // outer send returns).
      let group = group ?? _EffectGroup(registry: self.root.registry)
      self.queue.append((action, group, fromEffect))
      return group
    }
    self.isSending = true
    defer { self.isSending = false }
    var group = group
    self.process(action, group: &group, fromEffect: fromEffect)
    if self.queueHead < self.queue.count { self.drain() }
    return group
  }

  /// Starts an effect from outside a reduce (the drivers of concatenated and debounced
  /// effects), processing the actions it sends synchronously.
  func start(_ operation: _Operation<Action>, group: _EffectGroup, ids: [_CancelID]) {
    if self.isSending {
      self.startOperation(operation, group: group, ids: ids)
      return
    }
    self.isSending = true
    defer { self.isSending = false }
    self.startOperation(operation, group: group, ids: ids)
    if self.queueHead < self.queue.count { self.drain() }
  }

  @inline(__always)
  private func process(_ action: Action, group: inout _EffectGroup?, fromEffect: Bool) {
    let effect = DependencyValues.$current.withValue(self.dependencies) {
      self.reduce(&self._state, action)
    }
    self.root.didReduce()
    if fromEffect, let receivedActionObserver { receivedActionObserver(action, self._state) }
    if effect.isNone { return }
    let effectGroup = group ?? _EffectGroup(registry: self.root.registry)
    group = effectGroup
    self.startOperation(effect.operation, group: effectGroup, ids: [])
  }

  private func drain() {
    while self.queueHead < self.queue.count {
      let (action, group, fromEffect) = self.queue[self.queueHead]
      self.queueHead += 1
      var effectGroup = group
      self.process(action, group: &effectGroup, fromEffect: fromEffect)
    }
    self.queue.removeAll(keepingCapacity: true)
    self.queueHead = 0
  }

  // MARK: - Running effects

  private func startOperation(
    _ operation: _Operation<Action>, group: _EffectGroup, ids: [_CancelID]
  ) {
    switch operation {
    case .none:
      return
    case let .send(action):
      self.queue.append((action.value, group, true))
    case let .run(priority, body):
      self.spawn(priority: priority, ids: ids, group: group, body)
    case let .merge(operations):
      for operation in operations { self.startOperation(operation, group: group, ids: ids) }
    case let .concatenate(operations):
      if operation.isSynchronous {
        for operation in operations { self.startOperation(operation, group: group, ids: ids) }
        return
      }
      self.spawn(priority: nil, ids: ids, group: group) { [weak store = self.store] _ in
        for operation in operations {
          guard !Task.isCancelled, let store else { return }
          await store._runToCompletion(operation, ids: ids)
        }
      }
    case let .cancellable(id, cancelInFlight, operation):
      if cancelInFlight { self.root.registry.cancel(id: id) }
      self.startOperation(operation, group: group, ids: ids + [id])
    case let .cancel(id):
      self.root.registry.cancel(id: id)
    case let .debounce(id, duration, clock, operation):
      self.root.registry.cancel(id: id)
      let ids = ids + [id]
      self.spawn(priority: nil, ids: ids, group: group) { [weak store = self.store] _ in
        do {
          try await clock.sleep(for: duration)
        } catch {
          return
        }
        guard !Task.isCancelled, let store else { return }
        await store._runToCompletion(operation, ids: ids)
      }
    }
  }

  private func spawn(
    priority: TaskPriority?,
    ids: [_CancelID],
    group: _EffectGroup,
    _ body: @escaping @Sendable (Send<Action>) async -> Void
  ) {
    let registry = self.root.registry
    let key = registry.begin(ids: ids, group: group)
    let dependencies = self.dependencies
    let send = Send<Action> { [weak store = self.store] action in
      await store?._receive(action, group: group)
    }
    let task = Task(priority: priority) {
      await DependencyValues.$current.withValue(dependencies) {
        await body(send)
      }
      registry.finish(key)
    }
    registry.attach(key, task: task)
  }
}
