/// What a ``TestStore`` learns from the store it drives: the state right after the action it
/// sent, the actions effects sent back (with the state after each), and which of its sends still
/// have effects running. Shared between the test's task and the store's executor (where the
/// ``_TestReducer`` records), hence the lock.
///
/// `@unchecked Sendable` although `State` and `Action` need not be `Sendable` (as in TCA): every
/// stored property but `storage` is immutable, and `storage` is only touched inside its lock.
/// The states and actions it holds are values copied in by the store's executor and copied out
/// by the test's task; neither side keeps mutating a copy the other reads. (A `State` that holds
/// a mutable class instance and mutates it in place would be shared by those copies; TCA's
/// equality-based assertions already rule such state out.)
final class _TestStoreRuntime<State, Action>: _TrackedEffects, @unchecked Sendable {
  /// An action an effect fed back into the store, and the state after it was reduced.
  struct Received {
    let action: Action
    let state: State
    /// The index of the reduce that produced `state` (see `_SharedChangeTracker`).
    let index: Int
  }

  /// The effects started by one `send` of the test (including those of the actions they fed
  /// back): one ``StoreTask`` group.
  struct Effects {
    let id: Int
    let task: StoreTask
    let location: _SourceLocation
    let action: Action
  }

  private struct Storage {
    var dependencies: DependencyValues
    var received: [Received] = []
    var isSending = false
    var sent: (state: State, index: Int)?
    var running: [Int: Effects] = [:]
    var nextID = 0
    /// The state after the last action the store reduced (sent or received), and its index.
    var latest: (state: State, index: Int)?
  }

  private let storage: _Lock<Storage>
  /// The changes the feature makes to shared state, and the count of reduces.
  let sharedChanges: _SharedChangeTracker

  init(dependencies: DependencyValues, sharedChanges: _SharedChangeTracker) {
    self.storage = _Lock(Storage(dependencies: dependencies))
    self.sharedChanges = sharedChanges
  }

  /// The dependencies reducers and newly started effects use (a test may change them).
  var dependencies: DependencyValues {
    get { self.storage.withLock { $0.dependencies } }
    set { self.storage.withLock { $0.dependencies = newValue } }
  }

  // MARK: - Reduced actions

  /// Called by ``_TestReducer`` after each reduce, on the store's executor.
  func didReduce(_ action: Action, state: State) {
    let index = self.sharedChanges.didReduce()
    self.storage.withLock { storage in
      storage.latest = (state, index)
      if storage.isSending && storage.sent == nil {
        storage.sent = (state, index)
      } else {
        storage.received.append(Received(action: action, state: state, index: index))
      }
    }
  }

  /// Marks the start of a `send` (the next reduce is the sent action) and takes the actions
  /// received before it.
  func beginSend() -> [Received] {
    self.storage.withLock { storage in
      storage.isSending = true
      storage.sent = nil
      defer { storage.received = [] }
      return storage.received
    }
  }

  /// Ends a `send` and returns the state right after the sent action, and its index.
  func endSend() -> (state: State, index: Int)? {
    self.storage.withLock { storage in
      storage.isSending = false
      defer { storage.sent = nil }
      return storage.sent
    }
  }

  var hasReceived: Bool { self.storage.withLock { !$0.received.isEmpty } }

  /// The actions received and not yet asserted, left in place.
  var receivedActions: [Action] { self.storage.withLock { $0.received.map(\.action) } }

  /// The state after the last action the store reduced, and its index, if it reduced any.
  var latest: (state: State, index: Int)? { self.storage.withLock { $0.latest } }

  func receivedContains(where predicate: (Action) -> Bool) -> Bool {
    self.storage.withLock { $0.received.contains { predicate($0.action) } }
  }

  func popFirstReceived() -> Received? {
    self.storage.withLock { $0.received.isEmpty ? nil : $0.received.removeFirst() }
  }

  func takeReceived() -> [Received] {
    self.storage.withLock { storage in
      defer { storage.received = [] }
      return storage.received
    }
  }

  // MARK: - Effects in flight

  /// Tracks the effects of a send until they finish.
  func track(_ task: StoreTask, action: Action, location: _SourceLocation) -> Int? {
    guard task.group != nil, !task._isFinished else { return nil }
    return self.storage.withLock { storage -> Int in
      defer { storage.nextID += 1 }
      storage.running[storage.nextID] = Effects(
        id: storage.nextID, task: task, location: location, action: action)
      return storage.nextID
    }
  }

  /// Whether the effects of a tracked send are still running: exact, from the count of the
  /// group's running tasks, which each task decrements as its last step.
  func isRunning(_ id: Int) -> Bool {
    self.storage.withLock { storage in
      guard let effects = storage.running[id] else { return false }
      if effects.task._isFinished {
        storage.running[id] = nil
        return false
      }
      return true
    }
  }

