import Synchronization
import Wire

/// A subscription of one session to one concrete scope. Loop-confined like its session, and
/// its push-path properties are `@exclusivity(unchecked)` for the same reason.
@usableFromInline
final class Subscription<State, Action> {
  enum Target {
    case host
    case scope(BoundScope<State, Action>)
  }

  let id: Int64
  let scopeName: String
  let target: Target
  /// The state last sent, for cheap change detection before any encoding.
  @exclusivity(unchecked) var lastState: any ScopeState
  /// The JSON last sent, the base of the next diff.
  @exclusivity(unchecked) var lastJSON: JSON
  /// The revision of the last message for this subscription: the next patch's `base`.
  @exclusivity(unchecked) var lastRevision: Int64

  init(
    id: Int64, scopeName: String, target: Target, state: any ScopeState, json: JSON,
    revision: Int64
  ) {
    self.id = id
    self.scopeName = scopeName
    self.target = target
    self.lastState = state
    self.lastJSON = json
    self.lastRevision = revision
  }
}

/// How many subscriptions all of a host's sessions hold, so that reducing actions schedules no
/// push work at all while nobody watches. Written on the event loop only; atomic because the
/// revision counter's observer reads it through a `nonisolated` entry point.
@usableFromInline
final class SubscriptionTally: Sendable {
  private let count = Atomic<Int>(0)

  @usableFromInline var value: Int { self.count.load(ordering: .relaxed) }

  func add(_ delta: Int) {
    if delta != 0 { self.count.add(delta, ordering: .relaxed) }
  }
}
