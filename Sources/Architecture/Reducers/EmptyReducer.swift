/// A reducer that does nothing.
///
/// Useful as a placeholder, or for a child that only holds state.
public struct EmptyReducer<State, Action>: Reducer {
  /// Creates a reducer that does nothing.
  @inlinable
  public init() {}

  /// Returns `.none` without touching the state.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .none
  }
}
