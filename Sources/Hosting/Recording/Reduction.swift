import Wire

/// Who sent an action that a host reduced: the `origin` of a history entry (PROTOCOL.md §8).
public enum ReductionOrigin: Sendable, Equatable {
  /// A client's `send`: its session, the name it gave in `hello`, and its process and user ids
  /// (from the socket's peer credentials).
  case client(session: Int, client: String?, pid: Int32, uid: UInt32)
  /// An action fed back by an effect.
  case effect
  /// An action the hosting program sent itself (``StoreHost/send(_:)``).
  case host
}

/// One action the host reduced, with everything needed to show it in the history and to reduce
/// it again exactly: its revision, time and origin, the scope and JSON a client sent it as, the
/// root action, and the values the reducer drew from non-deterministic dependencies.
@usableFromInline
struct Reduction<Action> {
  /// The root revision this action produced.
  @usableFromInline let revision: Int64
  /// When it was reduced, in milliseconds since 1970 (UTC).
  @usableFromInline let time: Int64
  /// Who sent it.
  @usableFromInline let origin: ReductionOrigin
  /// The scope a client sent it to; `nil` for effect and host actions.
  @usableFromInline let scope: String?
  /// The action's JSON as the client sent it to ``scope``; `nil` for effect and host actions.
  @usableFromInline let scopeAction: JSON?
  /// The root action that was reduced.
  @usableFromInline let action: Action
  /// What the reducer drew from `uuid`, `date` and `withRandomNumberGenerator`, in order.
  @usableFromInline let draws: [Draw]

  @usableFromInline
  init(
    revision: Int64, time: Int64, origin: ReductionOrigin, scope: String?, scopeAction: JSON?,
    action: Action, draws: [Draw]
  ) {
    self.revision = revision
    self.time = time
    self.origin = origin
    self.scope = scope
    self.scopeAction = scopeAction
    self.action = action
    self.draws = draws
  }

  /// The action's JSON as history shows it: as sent to its scope, or for effect and host
  /// actions the root action's JSON — `nil` when the root action type is not `Encodable`.
  func actionJSON() -> JSON? {
    if let scopeAction { return scopeAction }
    guard let encodable = self.action as? any Encodable else { return nil }
    return try? JSONValueEncoder().encode(encodable)
  }
}

/// Records cross threads: to the thread that rebuilds past states from them (and the journal's).
extension Reduction: Sendable where Action: Sendable {}

/// Told of every action the host reduces, in revision order, on the host's event loop, right
/// after the reduce (before any reply is written): the journal and the history are sinks.
protocol ReductionSink<Action>: AnyObject {
  associatedtype Action
  /// Takes one reduced action. Called inside the store's reduce: must not send actions.
  func didReduce(_ reduction: Reduction<Action>)
}
