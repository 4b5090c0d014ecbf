/// A feature's logic: how actions change state and which effects they start.
///
/// Implement either ``reduce(into:action:)`` or ``body`` (built with ``ReducerBuilder``):
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action { case increment, decrement }
///
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       switch action {
///       case .increment: state.count += 1
///       case .decrement: state.count -= 1
///       }
///       return .none
///     }
///   }
/// }
/// ```
///
/// > Important: A store evaluates a reducer's `body` once, when the store is created, and a
/// > child feature's `body` once, when the first action reaches that child (so a feature may
/// > contain itself, as a recursive `forEach` does); afterwards only plain closures run on the
/// > send path. Keep `body` a pure description of the composition.
public protocol Reducer<State, Action> {
  /// The state the reducer works on.
  associatedtype State
  /// The actions it handles.
  associatedtype Action
  /// The type of ``body``, or `Never` for reducers that implement ``reduce(into:action:)``.
  associatedtype Body

  /// Evolves the state for an action and returns the effects to run.
  ///
  /// - Parameters:
  ///   - state: The current state, mutated in place.
  ///   - action: The action.
  /// - Returns: The effects to run afterwards, or `.none`.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducer's logic, composed from other reducers.
  @ReducerBuilder<State, Action>
  var body: Body { get }

  /// Returns the reduce function of this reducer, with its `body` evaluated (children's bodies
  /// are evaluated when the first action reaches them).
  ///
  /// Implementation detail of the store and of the composing reducers; there is no need to
  /// implement it.
  func _makeReduce() -> _ReduceFunction<State, Action>
}

/// The function a reducer boils down to once its bodies are evaluated.
public typealias _ReduceFunction<State, Action> = (inout State, Action) -> Effect<Action>

/// A reducer with the same state and action as `R`, for `some ReducerOf<Self>` bodies.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

/// The effect type of a reducer: `EffectOf<Feature>` is `Effect<Feature.Action>`.
///
/// ```swift
/// func reduce(into state: inout State, action: Action) -> EffectOf<Self>
/// ```
public typealias EffectOf<R: Reducer> = Effect<R.Action>

extension Reducer where Body == Never {
  /// A reducer that implements ``reduce(into:action:)`` has no body.
  public var body: Body {
    fatalError("'\(Self.self)' has no body; it implements reduce(into:action:).")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Reduces with ``body``.
  @inlinable
  public func reduce(into state: inout Body.State, action: Body.Action) -> Effect<Body.Action> {
    self.body.reduce(into: &state, action: action)
  }

  /// Evaluates ``body`` once and builds its reduce function.
  ///
  /// Inside its own `body` (a feature that contains itself, such as a `forEach` of rows that
  /// are the feature again) the feature is built when the first action reaches it instead, so
  /// that building ends.
  @inlinable
  public func _makeReduce() -> _ReduceFunction<State, Action> {
    var reduce: _ReduceFunction<State, Action>?
    if _ReducerBuild.unlessBuilding(Self.self, { reduce = self.body._makeReduce() }),
      let reduce
    {
      return reduce
    }
    let lazy = _LazyReduce(self)
    return { state, action in lazy.reduce(&state, action) }
  }
}

extension Reducer {
  /// Wraps ``reduce(into:action:)``.
  @inlinable
  public func _makeReduce() -> _ReduceFunction<State, Action> {
    { state, action in self.reduce(into: &state, action: action) }
  }
}
