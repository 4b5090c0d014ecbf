extension Reducer {
  /// Runs a destination reducer on presented state (`@Presents`), and handles dismissal.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$destination, action: \.destination) { Destination() }
  /// ```
  ///
  /// `.presented` actions run the destination, then this reducer; `.dismiss` runs this
  /// reducer, then sets the state to `nil`. When a presentation ends (dismissed, set to `nil`,
  /// or replaced) its in-flight effects are cancelled. A presentation action arriving while
  /// nothing is presented is reported as a runtime warning.
  ///
  /// - Parameters:
  ///   - toPresentationState: A writable key path to the presentation state (`\.$destination`).
  ///   - toPresentationAction: A case key path to the presentation action.
  ///   - destination: The presented feature's reducer.
  ///   - fileID: The source file, for runtime warnings.
  ///   - line: The source line, for runtime warnings.
  /// - Returns: The combined reducer.
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PresentationReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    _PresentationReducer(
      parent: self, toPresentationState: toPresentationState,
      toPresentationAction: AnyCasePath(toPresentationAction), destination: destination(),
      isEphemeral: false, location: "\(fileID):\(line)")
  }

  /// Handles presented state that has no reducer of its own, such as an alert's: any
  /// `.presented` action is handled by this reducer and then dismisses it (TCA's ephemeral
  /// state); `.dismiss` dismisses it.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$alert, action: \.alert)
  /// ```
  ///
  /// - Parameters:
  ///   - toPresentationState: A writable key path to the presentation state.
  ///   - toPresentationAction: A case key path to the presentation action.
  ///   - fileID: The source file, for runtime warnings.
  ///   - line: The source line, for runtime warnings.
  /// - Returns: The combined reducer.
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    _PresentationReducer(
      parent: self, toPresentationState: toPresentationState,
      toPresentationAction: AnyCasePath(toPresentationAction), destination: EmptyReducer(),
      isEphemeral: true, location: "\(fileID):\(line)")
  }
}

/// The reducer returned by ``Reducer/ifLet(_:action:destination:fileID:line:)``.
public struct _PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  let run: _ReduceFunction<Parent.State, Parent.Action>

  init(
    parent: Parent,
    toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>,
    toPresentationAction: AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>,
    destination: Destination,
    isEphemeral: Bool,
    location: String
  ) {
    let parent = parent._makeReduce()
    let destination = destination._makeReduce()
    let scope = AnyHashable(toPresentationState)
    let embed = toPresentationAction._embed
    let ephemeral = _EphemeralCheck<Destination.State>(always: isEphemeral)
    func navigationID(_ presentationID: UInt64) -> _CancelID {
      _CancelID(_NavigationID(scope: scope, identity: AnyHashable(presentationID)))
    }
    self.run = { state, action in
      let initialID = state[keyPath: toPresentationState].presentationID
      var destinationEffects = Effect<Parent.Action>.none
      let parentEffects: Effect<Parent.Action>
      switch (initialID, toPresentationAction.extract(from: action)) {
      case (let initialID?, .dismiss?):
        parentEffects = parent(&state, action)
        if state[keyPath: toPresentationState].presentationID == initialID {
          state[keyPath: toPresentationState].wrappedValue = nil
        }
      case (let initialID?, .presented(let destinationAction)?):
        let dismisses = ephemeral.isEphemeral(state[keyPath: toPresentationState].wrappedValue)
        let effects = destination(
          &state[keyPath: toPresentationState].wrappedValue!, destinationAction)
        if !effects.isNone {
          destinationEffects = effects.map { embed(.presented($0)) }
            ._dismissing { embed(.dismiss) }
            ._scoped(in: navigationID(initialID))
        }
        parentEffects = parent(&state, action)
        if dismisses, state[keyPath: toPresentationState].presentationID == initialID {
          state[keyPath: toPresentationState].wrappedValue = nil
        }
      case (nil, _?):
        DependencyValues._effective.runtimeWarnings(
          "An \"ifLet\" at \(location) received a presentation action when destination state"
            + " was nil. Action: \(action)")
        parentEffects = parent(&state, action)
      case (_, nil):
        parentEffects = parent(&state, action)
      }
      let effects = destinationEffects.merge(with: parentEffects)
      guard let initialID, initialID != state[keyPath: toPresentationState].presentationID
      else { return effects }
      return effects.merge(with: Effect(operation: .cancel(navigationID(initialID))))
    }
  }

  /// Runs the destination and the parent, dismisses, and cancels ended presentations' effects.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    self.run(&state, action)
  }

  /// The reduce function itself, without another closure around it.
  public func _makeReduce() -> _ReduceFunction<Parent.State, Parent.Action> {
    self.run
  }
}
