/// Gives the memory of large buffers back to the system once the host has freed them.
///
/// The host keeps allocations up to 32 MiB in malloc's heap for speed
/// (``Platform/tuneAllocator()``); freed, they stay resident until the heap is trimmed, so
/// 40 connections that each sent 15 MiB of a frame and left would leave the host hundreds of
/// MiB larger. The parts of the host that free large buffers — a closed connection's
/// unfinished frame and output, a big frame once handled, a reply buffer above its retained
/// size — note it here; once a second the core asks ``trimIfDue()``, which trims when
/// enough was freed since the last trim. Trimming costs time in proportion to the heap's free
/// blocks, hence the threshold rather than a trim every second.
final class MemoryReclaimer {
  /// Bytes noted as freed since the last trim. `@exclusivity(unchecked)`: only touched on the
  /// event loop, by ``noteRelease(_:)`` and ``trimIfDue()``, never passed `inout` elsewhere.
  @exclusivity(unchecked) private(set) var released = 0
  /// Freed bytes that make a trim worthwhile.
  let threshold: Int
  /// Trims made so far.
  private(set) var trims = 0

  /// - Parameter threshold: Freed bytes that make a trim worthwhile (default 8 MiB).
  init(threshold: Int = 8 << 20) {
    self.threshold = threshold
  }

  /// Notes that `bytes` of large buffers were freed.
  func noteRelease(_ bytes: Int) {
    self.released &+= bytes
  }

  /// Trims the heap if at least ``threshold`` bytes were freed since the last trim.
  ///
  /// - Returns: Whether it trimmed.
  @discardableResult
  func trimIfDue() -> Bool {
    guard self.released >= self.threshold else { return false }
    self.released = 0
    self.trims += 1
    Platform.trimHeap()
    return true
  }
}
