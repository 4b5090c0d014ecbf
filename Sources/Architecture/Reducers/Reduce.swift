/// A reducer made from a closure.
///
/// ```swift
/// Reduce { state, action in
///   switch action {
///   case .increment: state.count += 1; return .none
///   }
/// }
/// ```
public struct Reduce<State, Action>: Reducer {
  @usableFromInline
  let _reduce: _ReduceFunction<State, Action>

  /// Creates a reducer from a reduce function.
  ///
  /// - Parameter reduce: Evolves the state and returns effects.
  @inlinable
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self._reduce = reduce
  }

  /// Erases another reducer.
  ///
  /// - Parameter reducer: The reducer to wrap.
  @inlinable
  public init<R: Reducer<State, Action>>(_ reducer: R) {
    self._reduce = reducer._makeReduce()
  }

  /// Calls the closure.
  /// Wraps a reducer of an existential type (`any ReducerOf<Feature>`): its reduce function is
  /// built once, here.
  ///
  /// - Parameter reducer: The reducer.
  @inlinable
  @_disfavoredOverload
  public init(_ reducer: any Reducer<State, Action>) {
    self._reduce = reducer._makeReduce()
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self._reduce(&state, action)
  }

  /// The reduce function itself, without another closure around it.
  @inlinable
  public func _makeReduce() -> _ReduceFunction<State, Action> {
    self._reduce
  }
}
