/// Where a host keeps its root state: in memory only, or in a data directory that survives the
/// host process — a journal of every reduced action plus snapshots of the state.
///
/// ```swift
/// let host = try await StoreHost.start(
///   app: "my-app",
///   initialState: AppFeature.State(),
///   reducer: { AppFeature() },
///   scopes: scopes,
///   configuration: HostConfiguration(socketPath: "/tmp/my-app.sock"),
///   persistence: .directory("/var/lib/my-app", fsync: .always)
/// )
/// ```
///
/// With a directory, an action is acknowledged only once its journal record has been handed to
/// the operating system (and, with ``FsyncPolicy/always``, flushed to the device), so an
/// acknowledged action survives the host process dying at any moment; a restarted host serves
/// exactly the acknowledged state, and its revisions continue from where they were.
public struct Persistence: Sendable {
  enum Storage: Sendable, Equatable {
    case memory
    case directory(String)
  }

  let storage: Storage
  /// When journal records are flushed to the device.
  public var fsync: FsyncPolicy
  /// When a snapshot of the state is taken (so that recovery need not replay a long journal).
  public var snapshots: SnapshotPolicy
  /// Whether an existing directory is moved aside (to `<path>.old-<timestamp>`) at start, so
  /// that the host starts empty.
  public var reset: Bool
  /// Opens the file a journal segment is appended to; tests replace it to inject failures.
  var makeWriter: @Sendable (String) throws(FileError) -> any JournalWriter = {
    path throws(FileError) in
    // Through a mapping where the file system can allocate ahead; else with write(2).
    if let mapped = try MappedSegmentFile.open(path) { return mapped }
    return try SegmentFile(appendingTo: path)
  }

  /// In memory only: the state is lost when the host stops.
  public static var inMemory: Persistence {
    Persistence(storage: .memory, fsync: .everySecond, snapshots: SnapshotPolicy(), reset: false)
  }

  /// In the data directory at `path`, created (mode 0700, with missing parents) if needed.
  ///
  /// - Parameters:
  ///   - path: The data directory. One host at a time may use it (a lock refuses a second).
  ///   - fsync: When journal records are flushed to the device.
  ///   - snapshots: When a snapshot of the state is taken.
  ///   - reset: Move an existing directory aside first and start empty.
  public static func directory(
    _ path: String, fsync: FsyncPolicy = .everySecond, snapshots: SnapshotPolicy = SnapshotPolicy(),
    reset: Bool = false
  ) -> Persistence {
    Persistence(storage: .directory(path), fsync: fsync, snapshots: snapshots, reset: reset)
  }

  init(storage: Storage, fsync: FsyncPolicy, snapshots: SnapshotPolicy, reset: Bool) {
    self.storage = storage
    self.fsync = fsync
    self.snapshots = snapshots
    self.reset = reset
  }

  /// The data directory, or `nil` in memory.
  public var directory: String? {
    if case .directory(let path) = self.storage { return path }
    return nil
  }
}

/// When a durable host flushes its journal to the device (`fdatasync`), as Redis's
/// `appendfsync`. In every mode an action is acknowledged only after its record was handed to
/// the operating system, so no acknowledged action is lost when the host process dies; the
/// modes differ on power loss or a kernel crash.
public enum FsyncPolicy: String, Sendable, CaseIterable {
  /// Records are flushed to the device before their actions are acknowledged: nothing
  /// acknowledged is lost on power loss either. Flushes are group commits — one per batch of
  /// actions, never one per action — made off the event loop.
  case always
  /// A background flush once a second: on power loss, about the last second of acknowledged
  /// actions may be lost.
  case everySecond = "everysec"
  /// The host does not flush while it runs (the operating system writes the records back on
  /// its own schedule, typically within 30 seconds); a clean shutdown still flushes.
  case never = "no"

  /// The mode named as on the command line: `always`, `everysec` or `no`.
  public init?(name: String) {
    self.init(rawValue: name)
  }

  /// The mode's name on the command line.
  public var name: String { self.rawValue }
}

/// When a durable host writes a snapshot of its state: once the journal written since the last
/// snapshot has grown by a percentage of that snapshot's size, and by at least a minimum (as
/// Redis's `auto-aof-rewrite-percentage` and `auto-aof-rewrite-min-size`). A snapshot is also
/// written on clean shutdown.
public struct SnapshotPolicy: Sendable, Equatable {
  /// Journal bytes since the last snapshot below which no snapshot is taken (default 64 MiB).
  public var minimumJournalBytes: Int
  /// Journal growth since the last snapshot, as a percentage of that snapshot's size, that
  /// triggers the next one (default 100: when the journal is as large as the snapshot).
  public var growthPercentage: Int

  /// A policy; the defaults match Redis's (64 MiB, 100 %).
  public init(minimumJournalBytes: Int = 64 << 20, growthPercentage: Int = 100) {
    self.minimumJournalBytes = minimumJournalBytes
    self.growthPercentage = growthPercentage
  }

  /// Whether `journalBytes` written since a snapshot of `snapshotBytes` call for a new one.
  func isDue(journalBytes: Int64, snapshotBytes: Int64) -> Bool {
    journalBytes >= self.threshold(snapshotBytes: snapshotBytes)
  }

  /// The journal bytes since a snapshot of `snapshotBytes` at which the next is due.
  func threshold(snapshotBytes: Int64) -> Int64 {
    max(Int64(self.minimumJournalBytes), snapshotBytes * Int64(self.growthPercentage) / 100, 1)
  }
}
