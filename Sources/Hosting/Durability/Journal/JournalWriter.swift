/// The file a journal segment is appended to. ``SegmentFile`` writes a real file; tests wrap it
/// to inject failures (a full disk, an I/O error).
///
/// Appends come from the event loop; ``synchronize()`` and ``close()`` from the journal's
/// background queue. The journal never appends after handing a writer over to be closed.
protocol JournalWriter: AnyObject, Sendable {
  /// The segment's path.
  var path: String { get }
  /// Whether an append costs no system call (a copy into a mapping): the journal then writes
  /// each batch at once rather than gathering an iteration's batches into one write.
  var appendsInMemory: Bool { get }
  /// Appends bytes (hands them to the operating system).
  ///
  /// - Returns: `nil` when every byte was written; else how many were, and the failure.
  func append(_ bytes: UnsafeRawBufferPointer) -> (written: Int, error: FileError)?
  /// Flushes what was appended to the device.
  func synchronize() throws(FileError)
  /// Closes the file; called once, after the last append and synchronize.
  func close()
}

/// A journal segment file opened for appending; a new (empty) file gets the segment magic.
///
/// `@unchecked Sendable`: `fd` and `path` are constants; the journal appends only on the event
/// loop, synchronizes only on its background queue (the kernel orders the two), and closes the
/// file once, on that queue, after its last use.
final class SegmentFile: JournalWriter, @unchecked Sendable {
  let path: String
  var appendsInMemory: Bool { false }
  private let fd: Int32

  /// Opens `path` for appending, creating it with the segment magic if it is new or empty.
  init(appendingTo path: String) throws(FileError) {
    self.path = path
    self.fd = try FileSystem.openForAppending(path)
    do throws(FileError) {
      if try FileSystem.status(fd: self.fd, path: path).size == 0 {
        let magic = DataLayout.segmentMagic
        if let failure = magic.withUnsafeBytes({ FileSystem.writeAll(self.fd, $0, path: path) }) {
          throw failure.error
        }
      }
    } catch {
      FileSystem.closeFile(self.fd)
      throw error
    }
  }

  func append(_ bytes: UnsafeRawBufferPointer) -> (written: Int, error: FileError)? {
    FileSystem.writeAll(self.fd, bytes, path: self.path)
  }

  func synchronize() throws(FileError) {
    try FileSystem.synchronizeData(self.fd, path: self.path)
  }

  func close() {
    FileSystem.closeFile(self.fd)
  }
}
