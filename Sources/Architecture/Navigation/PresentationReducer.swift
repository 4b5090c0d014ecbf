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
      isEphemeral: false, location: _SourceLocation(fileID: fileID, line: line))
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
      isEphemeral: true, location: _SourceLocation(fileID: fileID, line: line))
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
    location: _SourceLocation
  ) {
    let parent = parent._makeReduce()
    let destination = destination._makeReduce()
    let scope = AnyHashable(toPresentationState)
    let embed = toPresentationAction._embed
    let ephemeral = _EphemeralCheck<Destination.State>(always: isEphemeral)
    func identity(_ state: Destination.State?) -> AnyHashable? {
      state.map { AnyHashable(_PresentationIdentity(of: $0)) }
    }
    func navigationID(_ identity: AnyHashable) -> _CancelID {
      _CancelID(_NavigationID(scope: scope, identity: identity))
    }
    self.run = { state, action in
      // Not a copy of the presentation state: holding one would make the destination's
      // mutation copy its box.
      let presentedID = state[keyPath: toPresentationState].presentedID
      let initialIdentity = identity(state[keyPath: toPresentationState].wrappedValue)
      let initialIsEphemeral = ephemeral.isEphemeral(
        state[keyPath: toPresentationState].wrappedValue)
      var destinationEffects = Effect<Parent.Action>.none
      let parentEffects: Effect<Parent.Action>
      switch (initialIdentity, toPresentationAction.extract(from: action)) {
      case (let initialIdentity?, .dismiss?):
        parentEffects = parent(&state, action)
        // Dismissed unless the parent presented something else meanwhile (the same
        // presentation, even re-assigned, is still dismissed).
        if identity(state[keyPath: toPresentationState].wrappedValue) == initialIdentity {
          state[keyPath: toPresentationState].wrappedValue = nil
        }
      case (let initialIdentity?, .presented(let destinationAction)?):
        let dismisses =
          initialIsEphemeral
          && ephemeral.dismisses(
            state[keyPath: toPresentationState].wrappedValue, after: destinationAction)
        let effects = destination(
          &state[keyPath: toPresentationState].wrappedValue!, destinationAction)
        if !effects.isNone {
          destinationEffects = effects.map { embed(.presented($0)) }
            ._dismissing { embed(.dismiss) }
            ._scoped(in: navigationID(initialIdentity))
        }
        parentEffects = parent(&state, action)
        if dismisses,
          identity(state[keyPath: toPresentationState].wrappedValue) == initialIdentity
        {
          state[keyPath: toPresentationState].wrappedValue = nil
        }
      case (nil, _?):
        DependencyValues._effective.runtimeWarnings(
          _ReducerIssues.presentationWithoutState(at: location, action: action), at: location)
        parentEffects = parent(&state, action)
      case (_, nil):
        parentEffects = parent(&state, action)
      }
      var effects = destinationEffects.merge(with: parentEffects)

      // The presentation whose effects are running (`presentedID`) ends when the presented
      // identity changes, whichever reducer changed it: its effects are cancelled.
      let current = state[keyPath: toPresentationState].wrappedValue
      let currentIdentity = identity(current)
      if presentedID != currentIdentity {
        if let presentedID,
          initialIdentity == nil || (initialIdentity == presentedID && !initialIsEphemeral)
        {
          effects = effects.merge(with: Effect(operation: .cancel(navigationID(presentedID))))
        }
        state[keyPath: toPresentationState].presentedID = nil
      }
      if state[keyPath: toPresentationState].presentedID == nil, let currentIdentity,
        !ephemeral.isEphemeral(current)
      {
        state[keyPath: toPresentationState].presentedID = currentIdentity
      }
      return effects
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
