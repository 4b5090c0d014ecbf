/// A store that is an actor, running on a serial executor of your choosing: the store of a
/// program with its own event loop, such as the host daemon, where ``Store`` runs on the main
/// actor.
///
/// ```swift
/// let store = StoreActor(initialState: Counter.State(), executor: loop) { Counter() }
/// // from a job of `loop`, with no hop:
/// store.assumeIsolated { $0.send(.incrementButtonTapped) }
/// ```
///
/// It has ``Store``'s runtime — the same core: reducer, effects, cancellation, scoping,
/// observers — and differs only in isolation:
///
/// - Given an `executor` (a `SerialExecutor`), it runs on it. The host daemon passes its I/O
///   event loop, so that actions read from a socket are reduced right there, with no hop:
///   `store.assumeIsolated { $0.send(action) }` from a job of that executor.
/// - Otherwise it runs on the executor of a private default actor: an uncontended call from
///   another task costs an actor hop (~55 ns here), not a `@MainActor` hop (~15 µs on Linux).
///
/// Scoped stores (``scope(state:action:)-(KeyPath<State,CS>,CaseKeyPath<Action,CA>)``) are
/// store actors that share the root's executor. They keep no copy of the state: a child's
/// ``state`` is read from the root's state through the scoping key path at every read, and an
/// action sent to a child is embedded and reduced by the root's reducer.
///
/// Every access to the state and the reducer happens in an isolated method, so the store is
/// safe to use from any number of concurrent tasks: their sends are serialized by the executor.
/// Actions sent while an action is being processed (by an observer, or by `.send` effects) are
/// queued and reduced in order, right after it, before the outer `send` returns.
///
/// ## Effects and dependencies
///
/// As for ``Store``: effects run in tasks on the Swift concurrency runtime, the actions they
/// send hop back onto the store's executor, and dependencies are captured when the store is
/// created and re-established around every reduce.
///
/// ## Performance
///
/// The send path is specialized into the caller's module (`@inlinable`) and touches no generic
/// metadata, no task-local and no lock (`swift run -c release ArchitectureBenchmarks`).
public final actor StoreActor<State, Action> {
  nonisolated let executorBox: _StoreExecutor
  @usableFromInline let core: _Core<State, Action>
  /// The same object as `core` when this is a root store: the send path calls it directly.
  @usableFromInline let rootCore: _RootCore<State, Action>?

  /// The executor the store (and every store scoped from it) runs on.
  nonisolated public var unownedExecutor: UnownedSerialExecutor {
    self.executorBox.unownedExecutor
  }

  /// Creates a root store.
  ///
  /// ```swift
  /// let store = StoreActor(initialState: Feature.State()) {
  ///   Feature()
  /// } withDependencies: {
  ///   $0.clock = TestClock()
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state to start from (computed with the store's dependencies).
  ///   - reducer: The feature's reducer; its `body` is evaluated once, here.
  ///   - prepare: Overrides dependencies for this store, its reducer and its effects.
  ///   - executor: The serial executor to run on; `nil` for a private one.
  public init<R: Reducer>(
    initialState: @autoclosure () -> R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepare: ((inout DependencyValues) -> Void)? = nil,
    executor: (any SerialExecutor)? = nil
  ) where R.State == State, R.Action == Action {
    let executorBox = _StoreExecutor(executor)
    let (state, reduce, dependencies) = _makeRoot(initialState, reducer, prepare)
    let core = _RootCore(
      state: state, reduce: reduce, dependencies: dependencies, isolation: executorBox.actor)
    self.executorBox = executorBox
    self.core = core
    self.rootCore = core
  }

  init(core: _Core<State, Action>, executorBox: _StoreExecutor) {
    self.core = core
    self.rootCore = core as? _RootCore<State, Action>
    self.executorBox = executorBox
  }

  /// Sends an action: reduces it (after any action being processed) and starts its effects.
  ///
  /// From the store's own executor (e.g. the host's I/O thread) call it with no hop:
  /// `store.assumeIsolated { $0.send(action) }`.
  ///
  /// - Parameter action: The action.
  /// - Returns: A task for the effects the action started.
  @inlinable
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    if let rootCore = self.rootCore {
      return StoreTask(rootCore.send(action, group: nil, fromEffect: false))
    }
    return self.core.send(action)
  }

  /// The current state (a scoped store reads it from its root at each access).
  public var state: State {
    self.core.state
  }

  /// Runs a closure with the current state.
  ///
  /// - Parameter body: Reads the state.
  /// - Returns: What `body` returns.
  public func withState<R>(_ body: (_ state: State) -> R) -> R {
    body(self.core.state)
  }

  /// Derives a store for a part of this one's state and actions.
  ///
  /// ```swift
  /// let counter = await store.scope(state: \.counter, action: \.counter)
  /// await counter.send(.increment)        // reduced by the root as .counter(.increment)
  /// ```
  ///
  /// The child shares this store's executor and keeps no copy of the state.
  ///
  /// - Parameters:
  ///   - toChildState: A key path from this store's state to the child's.
  ///   - toChildAction: A case key path from this store's action to the child's.
  /// - Returns: The child store.
  public func scope<CS, CA>(
    state toChildState: KeyPath<State, CS>,
    action toChildAction: CaseKeyPath<Action, CA>
  ) -> StoreActor<CS, CA> {
    self.scope(state: toChildState, action: AnyCasePath(toChildAction))
  }

  /// Derives a store for a part of this one's state and actions, given a case path value.
  ///
  /// - Parameters:
  ///   - toChildState: A key path from this store's state to the child's.
  ///   - toChildAction: Embeds child actions into this store's actions.
  /// - Returns: The child store.
  public func scope<CS, CA>(
    state toChildState: KeyPath<State, CS>,
    action toChildAction: AnyCasePath<Action, CA>
  ) -> StoreActor<CS, CA> {
    StoreActor<CS, CA>(
      core: _ScopedCore(parent: self.core, toState: toChildState, embed: toChildAction._embed),
      executorBox: self.executorBox
    )
  }

  /// Registers a closure called on the store's executor after every action the root reduces
  /// (including actions sent by effects), with this store's state.
  ///
  /// Unlike ``stateChanges()`` it is synchronous and sees every action: the host uses it to
  /// count revisions. It may send actions; they are queued.
  ///
  /// - Parameter observer: Receives the state after each action.
  /// - Returns: A token for ``removeObserver(_:)``.
  @discardableResult
  public func observe(_ observer: @escaping (State) -> Void) -> StoreObserverID {
    self.core.observe(observer)
  }

  /// Removes an observer registered with ``observe(_:)``.
  public func removeObserver(_ id: StoreObserverID) {
    self.core.removeObserver(id)
  }

  /// The number of effect tasks currently running in this store tree.
  public var effectsInFlight: Int {
    self.core.root.registry.count
  }

  /// The store's state, first as it is now, then after actions change it (see
  /// ``Store/stateChanges()``).
  ///
  /// - Returns: An async sequence of states.
  nonisolated public func stateChanges() -> some AsyncSequence<State, Never> {
    self.core.stateChanges()
  }

  // MARK: - Test support

  /// Calls `observer` after each action sent by an effect (a `.send` effect or `Send`) has
  /// been reduced, with the state it produced: how a test store learns about received actions.
  /// `nil` removes it. Only for root stores.
  func _observeReceivedActions(_ observer: ((Action, State) -> Void)?) {
    self.rootCore?.receivedActionObserver = observer
  }
}

