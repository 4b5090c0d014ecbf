import Synchronization

/// State that goes away by itself once the user acts on it: an alert or a confirmation dialog.
/// Presented, any of its actions dismisses it, as in TCA, both when it is presented on its own
/// (`.ifLet(\.$alert, action: \.alert)`) and as a case of a destination enum
/// (`case alert(AlertState<Alert>)` in `Destination.State`).
///
/// Public only so that `ifLet` without a destination reducer can require it; there is no need to
/// conform other types.
public protocol _EphemeralState {
  /// The type of the actions its buttons send: only those dismiss it.
  static var _actionType: Any.Type { get }
}

extension AlertState: _EphemeralState {
  /// The alert's button actions.
  public static var _actionType: Any.Type { Action.self }
}
extension ConfirmationDialogState: _EphemeralState {
  /// The dialog's button actions.
  public static var _actionType: Any.Type { Action.self }
}

/// Tells whether a presented state is ephemeral: the state itself, or the payload of the case a
/// destination enum is in.
///
/// A destination whose state is not an enum is never ephemeral, which is learned from the first
/// value and remembered, so that only enum destinations pay for reflection (one `Mirror` per
/// presented action). The memory is atomic: a reducer value may be shared by stores on different
/// executors.
final class _EphemeralCheck<State>: Sendable {
  private static var unknown: UInt8 { 0 }
  private static var enumState: UInt8 { 1 }
  private static var otherState: UInt8 { 2 }

  private let kind: Atomic<UInt8>
  private let always: Bool

  /// - Parameter always: Whether every state is ephemeral (an `ifLet` without a destination
  ///   reducer).
  init(always: Bool) {
    self.always = always
    self.kind = Atomic(Self.unknown)
  }

  /// Whether `state` is dismissed by its actions.
  func isEphemeral(_ state: State?) -> Bool {
    if self.always { return true }
    guard let state else { return false }
    if state is any _EphemeralState { return true }
    if self.kind.load(ordering: .relaxed) == Self.otherState { return false }
    let mirror = Mirror(reflecting: state)
    let kind = mirror.displayStyle == .enum ? Self.enumState : Self.otherState
    self.kind.store(kind, ordering: .relaxed)
    return mirror.children.first?.value is any _EphemeralState
  }

  /// Whether handling `action` dismisses `state`: the state is an alert or a dialog (or an enum
  /// destination in such a case) and the action is one of its buttons' (for an enum destination,
  /// an action of the same case), as in TCA.
  func dismisses(_ state: State?, after action: Any) -> Bool {
    guard let state, self.isEphemeral(state) else { return false }
    if self.always { return true }
    if let ephemeral = state as? any _EphemeralState {
      return type(of: action) == type(of: ephemeral)._actionType
    }
    // An enum destination in an ephemeral case: the action must be in a case whose payload is
    // one of that alert's or dialog's actions.
    guard let payload = Mirror(reflecting: state).children.first?.value as? any _EphemeralState,
      let actionPayload = Mirror(reflecting: action).children.first?.value
    else { return false }
    return type(of: actionPayload) == type(of: payload)._actionType
  }
}
