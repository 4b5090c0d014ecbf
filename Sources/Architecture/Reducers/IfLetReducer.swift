extension Reducer {
  /// Runs a child reducer on an optional part of the state, while it is non-`nil`.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.child, action: \.child) { Child() }
  /// ```
  ///
  /// The child runs before this reducer. A child action arriving while the child is `nil` is
  /// reported as a runtime warning. When the child becomes `nil` (or, for an `Identifiable`
  /// child, is replaced by one with another id) its in-flight effects are cancelled.
  ///
  /// - Parameters:
  ///   - toChildState: A writable key path to the optional child state.
  ///   - toChildAction: A case key path to the child action.
  ///   - child: The child reducer.
  ///   - fileID: The source file, for runtime warnings.
  ///   - line: The source line, for runtime warnings.
  /// - Returns: The combined reducer.
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _IfLetReducer<Self, Child>
  where Child.State == ChildState, Child.Action == ChildAction {
    _IfLetReducer(
      parent: self, toChildState: toChildState, toChildAction: AnyCasePath(toChildAction),
      child: child(), location: _SourceLocation(fileID: fileID, line: line))
  }
}

/// The reducer returned by ``Reducer/ifLet(_:action:then:fileID:line:)``.
extension Reducer {
  /// Handles the actions of an alert or a confirmation dialog held in a plain optional, with no
  /// reducer of its own: once one of its actions has been handled (after this reducer, so the
  /// parent sees it), the state is `nil` again, as in TCA.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.alert, action: \.alert)
  /// ```
  ///
  /// - Parameters:
  ///   - toWrappedState: A writable key path to the optional alert or dialog state.
  ///   - toWrappedAction: A case key path to its actions.
  ///   - fileID: The source file, for runtime warnings.
  ///   - line: The source line, for runtime warnings.
  /// - Returns: The combined reducer.
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    self.ifLet(
      toWrappedState, action: toWrappedAction, then: { EmptyReducer() }, fileID: fileID,
      line: line)
  }
}

public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let run: _ReduceFunction<Parent.State, Parent.Action>

  init(
    parent: Parent,
    toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: AnyCasePath<Parent.Action, Child.Action>,
    child: Child,
    location: _SourceLocation
  ) {
    let parent = parent._makeReduce()
    let child = child._makeReduce()
    let identity = _identityFunction(Child.State.self)
    let ephemeral = _EphemeralCheck<Child.State>(always: false)
    let scope = AnyHashable(toChildState)
    func navigationID(_ childState: Child.State) -> _CancelID {
      _CancelID(_NavigationID(scope: scope, identity: identity(childState)))
    }
    self.run = { state, action in
      let before = state[keyPath: toChildState].map(navigationID)
      var childEffects = Effect<Parent.Action>.none
      if let childAction = toChildAction.extract(from: action) {
        if let before {
          let effects = child(&state[keyPath: toChildState]!, childAction)
          if !effects.isNone {
            childEffects = effects.map(toChildAction._embed)._scoped(in: before)
          }
        } else {
          DependencyValues._effective.runtimeWarnings(
            _ReducerIssues.ifLetMissingChild(at: location, action: action), at: location)
        }
      }
      let parentEffects = parent(&state, action)
      let after = state[keyPath: toChildState].map(navigationID)
      // An alert or a confirmation dialog is gone once one of its actions has been handled (its
      // buttons dismiss it), unless the parent replaced it meanwhile, as in TCA.
      if before != nil, before == after, ephemeral.isEphemeral(state[keyPath: toChildState]),
        toChildAction.extract(from: action) != nil
      {
        state[keyPath: toChildState] = nil
      }
      guard let before, before != after else {
        return childEffects.merge(with: parentEffects)
      }
      return childEffects.merge(with: parentEffects).merge(with: .init(operation: .cancel(before)))
    }
  }

  /// Runs the child, then the parent, then cancels a vanished child's effects.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    self.run(&state, action)
  }

  /// The reduce function itself, without another closure around it.
  public func _makeReduce() -> _ReduceFunction<Parent.State, Parent.Action> {
    self.run
  }
}

/// The `id` of an `Identifiable` value (checked once per type), else nil: part of a child's
/// navigation identity.
func _identityFunction<T>(_ type: T.Type) -> (T) -> AnyHashable? {
  guard type is any Identifiable.Type else { return { _ in nil } }
  return { value in (value as? any Identifiable).map { _anyID(of: $0) } }
}

private func _anyID<T: Identifiable>(of value: T) -> AnyHashable {
  AnyHashable(value.id)
}
