@_spi(ChangeTracking) import Architecture

/// The holders of a host's memory that are bounded in bytes, read together: for the `_host`
/// figures (``HostFigures/Memory``), and, once a second, for what they let go of since, which
/// the ``MemoryReclaimer`` gives back to the system (malloc keeps freed blocks of up to 32 MiB
/// in its heap, see ``Platform/tuneAllocator()``).
///
/// Confined to the host's event loop, like the holders it reads.
final class RetainedMemory {
  private let changeLogs: IdentifiedArrayChangeBudget
  private let history: (entries: () -> Int, bytes: () -> Int, dropped: () -> Int)?
  private let unfinishedFrames: () -> Int
  /// The holders' released totals at the last ``releasedSinceLastCall()``.
  private var lastReleased = 0

  /// - Parameters:
  ///   - changeLogs: The budget of the change logs of watched collections.
  ///   - history: How many entries the history in memory holds, their bytes, and the bytes
  ///     it dropped so far (`nil` without a history).
  ///   - unfinishedFrames: The bytes of frames not yet read whole.
  init(
    changeLogs: IdentifiedArrayChangeBudget,
    history: (entries: () -> Int, bytes: () -> Int, dropped: () -> Int)?,
    unfinishedFrames: @escaping () -> Int
  ) {
    self.changeLogs = changeLogs
    self.history = history
    self.unfinishedFrames = unfinishedFrames
  }

  /// What each holder keeps now.
  var figures: HostFigures.Memory {
    HostFigures.Memory(
      residentBytes: Platform.residentBytes(),
      historyEntries: Int64(self.history?.entries() ?? 0),
      historyBytes: Int64(self.history?.bytes() ?? 0),
      changeLogBytes: Int64(self.changeLogs.heldBytes),
      unfinishedFrameBytes: Int64(self.unfinishedFrames()))
  }

  /// Lets the change logs free what no watcher can ask for any more (watchers that left),
  /// then returns the bytes the history and the change logs let go of since the last call.
  func releaseUnwatched() -> Int {
    self.changeLogs.releaseUnwatched()
    let total = self.changeLogs.releasedBytes &+ (self.history?.dropped() ?? 0)
    defer { self.lastReleased = total }
    return total &- self.lastReleased
  }
}
