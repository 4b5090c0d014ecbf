/// Groups reducers so that operators apply to all of them.
///
/// ```swift
/// CombineReducers {
///   Scope(state: \.a, action: \.a) { A() }
///   Scope(state: \.b, action: \.b) { B() }
/// }
/// ._printChanges()
/// ```
public struct CombineReducers<State, Action, Reducers: Reducer<State, Action>>: Reducer {
  @usableFromInline
  let reducers: _ReduceFunction<State, Action>

  /// Combines the reducers of a builder block; they run in order.
  ///
  /// - Parameter build: The reducers.
  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()._makeReduce()
  }

  /// Runs the reducers in order, merging their effects.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.reducers(&state, action)
  }

  /// The reduce function itself, without another closure around it.
  @inlinable
  public func _makeReduce() -> _ReduceFunction<State, Action> {
    self.reducers
  }
}
