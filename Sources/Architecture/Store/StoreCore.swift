/// What a root store and every store scoped from it share: the count of reduced actions, the
/// observers, and the effects in flight.
///
/// `@unchecked Sendable`: every mutable property is only touched on the one serial executor the
/// store tree is confined to (the main actor's for a ``Store``, the actor's for a
/// ``StoreActor``; scoped stores share their root's), so accesses are serialized by that
/// executor. It is handed from a parent store to its scoped child, which runs on the same
/// executor.
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
  /// The actor whose serial executor the store tree is confined to: `MainActor.shared` for a
  /// ``Store``, an actor on the store actor's executor for a ``StoreActor``. Actions sent by
  /// effects, and the waits of `stateChanges()`, hop to it.
  let isolation: any Actor

  init(isolation: any Actor) {
    self.isolation = isolation
  }

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

/// The runtime behind a store: a root core that owns the state and runs the reducer, or a
/// scoped core that reads and sends through its parent.
///
/// One core serves both kinds of store: ``Store`` (the main actor's, TCA's shape) and
/// ``StoreActor`` (an actor on a serial executor of your choosing, the host's). A core tree is
/// confined to one serial executor — the main actor's, or the store actor's — and knows it as
/// ``_StoreRoot/isolation``: the actor whose executor that is, to which the actions effects send
/// back hop. Nothing else in the core depends on which kind of store drives it.
///
/// `@unchecked Sendable` for the reason given on `_StoreRoot`: confined to the stores' shared
/// serial executor.
@usableFromInline
class _Core<State, Action>: @unchecked Sendable {
  @usableFromInline let root: _StoreRoot

  init(root: _StoreRoot) {
    self.root = root
  }

  /// The current state (a scoped core reads it through its parent at each access).
  @usableFromInline var state: State { fatalError("abstract") }

  /// Sends an action (a scoped core embeds it and sends it to its parent).
  @usableFromInline func send(_ action: Action) -> StoreTask { fatalError("abstract") }

  /// Whether this core's state is still there (an optional scope whose state became `nil` is
  /// not); a store whose core is gone ignores actions, as TCA's does.
  var isValid: Bool { true }
}

@usableFromInline
final class _RootCore<State, Action>: _Core<State, Action>, @unchecked Sendable {
  @exclusivity(unchecked) @usableFromInline var _state: State
  @usableFromInline let reduce: _ReduceFunction<State, Action>
  @usableFromInline let dependencies: DependencyValues
  @usableFromInline let dependencyBox: _DependencyBox

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
    isolation: any Actor
  ) {
    self._state = state
    self.reduce = reduce
    self.dependencies = dependencies
    self.dependencyBox = _DependencyBox(dependencies)
    super.init(root: _StoreRoot(isolation: isolation))
  }

  /// The last reference to the store tree is gone (its root store and every scoped store):
  /// its effects are cancelled, as TCA's root store cancels them when it goes away.
  deinit {
    self.root.registry.cancelAll()
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
    self.startOperation(effect._operation, group: effectGroup, ids: [])
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
}
