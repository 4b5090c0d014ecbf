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
final class ReductionRecorder<Action>: @unchecked Sendable {
  private var sinks: [any ReductionSink<Action>] = []
  /// The history's records, appended directly (see ``RecordLog``).
  private var log: RecordLog?
  /// Whether there is a sink or a log: checked on every reduce, as a plain stored `Bool` (the
  /// recorder runs in unspecialized generic code, where even `sinks.isEmpty` costs a generic
  /// metadata lookup).
  private var isActive = false
  // The announced origin, in three concrete properties rather than an optional tuple, whose
  // copy in generic code goes through its metadata.
  private var expectedOrigin: ReductionOrigin?
  private var expectedScope: String?
  private var expectedAction: JSON?
  private let tape = DrawTape()

  init() {}

  /// Whether anything listens (when nothing does, reduces are not recorded at all).
  var isRecording: Bool { self.isActive }

  /// Adds a sink; called while the host starts, before it reduces anything.
  func add(_ sink: some ReductionSink<Action>) {
    self.sinks.append(sink)
    self.isActive = true
  }

  /// Appends every reduced action to `log` (the history's records); called while the host
  /// starts, before it reduces anything.
  func record(into log: RecordLog) {
    self.log = log
    self.isActive = true
  }

  /// Announces the origin of the next action the store reduces.
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
  @inline(__always)
  func record<R>(_ action: Action, revision: () -> Int64, _ body: () -> R) -> R {
    guard self.isActive else { return body() }
    self.tape.reset()
    let result = ThreadLocalTape.with(self.tape, body)
    let origin = self.expectedOrigin ?? .effect
    let scope = self.expectedScope
    let scopeAction = self.expectedAction
    self.cancelExpectation()
    let revision = revision()
    let time = WallClock.milliseconds()
    if let log = self.log {
      log.append(
        HistoryRecord(
          revision: revision, time: time, origin: origin, scope: scope, scopeAction: scopeAction,
          action: action, draws: self.tape.draws))
    }
    if !self.sinks.isEmpty {
      let reduction = Reduction(
        revision: revision, time: time, origin: origin, scope: scope, scopeAction: scopeAction,
        action: action, draws: self.tape.draws)
      for sink in self.sinks { sink.didReduce(reduction) }
    }
    return result
  }
}
