import Architecture
import Wire

/// The root store as the host's own code reaches it: from the event loop's thread, with no hop.
///
/// The store's executor is the host's event loop, and every part of the host runs on that
/// loop, so they are already isolated to the store; this says so with a thread check
/// (``Swift/Actor/assumeIsolated(on:_:)``) instead of an actor hop. Both accessors are inlined
/// into their callers: called, each cost a `send` ~11 instructions more (callgrind).
@usableFromInline
struct LoopStore<State: Sendable, Action: Sendable> {
  @usableFromInline let store: StoreActor<State, Action>
  @usableFromInline let loop: EventLoop
  /// Told who sent each action, for the journal and the history.
  @usableFromInline let recorder: ReductionRecorder<Action>

  /// The root state now.
  ///
  /// Read it afresh rather than keep a copy across a reduce: a copy held across one makes the
  /// reduce copy the state it mutates (a whole collection per element action).
  @inlinable var state: State {
    @inline(__always)
    get {
      self.store.assumeIsolated(on: self.loop) { $0.state }
    }
  }

  /// Reduces `action` now, on the loop's thread; its effects start as the store starts them.
  ///
  /// - Parameters:
  ///   - action: The root action.
  ///   - origin: Who sent it (a client or the hosting program), for its record.
  ///   - scope: The scope a client sent it to.
  ///   - json: The action's JSON as the client sent it to `scope`.
  @inlinable @inline(__always)
  func send(_ action: Action, origin: ReductionOrigin, scope: String? = nil, json: JSON? = nil) {
    self.recorder.expect(origin, scope: scope, action: json)
    self.store.assumeIsolated(on: self.loop) { store in _ = store.send(action) }
  }
}
