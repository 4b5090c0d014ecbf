extension Reducer {
  /// Overrides a dependency for this reducer and for the effects it returns.
  ///
  /// ```swift
  /// Scope(state: \.search, action: \.search) {
  ///   Search()
  ///     .dependency(\.apiClient, .mock)
  /// }
  /// ```
  ///
  /// The override applies to the reducer's `body` (evaluated with it), to every action it
  /// reduces, and to the effects it returns, which keep the values in force where they were
  /// created.
  ///
  /// - Parameters:
  ///   - keyPath: The dependency, for example `\.uuid`.
  ///   - value: Its value for this reducer.
  /// - Returns: The reducer with the dependency overridden.
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { $0[keyPath: keyPath] = value }
  }

  /// Changes a dependency for this reducer and for the effects it returns, starting from its
  /// current value.
  ///
  /// ```swift
  /// Child()
  ///   .transformDependency(\.apiClient) { $0.fetch = { _ in .mock } }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The dependency.
  ///   - transform: Changes the value in force around this reducer.
  /// - Returns: The reducer with the dependency changed.
  public func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    transform: @escaping (_ dependency: inout Value) -> Void
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { transform(&$0[keyPath: keyPath]) }
  }
}

/// The reducer returned by ``Reducer/dependency(_:_:)`` and
/// ``Reducer/transformDependency(_:transform:)``.
public struct _DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  let run: _ReduceFunction<Base.State, Base.Action>
  /// The reducer and the overrides, kept so that another `dependency` fuses into this one.
  let base: Base
  let update: (inout DependencyValues) -> Void

  init(base: Base, update: @escaping (inout DependencyValues) -> Void) {
    self.base = base
    self.update = update
    // The base's `body` is evaluated with the override too (it may read dependencies).
    let base = withDependencies(update) { base._makeReduce() }
    self.run = { state, action in
      var values = DependencyValues._effective
      update(&values)
      // The reduce context is what `@Dependency` reads in a reducer and what effects capture.
      return _ReduceContext.with(_DependencyBox(values)) { base(&state, action) }
    }
  }

  /// Runs the base reducer with the dependency overridden.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    self.run(&state, action)
  }

  /// The reduce function itself, without another closure around it.
  public func _makeReduce() -> _ReduceFunction<Base.State, Base.Action> {
    self.run
  }
}

extension _DependencyKeyWritingReducer {
  /// Another override on a reducer that already has some, fused into one reducer of the same
  /// type, as in TCA (`Feature().dependency(\.a, 1).dependency(\.b, 2)` is one
  /// `_DependencyKeyWritingReducer<Feature>`). As with nesting, the override closest to the
  /// reducer wins: this one is applied first, then the existing ones.
  ///
  /// - Parameters:
  ///   - keyPath: The dependency.
  ///   - value: Its value for the reducer and its effects.
  /// - Returns: The reducer with both overrides.
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> Self {
    let update = self.update
    return Self(base: self.base) { values in
      values[keyPath: keyPath] = value
      update(&values)
    }
  }

  /// Another transformation on a reducer that already overrides dependencies, fused into one
  /// reducer of the same type (see ``dependency(_:_:)``).
  ///
  /// - Parameters:
  ///   - keyPath: The dependency.
  ///   - transform: Changes its value for the reducer and its effects.
  /// - Returns: The reducer with both overrides.
  public func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    transform: @escaping (_ dependency: inout Value) -> Void
  ) -> Self {
    let update = self.update
    return Self(base: self.base) { values in
      transform(&values[keyPath: keyPath])
      update(&values)
    }
  }
}
