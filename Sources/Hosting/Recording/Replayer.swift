import Architecture

/// Reduces recorded actions again onto a root state, exactly as the host reduced them live:
/// with the host's dependencies, the values the reducer drew given back from each record, and
/// the effects it returns discarded (what they fed back is in the record as later actions).
///
/// A replayer owns its own instance of the root reducer (reducers may keep caches of the child
/// reducers they have built), so it can run on any thread while the live store keeps reducing
/// on the event loop. It is not `Sendable`: one thread uses it at a time.
@usableFromInline
final class Replayer<State, Action> {
  private let reduce: _ReduceFunction<State, Action>
  private let dependencies: DependencyValues

  /// A replayer for the reducer `makeReducer` builds, with the host's `dependencies` (those of
  /// its root store, with the recording wrappers of ``RecordingDependencies`` installed).
  @usableFromInline
  init<R: Reducer>(
    reducer makeReducer: () -> R, dependencies: DependencyValues
  ) where R.State == State, R.Action == Action {
    self.dependencies = dependencies
    self.reduce = DependencyValues.$current.withValue(dependencies) {
      makeReducer()._makeReduce()
    }
  }

  /// Reduces the actions `next` returns, in order, into `state`, until it returns `nil`.
  ///
  /// - Parameters:
  ///   - state: The state before the first action; the state after the last one on return.
  ///   - next: The next action to reduce, with the revision it produced and its draws.
  /// - Throws: ``ReplayDivergence`` when a reducer drew differently from its record (the state
  ///   is then as far as replay got, including the divergent action).
  func replay(
    into state: inout State,
    _ next: () throws -> (revision: Int64, action: Action, draws: [Draw])?
  ) throws {
    try DependencyValues.$current.withValue(self.dependencies) {
      while let (revision, action, draws) = try next() {
        let tape = DrawTape(replaying: draws)
        _ = ThreadLocalTape.with(tape) { self.reduce(&state, action) }
        if let divergence = tape.divergence {
          throw ReplayDivergence(revision: revision, detail: divergence)
        }
        if !tape.isExhausted {
          throw ReplayDivergence(
            revision: revision,
            detail: "the reducer drew \(draws.count - tape.remaining) of the \(draws.count) "
              + "recorded values")
        }
      }
    }
  }
}

/// A replayed action drew differently from its record, so the replayed state may differ from
/// the one the host had: the reducer is not deterministic given its recorded dependencies (it
/// read another source of randomness or time), or the app changed since the record was made.
struct ReplayDivergence: Error, CustomStringConvertible {
  /// The revision of the action that diverged.
  let revision: Int64
  /// What differed.
  let detail: String

  var description: String { "replaying revision \(self.revision): \(self.detail)" }
}
