/// What a durable host recovered when it started: the state it had acknowledged before it
/// stopped (cleanly or not), rebuilt from its data directory.
///
/// Effects do not survive a restart: a timer that was ticking, a request that was in flight
/// are gone, while the state still says they run (`isTimerRunning: true`). The hosting program
/// reads ``StoreHost/recovery`` after `start` and sends what its features need to resume:
///
/// ```swift
/// let host = try await StoreHost.start(…, persistence: .directory(path))
/// if host.recovery != nil, await host.state.counter.isTimerRunning {
///   await host.send(.counter(.stateRestored))   // the counter starts its timer again
/// }
/// ```
public struct Recovery: Sendable, Equatable {
  /// The data directory.
  public var directory: String
  /// The revision recovered: the host continues from here.
  public var revision: Int64
  /// The revision of the snapshot recovery started from.
  public var snapshotRevision: Int64
  /// How many journaled actions were reduced again on top of the snapshot.
  public var replayedActions: Int
  /// How long recovery took.
  public var duration: Duration
  /// Where a torn tail of the journal (bytes a crash left half-written, acknowledging
  /// nothing) was moved, if there was one.
  public var setAsideFile: String?
}
