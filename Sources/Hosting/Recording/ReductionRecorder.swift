import Wire

/// Records each action the root store reduces — with its origin and the values its reducer drew
/// — and hands it to the host's sinks (the journal, the history).
///
/// It sits in the root reduce (``HostReducer``). A client's `send` and the host's own
/// ``StoreHost/send(_:)`` announce their origin (``expect(_:scope:action:)``) just before they
/// call the store; the first action reduced after that is theirs, and every other action is an
/// effect's (actions from synchronous `.send` effects are reduced within the same store call,
/// after the action that returned them).
///
/// `@unchecked Sendable`: the reducer that holds it must be `Sendable`, but every method runs on
/// the host's event loop (the store's executor), so its state is only touched by that thread.
///
/// It runs on every reduce, in the host's unspecialized generic code, so it avoids what costs
/// there (bench/HISTORY.md): its flags are plain stored `Bool`s (even `sinks.isEmpty` looks up
/// the metadata of an array of existentials), the announced origin is three concrete
/// properties (an optional tuple is copied through its metadata), and its properties are
/// `@exclusivity(unchecked)`: only the loop thread touches them, from this class's own
/// synchronous methods, none of which holds an `inout` access across a call that could reach
/// the recorder again — so the dynamic check (a thread-local access-set insert per access)
/// could never fire.
@usableFromInline
final class ReductionRecorder<Action>: @unchecked Sendable {
  private var sinks: [any ReductionSink<Action>] = []
  /// The history's records and their actions, appended directly (see ``RecordLog``).
  @exclusivity(unchecked) private var log: RecordLog?
  @exclusivity(unchecked) private var actions: ActionStore<Action>?
  /// Whether there is a sink or a log.
  @usableFromInline @exclusivity(unchecked) var isActive = false
  /// Whether ``sinks`` holds any.
  @exclusivity(unchecked) private var hasSinks = false
  @exclusivity(unchecked) private var expectedOrigin: ReductionOrigin?
  @exclusivity(unchecked) private var expectedScope: String?
  @exclusivity(unchecked) private var expectedAction: JSON?
  private let tape = DrawTape()

  @usableFromInline init() {}

  /// Whether anything listens (when nothing does, reduces are not recorded at all).
  var isRecording: Bool { self.isActive }

  /// Adds a sink; called while the host starts, before it reduces anything.
  func add(_ sink: some ReductionSink<Action>) {
    self.sinks.append(sink)
    self.isActive = true
    self.hasSinks = true
  }

  /// Appends every reduced action to `log` and `actions` (the history's records); called
  /// while the host starts, before it reduces anything.
  func record(into log: RecordLog, actions: ActionStore<Action>) {
    self.log = log
    self.actions = actions
    self.isActive = true
  }

  /// Announces the origin of the next action the store reduces.
  @usableFromInline
  func expect(_ origin: ReductionOrigin, scope: String? = nil, action: JSON? = nil) {
    guard self.isActive else { return }
    self.expectedOrigin = origin
    self.expectedScope = scope
    self.expectedAction = action
  }

  /// Forgets an announced origin that no reduce consumed (the send was refused before it).
  func cancelExpectation() {
    self.expectedOrigin = nil
    self.expectedScope = nil
    self.expectedAction = nil
  }

  /// Runs one reduce (`body`), recording what it drew, then tells the sinks.
  ///
  /// Inlinable, so that the reduce runs in the caller's specialized code; the recording
  /// around it is out of line (``beginRecording()``, ``finishRecording(_:revision:previous:)``).
  @inlinable @inline(__always)
  func record<R>(_ action: Action, revision: () -> Int64, _ body: () -> R) -> R {
    guard self.isActive else { return body() }
    let previous = self.beginRecording()
    let result = body()
    self.finishRecording(action, revision: revision(), previous: previous)
    return result
  }

  /// Readies the draw tape for a reduce and makes it this thread's.
  ///
  /// - Returns: The thread's previous tape, for ``finishRecording(_:revision:previous:)``.
  @usableFromInline
  func beginRecording() -> UnsafeMutableRawPointer? {
    self.tape.reset()
    return ThreadLocalTape.enter(self.tape)
  }

  /// Records the reduced `action`, which produced `revision`, with its origin and draws.
  @usableFromInline
  func finishRecording(_ action: Action, revision: Int64, previous: UnsafeMutableRawPointer?) {
    ThreadLocalTape.leave(restoring: previous)
    let origin = self.expectedOrigin ?? .effect
    let scope = self.expectedScope
    let scopeAction = self.expectedAction
    self.cancelExpectation()
    let time = WallClock.milliseconds()
    if let log = self.log, let actions = self.actions {
      actions.append(action)
      log.append(
        HistoryRecord(
          revision: revision, time: time, origin: origin, scope: scope, scopeAction: scopeAction,
          draws: self.tape.draws))
    }
    if self.hasSinks {
      let reduction = Reduction(
        revision: revision, time: time, origin: origin, scope: scope, scopeAction: scopeAction,
        action: action, draws: self.tape.draws)
      for sink in self.sinks { sink.didReduce(reduction) }
    }
  }
}
