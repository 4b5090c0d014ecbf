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
  /// The state last sent, for cheap change detection before any encoding; `nil` for a scope
  /// with identified arrays (``tracked``), whose old elements are not held.
  @exclusivity(unchecked) var lastState: (any ScopeState)?
  /// The JSON last sent, the base of the next diff (`.null` when ``tracked``).
  @exclusivity(unchecked) var lastJSON: JSON
  /// For a scope whose state holds identified arrays: the skeleton last sent and how far each
  /// array's changes were sent. Its patches are computed from these in O(changes), and the
  /// subscription holds no copy of the state, typed or JSON.
  @exclusivity(unchecked) var tracked: TrackedBase?
  /// Whether ``lastState`` and ``lastJSON`` were let go while the client was not reading
  /// (``PushEngine/releaseOldValues(of:)``): its next patch replaces the whole state.
  @exclusivity(unchecked) var isReleased = false
  /// The revision of the last message for this subscription: the next patch's `base`.
  @exclusivity(unchecked) var lastRevision: Int64

  init(
    id: Int64, scopeName: String, target: Target, state: any ScopeState, json: JSON,
    tracked: TrackedBase?, revision: Int64
  ) {
    self.id = id
    self.scopeName = scopeName
    self.target = target
    self.lastState = tracked == nil ? state : nil
    self.lastJSON = tracked == nil ? json : .null
    self.tracked = tracked
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
