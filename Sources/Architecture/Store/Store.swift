/// The runtime of a feature: holds its state, reduces the actions sent to it, runs the effects
/// the reducer returns, and can be scoped to child stores — TCA's `Store`, on the main actor.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) {
///   Counter()
/// }
/// store.send(.incrementButtonTapped)          // reduced before `send` returns
/// store.count                                  // 1
/// await store.send(.factButtonTapped).finish() // waits for the effect and what it sent
/// let counter = store.scope(state: \.counter, action: \.counter)
/// ```
///
/// As in TCA, `Store` is a `@MainActor` class: ``send(_:)`` is synchronous and returns a
/// ``StoreTask`` for the effects the action started (`store.send(.a)` needs no `await`), the
/// state is read with ``withState(_:)``, ``state`` or dynamic member lookup (`store.count`), and
/// ``scope(state:action:)-(KeyPath<State,CS>,CaseKeyPath<Action,CA>)`` derives child stores.
///
/// ## One core, two isolations
///
/// A store's runtime — the state, the reducer's send path, the queue of re-entrant actions, the
/// effects and their cancellation, the observers — is one core, shared with ``StoreActor``: the
/// store of a program with its own event loop (the host daemon), which is an actor on a serial
/// executor of its choosing. The core is confined to one serial executor and knows the actor
/// whose executor it is: the main actor here, the store actor's there. The actions effects send
/// back hop to that actor, and that is the only thing that differs. So a feature behaves the
/// same in a `Store` on the main actor, in a ``StoreActor`` on the host's I/O thread, and in a
/// ``TestStore`` (which drives a ``StoreActor`` on an executor of its own).
///
/// Scoped stores share the root's core: they keep no copy of the state, a child's state is read
/// from the root's through the scoping key path at every read, and an action sent to a child is
/// embedded and reduced by the root's reducer, so parent and child are consistent at every read
/// in both directions. Actions sent while an action is being processed (by an observer, or by
/// `.send` effects) are queued and reduced in order, right after it, before the outer `send`
/// returns.
///
/// ## Effects and dependencies
///
/// Effects run in tasks on the Swift concurrency runtime; the actions they send hop back onto
/// the main actor and are reduced in the order they are sent. The store captures the current
/// dependencies when it is created (with the `withDependencies` overrides; the initial state
/// and the reducer are computed with them too) and re-establishes those values around every
/// reduce. An effect runs with the values in force where the reducer created it: the store's,
/// with the overrides of any ``Reducer/dependency(_:_:)`` or `withDependencies` around the child
/// that returned it. When the last store of a tree (the root and every store scoped from it)
/// goes away, its effects are cancelled.
///
/// ## Performance
///
/// The send path is specialized into the caller's module (`@inlinable`) and touches no generic
/// metadata, no task-local and no lock (`swift run -c release ArchitectureBenchmarks` measures
/// it from the main actor).
@dynamicMemberLookup
@MainActor
public final class Store<State, Action> {
  @usableFromInline let core: _Core<State, Action>
  /// The same object as `core` when this is a root store: the send path calls it directly.
  @usableFromInline let rootCore: _RootCore<State, Action>?

  /// Creates a root store.
  ///
  /// ```swift
  /// let store = Store(initialState: Feature.State()) {
  ///   Feature()
  /// } withDependencies: {
  ///   $0.continuousClock = TestClock()
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state to start from, computed with the store's dependencies.
  ///   - reducer: The feature's reducer, built with ``ReducerBuilder``; its `body` is
  ///     evaluated once, here.
  ///   - prepareDependencies: Overrides dependencies for this store, its reducer and its
  ///     effects.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    let (state, reduce, dependencies) = _makeRoot(initialState, reducer, prepareDependencies)
    self.init(
      core: _RootCore(
        state: state, reduce: reduce, dependencies: dependencies, isolation: MainActor.shared))
  }

  init(core: _Core<State, Action>) {
    self.core = core
    self.rootCore = core as? _RootCore<State, Action>
  }

  /// Sends an action: reduces it (after any action being processed) and starts its effects.
  ///
  /// ```swift
  /// store.send(.incrementButtonTapped)
  /// await store.send(.refreshButtonTapped).finish()
  /// ```
  ///
  /// - Parameter action: The action.
  /// - Returns: A task for the effects the action started, to await or cancel.
  @inlinable
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    if let rootCore = self.rootCore {
      return StoreTask(rootCore.send(action, group: nil, fromEffect: false))
    }
    return self.core.send(action)
  }

  /// Sends an action and returns a `Task` for its effects, or `nil` when it started none: the
  /// form TCA's own tests use (`await store.send(.tap)?.value`).
  ///
  /// - Parameter action: The action.
  /// - Returns: A task that finishes with the effects; cancelling it cancels them.
  @_disfavoredOverload
  @discardableResult
  public func send(_ action: Action) -> Task<Void, Never>? {
    self.send(action).task
  }

  /// The current state (a scoped store reads it from its root at each access).
  public var state: State {
    self.core.state
  }

  /// A value of the current state: `store.count` for `store.state.count`, as in TCA.
  ///
  /// - Parameter keyPath: A key path into the state.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    self.core.state[keyPath: keyPath]
  }

  /// Runs a closure with the current state.
  ///
  /// ```swift
  /// store.withState(\.count)
  /// ```
  ///
  /// - Parameter body: Reads the state.
  /// - Returns: What `body` returns.
  public func withState<R>(_ body: (_ state: State) -> R) -> R {
    body(self.core.state)
  }

  /// Registers a closure called after every action the root reduces (including actions sent
  /// by effects), with this store's state.
  ///
  /// Unlike ``stateChanges()`` it is synchronous and sees every action. It may send actions;
  /// they are queued.
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
}

/// A store of a feature: `StoreOf<Counter>` is `Store<Counter.State, Counter.Action>`.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

/// Identifies an observer registered with ``Store/observe(_:)`` or ``StoreActor/observe(_:)``.
public struct StoreObserverID: Hashable, Sendable {
  @usableFromInline let rawValue: UInt64

  @usableFromInline init(rawValue: UInt64) { self.rawValue = rawValue }
}
