import Architecture
import Synchronization

/// Told when an action changed the root state.
@usableFromInline
protocol RevisionObserver: AnyObject, Sendable {
  /// Called on the event loop, inside the reduce that bumped the revision.
  func stateDidChange()
}

/// The root revision: bumped by the host's wrapper reducer each time an action is reduced.
///
/// Written only on the event loop (where the store reduces) but read by the loop's callers
/// too, so it is an atomic rather than actor state.
@usableFromInline
final class RevisionCounter: Sendable {
  private let revision: Atomic<Int64>
  private let syncScheduled = Atomic<Bool>(false)
  /// Set once, by ``StoreHost/start``, before the store can reduce anything (the store is not
  /// reachable by any client or effect until the host listens, and the actor hop to start
  /// listening orders this write before every read); never written again.
  nonisolated(unsafe) private weak var observer: (any RevisionObserver)?

  @usableFromInline var value: Int64 { revision.load(ordering: .relaxed) }

  /// A counter at `revision`: 0 for a new state, the recovered revision for a durable host
  /// (revisions never go back across restarts).
  @usableFromInline init(startingAt revision: Int64 = 0) {
    self.revision = Atomic(revision)
  }

  @usableFromInline
  func setObserver(_ observer: any RevisionObserver) {
    self.observer = observer
  }

  /// Counts one reduced action and tells the observer.
  @usableFromInline
  func didReduce() {
    revision.add(1, ordering: .relaxed)
    observer?.stateDidChange()
  }

  /// Returns `true` when this call scheduled the sync (it was not scheduled already).
  @usableFromInline
  func markSyncScheduled() -> Bool {
    !syncScheduled.exchange(true, ordering: .acquiringAndReleasing)
  }

  func clearSyncScheduled() {
    syncScheduled.store(false, ordering: .releasing)
  }
}

/// Wraps the app's root reducer: counts revisions and records each reduced action.
@usableFromInline
struct HostReducer<Base: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let counter: RevisionCounter
  @usableFromInline let recorder: ReductionRecorder<Base.Action>
  /// Wraps one of the base's reduce functions: counts and records each action it reduces.
  ///
  /// A closure made by the inlinable initializer, so that where the host is specialized for the
  /// app (``StoreHost/start(app:initialState:reducer:scopes:configuration:withDependencies:)``
  /// is inlinable), this closure — run on every action — is specialized too. The store reaches
  /// ``_makeReduce()`` through its generic `Reducer` requirement, and a closure made there
  /// stayed generic: recording an action then cost twice as much, in generic metadata and
  /// value-witness copies.
  @usableFromInline
  let wrap: (@escaping _ReduceFunction<Base.State, Base.Action>) -> _ReduceFunction<Base.State, Base.Action>

  @inlinable
  init(base: Base, counter: RevisionCounter, recorder: ReductionRecorder<Base.Action>) {
    self.base = base
    self.counter = counter
    self.recorder = recorder
    self.wrap = { reduce in
      { state, action in
        recorder.record(action, revision: { counter.value }) {
          let effect = reduce(&state, action)
          counter.didReduce()
          return effect
        }
      }
    }
  }

  @inlinable
  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let base = self.base
    return self.wrap { state, action in base.reduce(into: &state, action: action) }(&state, action)
  }

  /// The store's reduce function: the base's, with its `body` evaluated once here rather
  /// than on every action, then counted and recorded.
  @inlinable
  func _makeReduce() -> _ReduceFunction<Base.State, Base.Action> {
    self.wrap(self.base._makeReduce())
  }
}
