/// A reducer over an enum of features: a destination that can be one of several features, or
/// the element of a navigation stack (TCA's `@Reducer enum`, spelled out).
///
/// Its `State` names it (``CaseReducerState``), so that a parent's `ifLet` and `forEach` need no
/// destination reducer, as in TCA:
///
/// ```swift
/// struct Destination: CaseReducer {
///   enum State: CaseReducerState, CasePathable, Equatable {
///     typealias StateReducer = Destination
///     case add(SyncUpForm.State)
///     case alert(AlertState<Alert>)
///     // AllCasePaths …
///   }
///   enum Action: CasePathable {
///     case add(SyncUpForm.Action)
///     case alert(Alert)
///     // AllCasePaths …
///   }
///   var body: some ReducerOf<Self> {
///     Scope(state: \.add, action: \.add) { SyncUpForm() }
///   }
/// }
///
/// // in the parent:
/// Reduce { … }
///   .ifLet(\.$destination, action: \.destination)
/// ```
public protocol CaseReducer<State, Action>: Reducer
where State: CaseReducerState, State.StateReducer.Action == Action {
  /// Creates the reducer (the parent's `ifLet`/`forEach` builds it).
  init()
}

/// The state of a ``CaseReducer``: an enum that knows its reducer.
public protocol CaseReducerState {
  /// The reducer of this state.
  associatedtype StateReducer: CaseReducer where StateReducer.State == Self
}

extension Reducer {
  /// Runs a destination enum's own reducer (a ``CaseReducer``) on presented state, as TCA's
  /// `ifLet` for `@Reducer enum` destinations.
  ///
  /// ```swift
  /// .ifLet(\.$destination, action: \.destination)
  /// ```
  ///
  /// - Parameters:
  ///   - toPresentationState: A writable key path to the presentation state.
  ///   - toPresentationAction: A case key path to the presentation action.
  ///   - fileID: The source file, for runtime warnings.
  ///   - line: The source line, for runtime warnings.
  /// - Returns: The combined reducer.
  public func ifLet<DestinationState: CaseReducerState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _PresentationReducer<Self, DestinationState.StateReducer>
  where DestinationState.StateReducer.Action == DestinationAction {
    self.ifLet(
      toPresentationState, action: toPresentationAction,
      destination: { DestinationState.StateReducer() }, fileID: fileID, line: line)
  }

  /// Runs a stack element enum's own reducer (a ``CaseReducer``) on the elements of a
  /// navigation stack, as TCA's `forEach` for `@Reducer enum Path`.
  ///
  /// ```swift
  /// .forEach(\.path, action: \.path)
  /// ```
  ///
  /// - Parameters:
  ///   - toStackState: A writable key path to the stack state.
  ///   - toStackAction: A case key path to the stack action.
  ///   - fileID: The source file, for runtime warnings.
  ///   - line: The source line, for runtime warnings.
  /// - Returns: The combined reducer.
  public func forEach<DestinationState: CaseReducerState, DestinationAction>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> _StackReducer<Self, DestinationState.StateReducer>
  where DestinationState.StateReducer.Action == DestinationAction {
    self.forEach(
      toStackState, action: toStackAction, destination: { DestinationState.StateReducer() },
      fileID: fileID, line: line)
  }
}

extension CaseReducer {
  /// The reducer of the enum, for parents written as TCA's `@Reducer enum` parents are:
  ///
  /// ```swift
  /// .ifLet(\.$destination, action: \.destination) {
  ///   Destination.body
  /// }
  /// ```
  ///
  /// The same reducer ``Reducer/ifLet(_:action:fileID:line:)`` builds without a closure; here
  /// the parent may add to it (`Destination.body.dependency(…)`).
  public static var body: Self { Self() }
}
