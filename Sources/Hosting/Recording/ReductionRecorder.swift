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
@usableFromInline
final class ReductionRecorder<Action>: @unchecked Sendable {
  private var sinks: [any ReductionSink<Action>] = []
  private var expected: (origin: ReductionOrigin, scope: String?, action: JSON?)?
  private let tape = DrawTape()

  @usableFromInline init() {}

  /// Whether anything listens (when nothing does, reduces are not recorded at all).
  var isRecording: Bool { !self.sinks.isEmpty }

  /// Adds a sink; called while the host starts, before it reduces anything.
  func add(_ sink: some ReductionSink<Action>) {
    self.sinks.append(sink)
  }

  /// Announces the origin of the next action the store reduces.
  @usableFromInline
  func expect(_ origin: ReductionOrigin, scope: String? = nil, action: JSON? = nil) {
    self.expected = (origin, scope, action)
  }

  /// Forgets an announced origin that no reduce consumed (the send was refused before it).
  func cancelExpectation() {
    self.expected = nil
  }

  /// Runs one reduce (`body`), recording what it drew, then tells the sinks.
  @usableFromInline @inline(__always)
  func record<R>(_ action: Action, revision: () -> Int64, _ body: () -> R) -> R {
    guard !self.sinks.isEmpty else {
      self.expected = nil
      return body()
    }
    self.tape.reset()
    let result = ThreadLocalTape.with(self.tape, body)
    let expected = self.expected ?? (.effect, nil, nil)
    self.expected = nil
    let reduction = Reduction(
      revision: revision(), time: WallClock.milliseconds(), origin: expected.origin,
      scope: expected.scope, scopeAction: expected.action, action: action,
      draws: self.tape.draws)
    for sink in self.sinks { sink.didReduce(reduction) }
    return result
  }
}