  /// The sends whose effects are still running, in the order they were sent.
  var runningEffects: [Effects] {
    self.storage.withLock { storage in
      storage.running = storage.running.filter { !$0.value.task._isFinished }
      return storage.running.values.sorted { $0.id < $1.id }
    }
  }

  /// Stops tracking effects (when they are skipped or the test ends).
  func forget(_ effects: [Effects]) {
    self.storage.withLock { storage in
      for effect in effects { storage.running[effect.id] = nil }
    }
  }

  func cancelRunningEffects() {
    let running = self.runningEffects
    self.forget(running)
    // Not awaited: the caller may be one of them (the effect that dismisses the feature).
    for effect in running { effect.task.cancel() }
  }
}

/// The effects of a test store's sends, as seen by a ``TestStoreTask``.
protocol _TrackedEffects: AnyObject, Sendable {
  /// Whether the effects of a tracked send are still running.
  func isRunning(_ id: Int) -> Bool

  /// Cancels every running effect and stops tracking it, without reporting it (the feature at
  /// the root dismissed itself).
  func cancelRunningEffects()
}

/// The reducer a ``TestStore`` runs: the feature's reducer, run with the test store's current
/// dependencies, recording every reduced action and state, and making the effects it returns run
/// with those dependencies too (so `store.dependencies` changes made mid-test apply to effects
/// started afterwards).
struct _TestReducer<State, Action>: Reducer {
  typealias Body = Never

  let base: _ReduceFunction<State, Action>
  let runtime: _TestStoreRuntime<State, Action>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let dependencies = self.runtime.dependencies
    // Both the task-local and the reduce context (what `@Dependency` reads in a reducer, and
    // what the effects it creates capture).
    let effect = DependencyValues.$current.withValue(dependencies) {
      _ReduceContext.with(_DependencyBox(dependencies)) {
        self.base(&state, action)
      }
    }
    self.runtime.didReduce(action, state: state)
    if effect.isNone { return effect }
    return Effect(
      operation: effect._operation._running(
        with: dependencies, sendLocation: _TestStoreContext.sendLocation))
  }
}

extension _Operation {
  /// The same effect tree, with the work of every `.run` wrapped to run with `dependencies` and
  /// in the context of the test store's `send` it descends from.
  ///
  /// Exhaustive over the operations on purpose: a new kind of operation must decide here how it
  /// gets its dependencies in a test store.
  func _running(
    with dependencies: DependencyValues, sendLocation: _SourceLocation?
  ) -> _Operation {
    switch self {
    case .none, .send, .cancel:
      return self
    case .run(let priority, let captured, let body):
      // Work created in the reducer keeps the dependencies it captured there (the test store's,
      // plus any overrides around the child that created it).
      return .run(priority, captured ?? _DependencyBox(dependencies)) { send in
        await _TestStoreContext.$sendLocation.withValue(sendLocation) {
          await body(send)
        }
      }
    case .merge(let operations):
      return .merge(operations.map { $0._running(with: dependencies, sendLocation: sendLocation) })
    case .concatenate(let operations):
      return .concatenate(
        operations.map { $0._running(with: dependencies, sendLocation: sendLocation) })
    case .cancellable(let id, let cancelInFlight, let operation):
      return .cancellable(
        id, cancelInFlight: cancelInFlight,
        operation._running(with: dependencies, sendLocation: sendLocation))
    case .debounce(let id, let duration, let clock, let operation):
      return .debounce(
        id, duration, clock, operation._running(with: dependencies, sendLocation: sendLocation))
    }
  }
}

/// What a test store's `send` learns from the store: the actions received before it, the
/// state before and right after the action, and the task of its effects.
struct _TestSendResult<State, Action> {
  let pending: [_TestStoreRuntime<State, Action>.Received]
  let before: State
  let after: State
  /// The index of the reduce of the sent action.
  let index: Int
  let task: StoreTask
}

extension StoreActor {
  /// Sends an action for a test store: atomically takes the actions received before it, and
  /// returns the state before and right after the action (before the actions it sends back with
  /// `.send` effects, which are recorded as received).
  ///
  /// The action and the result cross between the test's task and the store's executor in
  /// `_UncheckedSendable`: the test hands over its copy of the action and keeps none, and the
  /// states returned are copies the store no longer touches (see `_TestStoreRuntime`).
  func _testSend(
    _ action: _UncheckedSendable<Action>,
    runtime: _TestStoreRuntime<State, Action>
  ) -> _UncheckedSendable<_TestSendResult<State, Action>> {
    let pending = runtime.beginSend()
    let before = self.core.state
    let task = self.core.send(action.value)
    let after = runtime.endSend() ?? (self.core.state, runtime.sharedChanges.reduceCount)
    return _UncheckedSendable(
      _TestSendResult(
        pending: pending, before: before, after: after.state, index: after.index, task: task))
  }

  /// The number of effect tasks running in this store (exact, lock-based).
  nonisolated var _effectCount: Int {
    self.core.root.registry.count
  }
}
