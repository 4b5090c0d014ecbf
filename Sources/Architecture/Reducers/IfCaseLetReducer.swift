extension Reducer {
  /// Runs a child reducer on one case of an enum state, while the state is in that case.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifCaseLet(\.loggedIn, action: \.loggedIn) { LoggedIn() }
  /// ```
  ///
  /// The child runs before this reducer. A child action arriving in another case is reported
  /// as a runtime warning. When the state leaves the case, the child's effects are cancelled.
  ///
  /// - Parameters:
  ///   - toCaseState: A case key path to the case's state.
  ///   - toCaseAction: A case key path to the child action.
  ///   - child: The child reducer.
  ///   - fileID: The source file, for runtime warnings.
  ///   - line: The source line, for runtime warnings.
  /// - Returns: The combined reducer.
  public func ifCaseLet<CaseState, CaseAction, Child: Reducer>(
    _ toCaseState: CaseKeyPath<State, CaseState>,
    action toCaseAction: CaseKeyPath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _IfCaseLetReducer<Self, Child>
  where Child.State == CaseState, Child.Action == CaseAction {
    _IfCaseLetReducer(
      parent: self, toCaseState: AnyCasePath(toCaseState), toCaseAction: AnyCasePath(toCaseAction),
      scope: AnyHashable(toCaseState), child: child(), location: _SourceLocation(fileID: fileID, line: line))
  }
}

/// The reducer returned by ``Reducer/ifCaseLet(_:action:then:fileID:line:)``.
public struct _IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let run: _ReduceFunction<Parent.State, Parent.Action>

  init(
    parent: Parent,
    toCaseState: AnyCasePath<Parent.State, Child.State>,
    toCaseAction: AnyCasePath<Parent.Action, Child.Action>,
    scope: AnyHashable,
    child: Child,
    location: _SourceLocation
  ) {
    let parent = parent._makeReduce()
    let child = child._makeReduce()
    let identity = _identityFunction(Child.State.self)
    func navigationID(_ childState: Child.State) -> _CancelID {
      _CancelID(_NavigationID(scope: scope, identity: identity(childState)))
    }
    self.run = { state, action in
      var childEffects = Effect<Parent.Action>.none
      let initial = toCaseState.extract(from: state)
      let before = initial.map(navigationID)
      if let childAction = toCaseAction.extract(from: action) {
        if var childState = initial, let before {
          let effects = child(&childState, childAction)
          state = toCaseState.embed(childState)
          if !effects.isNone {
            childEffects = effects.map(toCaseAction._embed)._scoped(in: before)
          }
        } else {
          DependencyValues._effective.runtimeWarnings(
            _ReducerIssues.ifCaseLetOtherCase(
              at: location, action: action, state: state, stateType: Parent.State.self),
            at: location)
        }
      }
      let parentEffects = parent(&state, action)
      guard let before, before != toCaseState.extract(from: state).map(navigationID) else {
        return childEffects.merge(with: parentEffects)
      }
      return childEffects.merge(with: parentEffects).merge(with: .init(operation: .cancel(before)))
    }
  }

  /// Runs the child, then the parent, then cancels a departed case's effects.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    self.run(&state, action)
  }

  /// The reduce function itself, without another closure around it.
  public func _makeReduce() -> _ReduceFunction<Parent.State, Parent.Action> {
    self.run
  }
}
