import Wire

/// What a subscription delivers, in order, on its client's event loop.
public enum SubscriptionEvent: Sendable, Hashable {
  /// The subscription started: the host-assigned `sub` and a full snapshot. Always first.
  case subscribed(sub: Int64, snapshot: Snapshot)
  /// The state changed: `ops` (RFC 6902) turn the state at `base` into the state at `rev`.
  case patch(sub: Int64, base: Revision, rev: Revision, ops: [JSON])
  /// The host ended the subscription, e.g. `reason` `"scope_gone"`. Always last.
  case unsubscribed(sub: Int64, reason: String)
}
