import Dispatch
import Wire

/// Rebuilds past root states for `get` with `at` (PROTOCOL.md §8) — and reads a durable host's
/// older entries from disk (``read(_:for:)``) — on a thread of its own, so
/// that replaying many actions never holds up the event loop: the plan's base state and
/// records are loaded there, the records reduced onto the base by a ``Replayer``, and the
/// result handed back to the loop.
///
/// One serial queue: rebuilds run one at a time, in the order they were asked for, with one
/// replayer (its own instance of the app's reducer, which keeps its caches from one rebuild
/// to the next).
final class PastStateBuilder<State: Sendable, Action: Sendable>: Sendable {
  private let queue = DispatchQueue(label: "storehost.history.replay")
  private let cell: ReplayerCell<State, Action>
  private let loop: EventLoop
  /// Set once by ``HostCore/connectHistory()`` before the host listens (so before any request
  /// can start a rebuild: the actor hop orders the write before every read); never written
  /// again.
  nonisolated(unsafe) private weak var receiver: (any PastStateReceiver<State>)?

  /// A builder that rebuilds states with `replayer` (from then on used only on the builder's
  /// thread) and delivers them on `loop`.
  init(loop: EventLoop, replayer: sending Replayer<State, Action>) {
    self.loop = loop
    self.cell = ReplayerCell(replayer: replayer)
  }

  /// Sets who receives the rebuilt states.
  func setReceiver(_ receiver: any PastStateReceiver<State>) {
    self.receiver = receiver
  }

  /// Rebuilds the state `plan` describes, then hands it to the receiver on the loop.
  ///
  /// - Parameters:
  ///   - plan: The base state and records.
  ///   - session: The connection that asked, passed back with the result.
  func rebuild(_ plan: ReplayPlan<State, Action>, for session: Int) {
    self.queue.async {
      let result = self.cell.rebuild(plan)
      self.loop.execute {
        self.receiver?.pastStateDidLoad(session: session, result)
      }
    }
  }

  /// Reads the entries `load` describes from disk, then hands them to the receiver on the
  /// loop (``PastStateReceiver/entriesDidLoad(session:through:_:)``).
  ///
  /// - Parameters:
  ///   - load: What to read.
  ///   - session: The connection that asked, passed back with the result.
  func read(_ load: EntryLoad, for session: Int) {
    self.queue.async {
      let result = Result { try load.load() }
      self.loop.execute {
        self.receiver?.entriesDidLoad(session: session, through: load.through, result)
      }
    }
  }

  /// Rebuilds the state `plan` describes on the calling thread (for plans with nothing to
  /// replay: the base state is the answer).
  func rebuildNow(_ plan: ReplayPlan<State, Action>) -> Result<State, PastStateFailure> {
    precondition(plan.recordCount == 0, "replays run on the builder's thread")
    do {
      return .success(try plan.load().base)
    } catch {
      return .failure(PastStateFailure(revision: plan.revision, detail: "\(error)"))
    }
  }
}

/// Receives rebuilt past states on the host's event loop.
protocol PastStateReceiver<State>: AnyObject, Sendable {
  associatedtype State: Sendable
  /// Called on the loop with the state a connection asked for, or why it could not be rebuilt.
  func pastStateDidLoad(session: Int, _ result: Result<State, PastStateFailure>)
  /// Called on the loop with the entries a connection's `history` (or a tail's backfill)
  /// needed from disk, read up to `through` (see ``EntryLoad``).
  func entriesDidLoad(session: Int, through: Int64, _ result: Result<[HistoryEntry], any Error>)
}

/// Why a past state could not be rebuilt (a replay that diverged from its records, a source
/// that could not be read).
struct PastStateFailure: Error, CustomStringConvertible {
  /// The revision that was asked for.
  let revision: Int64
  /// What went wrong.
  let detail: String

  var description: String {
    "the state at revision \(self.revision) cannot be rebuilt: \(self.detail)"
  }
}

/// The builder's replayer, created and used only on the builder's serial queue.
///
/// `@unchecked Sendable`: the replayer is handed over (`sending`) when the builder is created,
/// and from then on only the closures the builder runs on its serial queue touch it — one at a
/// time.
private final class ReplayerCell<State: Sendable, Action: Sendable>: @unchecked Sendable {
  private let replayer: Replayer<State, Action>

  init(replayer: sending Replayer<State, Action>) {
    self.replayer = replayer
  }

  func rebuild(_ plan: ReplayPlan<State, Action>) -> Result<State, PastStateFailure> {
    do {
      let (base, records) = try plan.load()
      var state = base
      var remaining = records.makeIterator()
      try self.replayer.replay(into: &state) {
        remaining.next().map { ($0.revision, $0.action, $0.draws) }
      }
      return .success(state)
    } catch {
      return .failure(PastStateFailure(revision: plan.revision, detail: "\(error)"))
    }
  }
}
