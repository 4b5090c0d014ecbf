extension Reducer {
  /// Prints each action and a line diff of the state it changed (a debugging aid).
  ///
  /// ```
  /// received action:
  ///   Counter.Action.incrementButtonTapped
  ///   Counter.State(
  /// -   count: 0,
  /// +   count: 1,
  ///     isLoading: false
  ///   )
  /// ```
  ///
  /// It keeps a copy of the state before each action (so it costs a copy-on-write of what the
  /// action changes) and uses `Mirror`: not for production send paths.
  ///
  /// - Parameter output: Receives each report; prints to standard output by default.
  /// - Returns: The printing reducer.
  public func _printChanges(
    to output: @escaping @Sendable (String) -> Void = { print($0) }
  ) -> _PrintChangesReducer<Self> {
    _PrintChangesReducer(base: self._makeReduce(), output: output)
  }
}

/// The reducer returned by ``Reducer/_printChanges(to:)``.
public struct _PrintChangesReducer<Base: Reducer>: Reducer {
  let base: _ReduceFunction<Base.State, Base.Action>
  let output: @Sendable (String) -> Void

  /// Runs the base reducer and reports the action and the state diff.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldState = state
    let effects = self.base(&state, action)
    var report = "received action:\n"
    report += _dumpLines(action).map { "  " + $0 }.joined(separator: "\n")
    report += "\n"
    if let diff = _lineDiff(_dumpLines(oldState), _dumpLines(state)) {
      report += diff
    } else {
      report += "  (No state changes)"
    }
    self.output(report)
    return effects
  }
}
