// The host runtime's only contact with libc: everything platform-specific is here.
#if canImport(Glibc)
  import CSystemLinux
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin wrappers over the C library, so the rest of the module needs no `#if`.
@usableFromInline
enum Platform {
  /// The real user id of this process.
  @usableFromInline static var userID: UInt32 { UInt32(getuid()) }

  /// Writes text to stderr in one `write(2)`, so concurrent lines never interleave.
  static func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
  }

  /// Seconds on the monotonic clock.
  static func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// Keeps large buffers (a big collection's storage, a large scope's JSON) in malloc's heap
  /// instead of giving each its own `mmap`: glibc maps every allocation above 128 KiB–32 MiB
  /// afresh and unmaps it on free, so a state whose arrays are copied or regrown per action
  /// paid a page fault per 4 KiB each time (seeding 20,000 to-dos: 6.3 s → 1.6 s). The heap
  /// reuses freed blocks; memory returns to the system when the heap's top is free, and
  /// otherwise when ``trimHeap()`` runs after large buffers were freed.
  @usableFromInline
  static func tuneAllocator() {
    #if canImport(Glibc)
      _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
    #endif
  }

  /// Gives the free memory inside malloc's heaps back to the system (`malloc_trim(0)`: the
  /// free pages of every arena, not only the top of the heap). Its cost grows with the
  /// number of free blocks (milliseconds for a heap of millions of blocks), so it is called
  /// only after large buffers were freed (see ``MemoryReclaimer``).
  static func trimHeap() {
    #if canImport(Glibc)
      _ = malloc_trim(0)
    #endif
  }

  /// The current time as ISO 8601 UTC with seconds, e.g. `2026-11-21T23:40:01Z`.
  static func utcTimestamp() -> String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    func pad(_ value: Int32, _ width: Int = 2) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T"
      + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))Z"
  }
}
