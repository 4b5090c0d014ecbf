extension Reducer {
  /// Runs another reducer when a value derived from the state changes.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .onChange(of: { $0.filter }) { oldValue, newValue in
  ///     Reduce { state, _ in
  ///       state.visibleCount = state.todos.filter(newValue.predicate).count
  ///       return .none
  ///     }
  ///   }
  /// ```
  ///
  /// - Parameters:
  ///   - toValue: Derives the observed value from the state.
  ///   - reducer: Builds the reducer to run with the old and new values, after this one, for
  ///     the same action.
  /// - Returns: The combined reducer.
  public func onChange<V: Equatable, R: Reducer<State, Action>>(
    of toValue: @escaping (State) -> V,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: V, _ newValue: V) -> R
  ) -> _OnChangeReducer<Self, V, R> {
    _OnChangeReducer(base: self._makeReduce(), toValue: toValue, isDuplicate: ==, reducer: reducer)
  }

  /// Runs another reducer when a value derived from the state changes, as decided by
  /// `isDuplicate` (for values that are not `Equatable`, or a coarser notion of change).
  ///
  /// ```swift
  /// .onChange(of: \.query, removeDuplicates: { $0.lowercased() == $1.lowercased() }) { _, new in
  ///   Reduce { state, _ in … }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - toValue: Derives the observed value from the state.
  ///   - isDuplicate: Whether two values count as the same (no change).
  ///   - reducer: Builds the reducer to run with the old and new values, after this one, for
  ///     the same action.
  /// - Returns: The combined reducer.
  public func onChange<V, R: Reducer<State, Action>>(
    of toValue: @escaping (State) -> V,
    removeDuplicates isDuplicate: @escaping (V, V) -> Bool,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: V, _ newValue: V) -> R
  ) -> _OnChangeReducer<Self, V, R> {
    _OnChangeReducer(
      base: self._makeReduce(), toValue: toValue, isDuplicate: isDuplicate, reducer: reducer)
  }
}

/// The reducer returned by ``Reducer/onChange(of:_:)``.
public struct _OnChangeReducer<
  Base: Reducer, Value, R: Reducer<Base.State, Base.Action>
>:
  Reducer
{
  let base: _ReduceFunction<Base.State, Base.Action>
  let toValue: (Base.State) -> Value
  let isDuplicate: (Value, Value) -> Bool
  let reducer: (Value, Value) -> R

  /// Runs the base reducer, then the change reducer if the value changed.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = self.toValue(state)
    let effects = self.base(&state, action)
    let newValue = self.toValue(state)
    guard !self.isDuplicate(oldValue, newValue) else { return effects }
    return effects.merge(
      with: self.reducer(oldValue, newValue).reduce(into: &state, action: action))
  }
}
