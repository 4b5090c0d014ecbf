/// Builds a reducer from the reducers listed in a `body` or a `CombineReducers` block; they run
/// in order and their effects are merged.
@resultBuilder
public enum ReducerBuilder<State, Action> {
  /// An empty block.
  @inlinable
  public static func buildBlock() -> EmptyReducer<State, Action> {
    EmptyReducer()
  }

  /// A single reducer.
  @inlinable
  public static func buildExpression<R: Reducer<State, Action>>(_ expression: R) -> R {
    expression
  }

  /// A reducer of an existential type (`any ReducerOf<Feature>`), as in TCA.
  @inlinable
  @_disfavoredOverload
  public static func buildExpression(_ expression: any Reducer<State, Action>) -> Reduce<
    State, Action
  > {
    Reduce(expression)
  }

  /// The first reducer of a block.
  @inlinable
  public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R {
    first
  }

  /// The next reducer of a block, run after the accumulated ones.
  @inlinable
  public static func buildPartialBlock<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    accumulated: R0, next: R1
  ) -> _Sequence<R0, R1> {
    _Sequence(accumulated, next)
  }

  /// An `if` without `else`.
  @inlinable
  public static func buildOptional<R: Reducer<State, Action>>(_ wrapped: R?) -> _OptionalReducer<R>
  {
    _OptionalReducer(wrapped)
  }

  /// The `if` branch of an `if`/`else`.
  @inlinable
  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    first reducer: R0
  ) -> _Conditional<R0, R1> {
    _Conditional(first: reducer)
  }

  /// The `else` branch of an `if`/`else`.
  @inlinable
  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    second reducer: R1
  ) -> _Conditional<R0, R1> {
    _Conditional(second: reducer)
  }

  /// A `for` loop of reducers.
  @inlinable
  public static func buildArray<R: Reducer<State, Action>>(_ reducers: [R]) -> _ReducerArray<R> {
    _ReducerArray(reducers)
  }

  /// An `if #available` block.
  @inlinable
  public static func buildLimitedAvailability<R: Reducer<State, Action>>(_ wrapped: R) -> R {
    wrapped
  }
}

/// Two reducers run one after the other, effects merged.
public struct _Sequence<R0: Reducer, R1: Reducer<R0.State, R0.Action>>: Reducer {
  @usableFromInline
  let first: _ReduceFunction<R0.State, R0.Action>
  @usableFromInline
  let second: _ReduceFunction<R0.State, R0.Action>

  @inlinable
  init(_ r0: R0, _ r1: R1) {
    self.first = r0._makeReduce()
    self.second = r1._makeReduce()
  }

  /// Runs both reducers.
  @inlinable
  public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    let effects = self.first(&state, action)
    return effects.merge(with: self.second(&state, action))
  }

  /// Both reduce functions in one closure.
  @inlinable
  public func _makeReduce() -> _ReduceFunction<R0.State, R0.Action> {
    let first = self.first
    let second = self.second
    return { state, action in
      let effects = first(&state, action)
      return effects.merge(with: second(&state, action))
    }
  }
}

/// A reducer that may be absent (`if` without `else`).
public struct _OptionalReducer<Wrapped: Reducer>: Reducer {
  @usableFromInline
  let wrapped: _ReduceFunction<Wrapped.State, Wrapped.Action>?

  @inlinable
  init(_ wrapped: Wrapped?) {
    self.wrapped = wrapped?._makeReduce()
  }

  /// Runs the wrapped reducer if present.
  @inlinable
  public func reduce(into state: inout Wrapped.State, action: Wrapped.Action) -> Effect<
    Wrapped.Action
  > {
    self.wrapped?(&state, action) ?? .none
  }
}

/// One of two reducers (`if`/`else`).
public struct _Conditional<First: Reducer, Second: Reducer<First.State, First.Action>>: Reducer {
  @usableFromInline
  let run: _ReduceFunction<First.State, First.Action>

  @inlinable
  init(first: First) { self.run = first._makeReduce() }
  @inlinable
  init(second: Second) { self.run = second._makeReduce() }

  /// Runs the chosen reducer.
  @inlinable
  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    self.run(&state, action)
  }

  /// The chosen reducer's function.
  @inlinable
  public func _makeReduce() -> _ReduceFunction<First.State, First.Action> {
    self.run
  }
}

/// Reducers built by a `for` loop, run in order.
public struct _ReducerArray<Element: Reducer>: Reducer {
  @usableFromInline
  let reducers: [_ReduceFunction<Element.State, Element.Action>]

  @inlinable
  init(_ reducers: [Element]) {
    self.reducers = reducers.map { $0._makeReduce() }
  }

  /// Runs every reducer.
  @inlinable
  public func reduce(into state: inout Element.State, action: Element.Action) -> Effect<
    Element.Action
  > {
    var effects = Effect<Element.Action>.none
    for reduce in self.reducers { effects = effects.merge(with: reduce(&state, action)) }
    return effects
  }
}
