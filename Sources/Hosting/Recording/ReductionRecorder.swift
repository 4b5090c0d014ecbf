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
/// Its properties are `@exclusivity(unchecked)`: they are read and written on every reduce,
/// only on the loop thread, by these synchronous methods, none of which holds an `inout` access
/// across a call that could reach them again (a sink must not send actions) — so the dynamic
/// exclusivity check could never fire, and it cost more than the rest of the recording.
@usableFromInline
final class ReductionRecorder<Action>: @unchecked Sendable {
  /// Each sink's `didReduce`, wrapped where the sink's type is known, so that the call is
  /// direct and specialized rather than through an existential.
  @usableFromInline @exclusivity(unchecked) var sinks: [(Reduction<Action>) -> Void] = []
  /// The history's records and their actions, appended directly (see ``RecordLog``).
  @exclusivity(unchecked) private var log: RecordLog?
  /// Whether ``log`` is set.
  @usableFromInline @exclusivity(unchecked) var hasHistory = false
  @exclusivity(unchecked) private var actions: ActionStore<Action>?
  /// Whether there is a sink or a log (a stored `Bool`: cheaper to test on every reduce than
  /// either collection).
  @usableFromInline @exclusivity(unchecked) var isActive = false
  /// The origin announced for the next reduce (``expect(_:scope:action:)``); `.effect` when
  /// none was. Three properties rather than an optional tuple: copying that went through the
  /// runtime's generic tuple witnesses, twice per action.
  @usableFromInline @exclusivity(unchecked) var expectedOrigin = ReductionOrigin.effect
  @usableFromInline @exclusivity(unchecked) var expectedScope: String?
  @usableFromInline @exclusivity(unchecked) var expectedAction: JSON?
  @usableFromInline let tape = DrawTape()

  @usableFromInline init() {}

  /// Whether anything listens (when nothing does, reduces are not recorded at all).
  var isRecording: Bool { self.isActive }

  /// Adds a sink; called while the host starts, before it reduces anything.
  func add(_ sink: some ReductionSink<Action>) {
    self.sinks.append { sink.didReduce($0) }
    self.isActive = true
  }

  /// Appends every reduced action to `log` and `actions` (the history's records); called
  /// while the host starts, before it reduces anything.
  func record(into log: RecordLog, actions: ActionStore<Action>) {
    self.log = log
    self.actions = actions
    self.hasHistory = true
    self.isActive = true
  }

  /// Adds a sink as a closure (written where the app's types are known, it is specialized for
  /// them: the journal's is).
  @usableFromInline
  func add(_ sink: @escaping (Reduction<Action>) -> Void) {
    self.sinks.append(sink)
    self.isActive = true
  }

  /// Announces the origin of the next action the store reduces.
  @usableFromInline
  func expect(_ origin: ReductionOrigin, scope: String? = nil, action: JSON? = nil) {
    self.expectedOrigin = origin
    self.expectedScope = scope
    self.expectedAction = action
  }

  /// Forgets an announced origin that no reduce consumed (the send was refused before it).
  @inlinable
  func cancelExpectation() {
    self.expectedOrigin = .effect
    self.expectedScope = nil
    self.expectedAction = nil
  }

  /// Runs one reduce (`body`), recording what it drew, then tells the sinks.
  ///
  /// Inlined into the host's reduce, so that release builds specialize it for the app's
  /// `Action` along with the host (called generically, the metadata of `Reduction<Action>`
  /// and its copies cost a third of what recording an action does).
  @inlinable @inline(__always)
  func record<R>(_ action: Action, revision: () -> Int64, _ body: () -> R) -> R {
    guard self.isActive else {
      self.cancelExpectation()
      return body()
    }
    self.tape.reset()
    // The tape is the recorder's, alive as long as it is: no extended lifetime to arrange.
    let previous = ThreadLocalTape.install(self.tape)
    let result = body()
    ThreadLocalTape.restore(previous)
    let reduction = Reduction(
      revision: revision(), time: WallClock.milliseconds(), origin: self.expectedOrigin,
      scope: self.expectedScope, scopeAction: self.expectedAction, action: action,
      draws: self.tape.draws)
    self.cancelExpectation()
    if self.hasHistory { self.appendToHistory(reduction) }
    for sink in self.sinks { sink(reduction) }
    return result
  }

  /// Appends a reduced action to the history's records (out of line: the history's types are
  /// internal to this module).
  @usableFromInline
  func appendToHistory(_ reduction: Reduction<Action>) {
    guard let log = self.log, let actions = self.actions else { return }
    actions.append(reduction.action)
    log.append(
      HistoryRecord(
        revision: reduction.revision, time: reduction.time, origin: reduction.origin,
        scope: reduction.scope, scopeAction: reduction.scopeAction, draws: reduction.draws,
        bytes: ByteEstimate.ofHistoryRecord(
          action: reduction.action, scopeAction: reduction.scopeAction,
          draws: reduction.draws.count)))
  }
}
