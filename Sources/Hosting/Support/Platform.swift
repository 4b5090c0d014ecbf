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

  /// This process's resident set size in bytes (from `/proc/self/statm`), or 0 where the
  /// system does not say.
  static func residentBytes() -> Int64 {
    #if canImport(Glibc)
      let file = open("/proc/self/statm", O_RDONLY)
      guard file >= 0 else { return 0 }
      defer { close(file) }
      var buffer = [UInt8](repeating: 0, count: 128)
      let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
      guard count > 0 else { return 0 }
      // "size resident shared …", in pages.
      let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
      guard fields.count > 1, let pages = Int64(String(decoding: fields[1], as: UTF8.self))
      else { return 0 }
      return pages * Int64(sysconf(Int32(_SC_PAGESIZE)))
    #else
      return 0
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
