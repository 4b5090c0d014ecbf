/// What a root store and every store scoped from it share: the count of reduced actions, the
/// observers, and the effects in flight.
///
/// `@unchecked Sendable`: every mutable property is only touched from isolated methods of
/// `Store`s that share one serial executor (scoped stores reuse the root's executor), so
/// accesses are serialized by that executor. It is handed from a parent store to its scoped
/// child, which runs on the same executor.
@usableFromInline
final class _StoreRoot: @unchecked Sendable {
  // `@exclusivity(unchecked)` on the hot properties here and in `_RootCore`: they are only
  // accessed on the store's serial executor, and never while an access to the same property
  // is in progress (observers run after the reduce, re-entrant sends only queue), so the
  // dynamic exclusivity checks (a third of a send's cost) can only ever pass.

  /// Incremented after every action the root reduces.
  @exclusivity(unchecked) @usableFromInline var version: UInt64 = 0
  var nextObserverID: UInt64 = 0
  @exclusivity(unchecked) @usableFromInline
  var stateWaiters: [UInt64: UnsafeContinuation<Void, Never>] = [:]
  @exclusivity(unchecked) @usableFromInline var observers: [UInt64: () -> Void] = [:]
  let registry = _EffectRegistry()

  init() {}

  @inlinable
  func didReduce() {
    self.version &+= 1
    if !self.stateWaiters.isEmpty || !self.observers.isEmpty { self.notify() }
  }

  @usableFromInline
  func notify() {
    if !self.stateWaiters.isEmpty {
      let waiters = self.stateWaiters
      self.stateWaiters = [:]
      for waiter in waiters.values { waiter.resume() }
    }
    if !self.observers.isEmpty {
      for observer in self.observers.values { observer() }
    }
  }

  @usableFromInline
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
@usableFromInline
class _Core<State, Action>: @unchecked Sendable {
  @usableFromInline let root: _StoreRoot

  init(root: _StoreRoot) {
    self.root = root
  }

  @usableFromInline var state: State { fatalError("abstract") }

  @usableFromInline func send(_ action: Action) -> StoreTask { fatalError("abstract") }
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

@usableFromInline
final class _RootCore<State, Action>: _Core<State, Action>, @unchecked Sendable {
  @exclusivity(unchecked) @usableFromInline var _state: State
  @usableFromInline let reduce: _ReduceFunction<State, Action>
  @usableFromInline let dependencies: DependencyValues
  @usableFromInline let dependencyBox: _DependencyBox
  weak var store: Store<State, Action>?

  /// Whether an action is being processed; sends made meanwhile are queued.
  @exclusivity(unchecked) @usableFromInline var isSending = false
  var queue: [(action: Action, group: _EffectGroup?, fromEffect: Bool)] = []
  var queueHead = 0
  /// `queue.count - queueHead`, kept apart so the send path touches no generic array.
  @exclusivity(unchecked) @usableFromInline var queuedCount = 0

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
    self.dependencyBox = _DependencyBox(dependencies)
    super.init(root: root)
  }

  @usableFromInline override var state: State { self._state }

  @usableFromInline override func send(_ action: Action) -> StoreTask {
    StoreTask(self.send(action, group: nil, fromEffect: false))
  }

  /// Reduces an action now, or queues it if an action is being processed; then processes the
  /// queue. Returns the group of effects the action started, if any.
  @inlinable
  func send(_ action: Action, group: _EffectGroup?, fromEffect: Bool) -> _EffectGroup? {
    if self.isSending { return self.enqueue(action, group: group, fromEffect: fromEffect) }
    self.isSending = true
    defer { self.isSending = false }
    var group = group
    self.process(action, group: &group, fromEffect: fromEffect)
    if self.queuedCount > 0 { self.drain() }
    return group
  }

  /// Queues a re-entrant send. The action gets its own group now, filled when it is processed
  /// (before the outer send returns).
  @usableFromInline
  func enqueue(_ action: Action, group: _EffectGroup?, fromEffect: Bool) -> _EffectGroup {
    let group = group ?? _EffectGroup(registry: self.root.registry)
    self.queue.append((action, group, fromEffect))
    self.queuedCount += 1
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
    if self.queuedCount > 0 { self.drain() }
  }

  @inlinable
  func process(_ action: Action, group: inout _EffectGroup?, fromEffect: Bool) {
    let effect = _ReduceContext.with(self.dependencyBox) {
      self.reduce(&self._state, action)
    }
    self.root.didReduce()
    if fromEffect { self.didReceive(action) }
    if effect.isNone { return }
    self.start(effect, group: &group)
  }

  @usableFromInline
  func didReceive(_ action: Action) {
    if let receivedActionObserver { receivedActionObserver(action, self._state) }
  }

  @usableFromInline
  func start(_ effect: Effect<Action>, group: inout _EffectGroup?) {
    let effectGroup = group ?? _EffectGroup(registry: self.root.registry)
    group = effectGroup
    self.startOperation(effect.operation, group: effectGroup, ids: [])
  }

  @usableFromInline
  func drain() {
    while self.queueHead < self.queue.count {
      let (action, group, fromEffect) = self.queue[self.queueHead]
      self.queueHead += 1
      self.queuedCount -= 1
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
    case .send(let action):
      self.queue.append((action.value, group, true))
      self.queuedCount += 1
    case .run(let priority, let dependencies, let body):
      self.spawn(
        priority: priority, dependencies: dependencies?.values, ids: ids, group: group, body)
    case .merge(let operations):
      for operation in operations { self.startOperation(operation, group: group, ids: ids) }
    case .concatenate(let operations):
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
    case .cancellable(let id, let cancelInFlight, let operation):
      if cancelInFlight { self.root.registry.cancel(id: id) }
      self.startOperation(operation, group: group, ids: ids + [id])
    case .cancel(let id):
      self.root.registry.cancel(id: id)
    case .debounce(let id, let duration, let clock, let operation):
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

  /// Starts an effect's task, with `dependencies` (those in force where the effect was
  /// created) or else the store's, preferring the registry's task executor if it has one (a
  /// test store's serial executor).
  private func spawn(
    priority: TaskPriority?,
    dependencies: DependencyValues? = nil,
    ids: [_CancelID],
    group: _EffectGroup,
    _ body: @escaping @Sendable (Send<Action>) async -> Void
  ) {
    let registry = self.root.registry
    let (key, taskExecutor) = registry.begin(ids: ids, group: group)
    let dependencies = dependencies ?? self.dependencies
    let send = Send<Action> { [weak store = self.store] action in
      await store?._receive(action, group: group)
    }
    let context = _EffectContext(registry: registry, group: group, ids: ids)
    let task = Task(executorPreference: taskExecutor, priority: priority) {
      await _EffectContext.$current.withValue(context) {
        await DependencyValues.$current.withValue(dependencies) {
          await body(send)
        }
      }
      registry.finish(key)
    }
    registry.attach(key, task: task)
  }
}
