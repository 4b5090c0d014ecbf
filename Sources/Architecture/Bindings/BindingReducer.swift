/// Applies binding actions: writes the field each ``BindingAction`` names.
///
/// Put it in the body before the reducer that reacts to bindings, so that one sees the new
/// value, as in TCA:
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer()
///   Reduce { state, action in
///     switch action {
///     case .binding(\.query):
///       return .send(.search)
///     …
///     }
///   }
/// }
/// ```
///
/// When the bindings live in a nested view action (`case view(View)` with
/// `View: BindableAction`), name that case: `BindingReducer(action: \.view)`.
public struct BindingReducer<State, Action, ViewAction: BindableAction>: Reducer
where ViewAction.State == State {
  let toViewAction: (Action) -> ViewAction?

  /// A reducer for a feature whose own action is bindable.
  public init() where Action == ViewAction {
    self.toViewAction = { $0 }
  }

  /// A reducer for a feature whose bindings are in a case of its action.
  ///
  /// - Parameter toViewAction: A case key path to the bindable action, e.g. `\.view`.
  public init(action toViewAction: CaseKeyPath<Action, ViewAction>) {
    let casePath = AnyCasePath(toViewAction)
    self.toViewAction = casePath._extract
  }

  /// Writes the field of a binding action; ignores other actions.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    self.toViewAction(action)?.binding?.set(&state)
    return .none
  }
}
