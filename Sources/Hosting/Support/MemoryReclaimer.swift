/// Gives the memory of large buffers back to the system once the host has freed them.
///
/// The host keeps allocations up to 32 MiB in malloc's heap for speed
/// (``Platform/tuneAllocator()``); freed, they stay resident until the heap is trimmed, so
/// 40 connections that each sent 15 MiB of a frame and left would leave the host hundreds of
/// MiB larger. The parts of the host that free large buffers — a closed connection's
/// unfinished frame and output, a big frame once handled, a reply buffer above its retained
/// size — note it here; once a second the core asks ``trimIfDue(now:)``, which trims when
/// enough was freed since the last trim. Trimming costs time in proportion to the heap's free
/// blocks (0–1 ms for a small state; 11–38 ms with 100,000 to-dos, measured), hence the
/// threshold, and at most one trim per ``minimumInterval``.
@usableFromInline
final class MemoryReclaimer {
  /// Bytes noted as freed since the last trim. `@exclusivity(unchecked)`: only touched on the
  /// event loop, by ``noteRelease(_:)`` and ``trimIfDue(now:)``, never passed `inout` elsewhere.
  @exclusivity(unchecked) private(set) var released = 0
  /// Freed bytes that make a trim worthwhile.
  let threshold: Int
  /// Seconds between two trims at least, so that a heap with many free blocks does not pause
  /// the event loop every second.
  let minimumInterval: Double
  /// When the last trim ran (monotonic seconds).
  private var lastTrim = -Double.infinity
  /// Trims made so far.
  private(set) var trims = 0

  /// - Parameters:
  ///   - threshold: Freed bytes that make a trim worthwhile (default 8 MiB).
  ///   - minimumInterval: Seconds between two trims at least (default 5).
  init(threshold: Int = 8 << 20, minimumInterval: Double = 5) {
    self.threshold = threshold
    self.minimumInterval = minimumInterval
  }

  /// Notes that `bytes` of large buffers were freed.
  @usableFromInline
  func noteRelease(_ bytes: Int) {
    self.released &+= bytes
  }

  /// Trims the heap if at least ``threshold`` bytes were freed since the last trim, and the
  /// last trim was ``minimumInterval`` or longer ago.
  ///
  /// - Parameter now: The monotonic time in seconds.
  /// - Returns: Whether it trimmed.
  @discardableResult
  func trimIfDue(now: Double) -> Bool {
    guard self.released >= self.threshold, now - self.lastTrim >= self.minimumInterval else {
      return false
    }
    self.released = 0
    self.lastTrim = now
    self.trims += 1
    Platform.trimHeap()
    return true
  }
}
