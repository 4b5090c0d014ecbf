import Synchronization

/// State that goes away by itself once the user acts on it: an alert or a confirmation dialog.
/// Presented, any of its actions dismisses it, as in TCA, both when it is presented on its own
/// (`.ifLet(\.$alert, action: \.alert)`) and as a case of a destination enum
/// (`case alert(AlertState<Alert>)` in `Destination.State`).
///
/// Public only so that `ifLet` without a destination reducer can require it; there is no need to
/// conform other types.
public protocol _EphemeralState {}

extension AlertState: _EphemeralState {}
extension ConfirmationDialogState: _EphemeralState {}

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
}
