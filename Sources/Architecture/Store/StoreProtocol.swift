/// What a client of a feature needs from its store, local or remote: read the state, observe
/// its changes, send actions.
///
/// ``StoreActor`` conforms, and so does `RemoteStore` (in the `Remote` module), a scope of a
/// store that lives in a `storehost` process. Code written against this protocol — a
/// command-line front end, a view model, a test's script — runs unchanged on a local store and
/// on a remote scope:
///
/// ```swift
/// func countToThree<S: StoreProtocol>(
///   _ store: S
/// ) async throws(S.Failure) -> Int where S.State == Counter.State, S.Action == Counter.Action {
///   for _ in 1...3 {
///     try await store.send(.incrementButtonTapped)
///   }
///   return await store.state.count
/// }
///
/// let local = StoreActor(initialState: Counter.State()) { Counter() }
/// let remote = try await RemoteStore<Counter.State, Counter.Action>(scope: "counter")
/// _ = try await countToThree(local)    // 3
/// _ = try await countToThree(remote)   // the host's count, 3 higher
/// ```
///
/// ## The contract
///
/// - ``state``: the current state. When ``send(_:)`` returns, it already reflects the action
///   (and anything reduced before it); changes effects make afterwards arrive later.
/// - ``stateChanges()``: the state now, then after changes, coalescing (a slow reader gets the
///   newest state, and consecutive equal states are skipped when `State` is `Equatable`).
/// - ``send(_:)``: returns once the action is reduced. What it returns differs
///   (``SendResult``): a local store returns the ``StoreTask`` of the action's effects, a remote
///   one the host's revision; and only a remote one fails (``Failure``): when the host refuses
///   the action or cannot be reached. Code written for any store handles the error and ignores
///   the result.
///
/// Both are actors, and so is every conforming type: ``state`` and ``send(_:)`` run on
/// the store's executor, so that a store's `State` and `Action` need not be `Sendable` to
/// conform; generic code that reads the state from outside says `S.State: Sendable` (or names
/// a concrete, `Sendable` state, as above).
///
/// ## Why this name
///
/// It is the interface the stores that are actors share — ``StoreActor`` and `RemoteStore` —,
/// as `StringProtocol` is the one `String` and `Substring` share: the Swift convention for a
/// protocol named after its main conforming type. ``Store``, TCA's main-actor class, does not
/// conform: the protocol's requirements are isolated to the conforming actor, so that `State`
/// and `Action` need not be `Sendable`, and a class on the main actor cannot be that actor (a
/// main-actor view model uses ``Store`` directly). A name of its own (`StoreClient`, `ScopeHandle`) would read as a third kind
/// of store, and `StoreClient` would differ only in case from the `storeclient` module; nor does
/// it name a module (`Architecture`, `Remote`, …), which a type must not (see STYLE.md).
public protocol StoreProtocol<State, Action>: Actor {
  /// The state of the feature (of the scope, for a remote store).
  associatedtype State
  /// The actions of the feature.
  associatedtype Action
  /// What ``send(_:)`` returns: a ``StoreTask`` locally, a revision remotely.
  associatedtype SendResult: Sendable
  /// What ``send(_:)`` throws: `Never` locally, `RemoteError` remotely.
  associatedtype Failure: Error
  /// The sequence ``stateChanges()`` returns.
  associatedtype StateChanges: AsyncSequence<State, Never>

  /// The current state.
  var state: State { get }

  /// The state, first as it is now, then after each change.
  ///
  /// - Returns: An async sequence of states.
  nonisolated func stateChanges() -> StateChanges

  /// Sends an action and returns once it is reduced.
  ///
  /// - Parameter action: The action.
  /// - Returns: The effects of the action (local) or the revision it produced (remote).
  /// - Throws: Why the action could not be sent (remote only).
  @discardableResult
  func send(_ action: Action) async throws(Failure) -> SendResult
}

/// A local store actor is a ``StoreProtocol`` whose sends return their effects and never fail.
extension StoreActor: StoreProtocol {
  /// A local send cannot fail.
  public typealias Failure = Never
}
