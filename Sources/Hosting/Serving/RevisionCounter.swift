import Architecture
import Synchronization

/// Told when an action changed the root state.
protocol RevisionObserver: AnyObject, Sendable {
  /// Called on the event loop, inside the reduce that bumped the revision.
  func stateDidChange()
}

/// The root revision: bumped by the host's wrapper reducer each time an action is reduced.
///
/// Written only on the event loop (where the store reduces) but read by the loop's callers
/// too, so it is an atomic rather than actor state.
final class RevisionCounter: Sendable {
  private let revision: Atomic<Int64>
  private let syncScheduled = Atomic<Bool>(false)
  /// Set once, by ``StoreHost/start``, before the store can reduce anything (the store is not
  /// reachable by any client or effect until the host listens, and the actor hop to start
  /// listening orders this write before every read); never written again.
  nonisolated(unsafe) private weak var observer: (any RevisionObserver)?

  /// A counter at `revision`: 0 for a new state, the recovered revision for a durable host
  /// (revisions never go back across restarts).
  init(startingAt revision: Int64 = 0) {
    self.revision = Atomic(revision)
  }

  var value: Int64 { revision.load(ordering: .relaxed) }

  func setObserver(_ observer: any RevisionObserver) {
    self.observer = observer
  }

  /// Counts one reduced action and tells the observer.
  func didReduce() {
    revision.add(1, ordering: .relaxed)
    observer?.stateDidChange()
  }

  /// Returns `true` when this call scheduled the sync (it was not scheduled already).
  func markSyncScheduled() -> Bool {
    !syncScheduled.exchange(true, ordering: .acquiringAndReleasing)
  }

  func clearSyncScheduled() {
    syncScheduled.store(false, ordering: .releasing)
  }
}

/// Wraps the app's root reducer: counts revisions and records each reduced action.
struct HostReducer<Base: Reducer>: Reducer {
  let base: Base
  /// Wraps a reduce function of the base (see ``counting(_:counter:recorder:)``).
  let wrap: (@escaping _ReduceFunction<Base.State, Base.Action>) -> _ReduceFunction<Base.State, Base.Action>

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let base = self.base
    return self.wrap { state, action in base.reduce(into: &state, action: action) }(&state, action)
  }

  /// The store's reduce function: the base's, with its `body` evaluated once here rather
  /// than on every action, then counted and recorded.
  func _makeReduce() -> _ReduceFunction<Base.State, Base.Action> {
    self.wrap(self.base._makeReduce())
  }

  /// `reduce`, counted by `counter` and recorded by `recorder`.
  ///
  /// Called by the host where the app's `State` and `Action` are concrete, so that this
  /// closure — run on every action — is specialized for them in release builds (built inside
  /// ``_makeReduce()``, which the store reaches through its generic `Reducer` requirement, it
  /// stayed generic: a third of the cost of recording an action went to generic metadata).
  static func counting(
    _ reduce: @escaping _ReduceFunction<Base.State, Base.Action>, counter: RevisionCounter,
    recorder: ReductionRecorder<Base.Action>
  ) -> _ReduceFunction<Base.State, Base.Action> {
    { state, action in
      recorder.record(action, revision: { counter.value }) {
        let effect = reduce(&state, action)
        counter.didReduce()
        return effect
      }
    }
  }
}
