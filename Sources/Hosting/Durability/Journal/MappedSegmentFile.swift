/// A journal segment appended to through a shared memory mapping of the file: a record is
/// handed to the operating system by copying it into the file's page cache — no system call
/// per write, where `write(2)` costs a microsecond (as much as the rest of an action's work).
///
/// ```
///   file:   magic │ records … │ zeros (allocated ahead, 16 MiB at a time) │
///                             ▲ end                                        ▲ allocated
///   mapped:                   └── the 16 MiB window holding `end` ─────────┘
/// ```
///
/// The blocks are allocated ahead with `fallocate(2)` before they are mapped, so a full disk
/// is an error of ``append(_:)`` (the journal then refuses sends and retries), never a
/// `SIGBUS`. Copied bytes are in the page cache at once: they survive the process dying (kill
/// -9 included); `fdatasync(2)` of the file writes them to the device like written ones. Only
/// one window is mapped at a time, so the mapping adds at most 16 MiB to the host's resident
/// memory (file pages, which the kernel can write back and drop), whatever the journal's length.
///
/// Until it is closed (which cuts the file at `end`), the file ends with zeros: readers and
/// recovery treat a run of zeros to the end of a segment as its clean end.
///
/// `@unchecked Sendable`: `fd` and `path` are constants; the window (`window`, `windowStart`)
/// and `end` are only used by ``append(_:)`` on the event loop and by ``close()``, which the
/// journal calls once on its background queue after the loop's last append (the queue's
/// dispatch orders the two); ``synchronize()`` uses only `fd`.
final class MappedSegmentFile: JournalWriter, @unchecked Sendable {
  let path: String
  var appendsInMemory: Bool { true }
  private let fd: Int32
  /// The mapped part of the file: `[windowStart, windowStart + windowSize)`. Mapped in `init`
  /// or `advance()`, unmapped only before the next is mapped or in `close()`, and written
  /// only below `windowStart + windowSize`: every access stays inside a live mapping.
  private var window: UnsafeMutableRawPointer
  private var windowStart: Int
  /// Where the next record goes.
  private var end: Int
  private var isClosed = false

  /// The size of a mapping window and of each allocation ahead (a multiple of any page size).
  static var windowSize: Int { 16 << 20 }

  /// Opens `path` to append through a mapping; `nil` when its file system cannot allocate
  /// ahead (use ``SegmentFile`` then).
  ///
  /// The file must end with its last record (recovery cuts a zero tail): appends start there.
  /// A new or empty file gets the segment magic.
  static func open(_ path: String) throws(FileError) -> MappedSegmentFile? {
    let fd = try FileSystem.openForMapping(path)
    do throws(FileError) {
      var end = Int(try FileSystem.status(fd: fd, path: path).size)
      if end == 0 {
        let magic = DataLayout.segmentMagic
        try FileSystem.writeAll(fd, magic, at: 0, path: path)
        end = DataLayout.segmentMagic.count
      }
      let windowStart = end - end % Self.windowSize
      guard try FileSystem.allocate(fd, upTo: windowStart + Self.windowSize, path: path) else {
        FileSystem.closeFile(fd)
        return nil
      }
      let window = try FileSystem.map(fd, offset: windowStart, length: Self.windowSize, path: path)
      return MappedSegmentFile(
        path: path, fd: fd, window: window, windowStart: windowStart, end: end)
    } catch {
      FileSystem.closeFile(fd)
      throw error
    }
  }

  private init(
    path: String, fd: Int32, window: UnsafeMutableRawPointer, windowStart: Int, end: Int
  ) {
    self.path = path
    self.fd = fd
    self.window = window
    self.windowStart = windowStart
    self.end = end
  }

  func append(_ bytes: UnsafeRawBufferPointer) -> (written: Int, error: FileError)? {
    var done = 0
    while done < bytes.count {
      if self.end == self.windowStart + Self.windowSize {
        do {
          try self.advance()
        } catch {
          return (done, error)
        }
      }
      let count = min(bytes.count - done, self.windowStart + Self.windowSize - self.end)
      (self.window + (self.end - self.windowStart)).copyMemory(
        from: bytes.baseAddress! + done, byteCount: count)
      self.end += count
      done += count
    }
    return nil
  }

  /// Allocates and maps the next window (the current one is full).
  private func advance() throws(FileError) {
    let next = self.windowStart + Self.windowSize
    guard try FileSystem.allocate(self.fd, upTo: next + Self.windowSize, path: self.path) else {
      throw FileError(operation: "fallocate", path: self.path, errno: FileSystem.notSupported)
    }
    let window = try FileSystem.map(self.fd, offset: next, length: Self.windowSize, path: self.path)
    FileSystem.unmap(self.window, length: Self.windowSize)
    self.window = window
    self.windowStart = next
  }

  func synchronize() throws(FileError) {
    // fdatasync writes the page cache's dirty pages of the file, those dirtied through a
    // mapping included.
    try FileSystem.synchronizeData(self.fd, path: self.path)
  }

  func close() {
    guard !self.isClosed else { return }
    self.isClosed = true
    FileSystem.unmap(self.window, length: Self.windowSize)
    // The zeros allocated ahead are not part of the journal.
    try? FileSystem.truncate(self.fd, to: Int64(self.end), path: self.path)
    FileSystem.closeFile(self.fd)
  }
}