/// The executor of a store actor's tree: a custom serial executor, or a private default actor's;
/// and an actor on that executor, which the core hops to (``_StoreRoot/isolation``).
final class _StoreExecutor: Sendable {
  /// An actor that runs on a given serial executor.
  private actor OnExecutor {
    nonisolated let executor: any SerialExecutor

    init(_ executor: any SerialExecutor) {
      self.executor = executor
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
      self.executor.asUnownedSerialExecutor()
    }
  }

  private actor DefaultExecutor {}

  let unownedExecutor: UnownedSerialExecutor
  /// The actor whose executor the store tree runs on; it keeps a custom executor alive.
  let actor: any Actor

  init(_ custom: (any SerialExecutor)?) {
    if let custom {
      let actor = OnExecutor(custom)
      self.actor = actor
      self.unownedExecutor = actor.unownedExecutor
    } else {
      let actor = DefaultExecutor()
      self.actor = actor
      self.unownedExecutor = actor.unownedExecutor
    }
  }
}

/// Evaluates the initial state and the reducer of a root store with its dependencies (the
/// current ones, with `prepare`'s overrides), as TCA does: a `State.init` that reads a
/// dependency sees the store's value.
func _makeRoot<R: Reducer>(
  _ initialState: () -> R.State,
  _ reducer: () -> R,
  _ prepare: ((inout DependencyValues) -> Void)?
) -> (R.State, _ReduceFunction<R.State, R.Action>, DependencyValues) {
  var dependencies = DependencyValues._effective
  if let prepare {
    DependencyValues.$_isSetting.withValue(true) { prepare(&dependencies) }
  }
  dependencies.prepareForStore()
  return DependencyValues.$current.withValue(dependencies) {
    _ReduceContext.with(_DependencyBox(dependencies)) {
      (initialState(), reducer()._makeReduce(), dependencies)
    }
  }
}
