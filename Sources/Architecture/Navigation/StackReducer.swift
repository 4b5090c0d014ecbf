extension Reducer {
  /// Runs a destination reducer on the elements of a navigation stack, and handles pushes and
  /// pops.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.path, action: \.path) { Path() }
  /// ```
  ///
  /// `.element` actions run the destination on that element, then this reducer; `.popFrom`
  /// and `.push` run this reducer, then pop or push. Popped elements' effects are cancelled.
  /// An action for a missing element (or a push of an existing id) is reported as a runtime
  /// warning.
  ///
  /// - Parameters:
  ///   - toStackState: A writable key path to the stack state.
  ///   - toStackAction: A case key path to the stack action.
  ///   - destination: The element reducer.
  ///   - fileID: The source file, for runtime warnings.
  ///   - line: The source line, for runtime warnings.
  /// - Returns: The combined reducer.
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _StackReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    _StackReducer(
      parent: self, toStackState: toStackState, toStackAction: AnyCasePath(toStackAction),
      destination: destination(), location: _SourceLocation(fileID: fileID, line: line))
  }
}

/// The reducer returned by ``Reducer/forEach(_:action:destination:fileID:line:)``.
public struct _StackReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  let run: _ReduceFunction<Parent.State, Parent.Action>

  init(
    parent: Parent,
    toStackState: WritableKeyPath<Parent.State, StackState<Destination.State>>,
    toStackAction: AnyCasePath<Parent.Action, StackAction<Destination.State, Destination.Action>>,
    destination: Destination,
    location: _SourceLocation
  ) {
    let parent = parent._makeReduce()
    let destination = destination._makeReduce()
    let scope = AnyHashable(toStackState)
    let embed = toStackAction._embed
    func navigationID(_ id: StackElementID) -> _CancelID {
      _CancelID(_NavigationID(scope: scope, identity: AnyHashable(id)))
    }
    func warn(_ message: String) {
      DependencyValues._effective.runtimeWarnings(message, at: location)
    }
    self.run = { state, action in
      let idsBefore = state[keyPath: toStackState].ids
      var destinationEffects = Effect<Parent.Action>.none
      let parentEffects: Effect<Parent.Action>
      switch toStackAction.extract(from: action) {
      case .element(let id, let destinationAction)?:
        let effects = state[keyPath: toStackState].storage._modify(id: id) {
          destination(&$0.element, destinationAction)
        }
        if let effects {
          if !effects.isNone {
            destinationEffects = effects.map { embed(.element(id: id, action: $0)) }
              ._dismissing { embed(.popFrom(id: id)) }
              ._scoped(in: navigationID(id))
          }
        } else {
          warn(_ReducerIssues.stackMissingElement(at: location, action: action))
        }
        parentEffects = parent(&state, action)
      case .popFrom(let id)?:
        parentEffects = parent(&state, action)
        if state[keyPath: toStackState].storage.index(id: id) != nil {
          state[keyPath: toStackState].pop(from: id)
        } else {
          warn(
            _ReducerIssues.stackPopMissing(
              at: location, id: id, ids: state[keyPath: toStackState].ids))
        }
      case .push(let id, let elementState)?:
        parentEffects = parent(&state, action)
        let ids = state[keyPath: toStackState].ids
        if !state[keyPath: toStackState]._push(id: id, element: elementState) {
          warn(_ReducerIssues.stackPushExisting(at: location, id: id, ids: ids))
        }
      case nil:
        parentEffects = parent(&state, action)
      }
      let effects = destinationEffects.merge(with: parentEffects)
      let idsAfter = state[keyPath: toStackState].ids
      guard idsBefore != idsAfter else { return effects }
      let remaining = Set(idsAfter)
      return effects.merge(
        with: .merge(
          idsBefore.filter { !remaining.contains($0) }.map {
            Effect(operation: .cancel(navigationID($0)))
          }))
    }
  }

  /// Runs the element reducer and the parent, pushes and pops, and cancels popped effects.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    self.run(&state, action)
  }

  /// The reduce function itself, without another closure around it.
  public func _makeReduce() -> _ReduceFunction<Parent.State, Parent.Action> {
    self.run
  }
}
