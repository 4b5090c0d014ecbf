import Dispatch

/// Writes snapshots off the event loop, then removes the files no longer needed.
///
/// ```
///   loop:        copy the state (copy-on-write: O(1)), rotate the journal to a new segment
///   background:  encode as JSON ─▶ write <name>.tmp ─▶ fdatasync ─▶ rename ─▶ fsync(dir)
///                ─▶ remove snapshots older than the last two, and the segments before the
///                   older of them
///   loop:        told the result (the snapshot's size, for the next trigger)
/// ```
///
/// The last two snapshots are kept, with every journal segment since the older one: history
/// reaches back to it, and if the newest snapshot is ever damaged the older one and the journal
/// still rebuild the state.
final class Snapshotter<State: Sendable>: Sendable {
  private let queue = DispatchQueue(label: "storehost.snapshot", qos: .utility)
  private let directory: String
  private let codec: StateCodec<State>
  /// How many snapshots are kept.
  static var retained: Int { 2 }

  init(directory: String, codec: StateCodec<State>) {
    self.directory = directory
    self.codec = codec
  }

  /// What a snapshot write came to.
  struct Written: Sendable {
    var revision: Int64
    /// The snapshot file's size in bytes.
    var bytes: Int64
    /// How long encoding and writing took, in seconds.
    var seconds: Double
  }

  /// Writes `state` as the snapshot at `revision` in the background, then prunes; `completion`
  /// runs on the background queue.
  func write(
    _ state: State, revision: Int64,
    completion: @escaping @Sendable (Result<Written, SnapshotFailure>) -> Void
  ) {
    self.queue.async {
      completion(self.writeNow(state, revision: revision))
    }
  }

  /// Writes `state` as the snapshot at `revision` and prunes, waiting for it (at shutdown).
  func writeAndWait(_ state: State, revision: Int64) -> Result<Written, SnapshotFailure> {
    self.queue.sync { self.writeNow(state, revision: revision) }
  }

  /// Waits until no snapshot is being written.
  func waitUntilIdle() {
    self.queue.sync {}
  }

  private func writeNow(_ state: State, revision: Int64) -> Result<Written, SnapshotFailure> {
    let started = Platform.monotonicSeconds()
    let bytes: [UInt8]
    do {
      bytes = try self.codec.encode(state)
    } catch {
      return .failure(SnapshotFailure(description: "the state cannot be written as JSON: \(error)"))
    }
    do {
      try SnapshotFile.write(
        state: bytes, revision: revision, time: WallClock.milliseconds(),
        name: DataLayout.snapshotName(at: revision), in: self.directory)
    } catch {
      return .failure(SnapshotFailure(description: "\(error)"))
    }
    DataRetention.prune(self.directory, keeping: Self.retained)
    return .success(
      Written(
        revision: revision, bytes: Int64(bytes.count),
        seconds: Platform.monotonicSeconds() - started))
  }
}

/// Why a snapshot could not be written.
struct SnapshotFailure: Error, CustomStringConvertible {
  let description: String
}

/// Which files of a data directory are still needed.
enum DataRetention {
  /// Removes the snapshots older than the newest `keeping`, and the journal segments whose
  /// records all precede the oldest snapshot kept. Best effort: a file that cannot be removed
  /// stays (and is tried again after the next snapshot).
  static func prune(_ directory: String, keeping: Int) {
    guard let listing = try? DataLayout.list(directory), listing.snapshots.count > keeping else {
      return
    }
    let kept = listing.snapshots.suffix(keeping)
    let oldest = kept.first!.revision
    for snapshot in listing.snapshots.dropLast(keeping) {
      try? FileSystem.remove(directory + "/" + snapshot.name)
    }
    // Keep the last segment that starts at or before the oldest snapshot kept (it holds the
    // records just after it), and every later one.
    guard let firstKept = listing.segments.lastIndex(where: { $0.revision <= oldest }) else {
      return
    }
    for segment in listing.segments[..<firstKept] {
      try? FileSystem.remove(directory + "/" + segment.name)
    }
  }
}
