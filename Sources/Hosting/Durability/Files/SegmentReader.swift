/// Reads the records of one journal segment in order, a few megabytes at a time, so that a
/// segment of any length is read in bounded memory.
///
/// Not `Sendable`: one thread reads a segment at a time (the recovery, or one history read).
final class SegmentReader {
  /// How reading the segment ended.
  enum Ending: Equatable {
    /// After the last record, at the end of the file (`offset` = its length).
    case clean(offset: Int64)
    /// A record (or the file's magic) is cut short at `offset`: the file ends inside it.
    case incomplete(offset: Int64)
    /// The bytes at `offset` are not a valid record.
    case invalid(offset: Int64)
    /// After the last record, at `offset`, the file holds only zeros: space a mapped segment
    /// allocated ahead (its clean end, as if the file were cut there).
    case zeroFilled(offset: Int64)
  }

  /// The file that is not a journal segment at all (its first bytes are not the magic).
  struct NotASegment: Error {}

  let path: String
  private let fd: Int32
  /// The file's length when it was opened: a segment still being appended to is read up to
  /// there, and a damaged length that points past it is known to be cut short without reading.
  let fileSize: Int64
  /// Bytes read and not yet consumed are `storage[start..<end]`; `storage` holds at least one
  /// whole record (it grows for larger ones). Allocated here and freed only in `deinit`; a
  /// payload handed out points into it and is only used until the next call (see `next()`),
  /// before which the bytes it points to are neither moved nor freed.
  private var storage: UnsafeMutableRawBufferPointer
  private var start = 0
  private var end = 0
  /// The file offset of `storage[start]`.
  private var offset: Int64 = 0
  private var atEndOfFile = false

  /// Bytes read per `read(2)`.
  static var chunkSize: Int { 4 << 20 }

  /// Opens `path` for reading.
  init(path: String) throws(FileError) {
    self.path = path
    let fd = try FileSystem.openForReading(path)
    do {
      self.fileSize = try FileSystem.status(fd: fd, path: path).size
    } catch {
      FileSystem.closeFile(fd)
      throw error
    }
    self.fd = fd
    self.storage = .allocate(byteCount: Self.chunkSize, alignment: 16)
  }

  deinit {
    FileSystem.closeFile(self.fd)
    self.storage.deallocate()
  }

  /// What ``next()`` found.
  enum Step {
    /// A record whose checksum matched: its payload (valid until the next call) and offset.
    case record(UnsafeRawBufferPointer, offset: Int64)
    /// No more records.
    case end(Ending)
  }

  private var checkedMagic = false
  private var ending: Ending?

  /// The next record, or how the segment ended.
  ///
  /// The payload points into this reader's buffer: it is valid until the next call, and
  /// must not be kept.
  ///
  /// - Throws: ``NotASegment`` when the file does not start with the segment magic;
  ///   `FileError` when it cannot be read.
  func next() throws -> Step {
    if let ending = self.ending { return .end(ending) }
    if !self.checkedMagic {
      let magic = DataLayout.segmentMagic
      try self.fill(atLeast: magic.count)
      let available = UnsafeRawBufferPointer(rebasing: self.storage[self.start..<self.end])
      if available.count < magic.count {
        // A segment whose magic itself was cut short (or an empty file).
        guard available.elementsEqual(magic.prefix(available.count)) else { throw NotASegment() }
        return self.finish(available.isEmpty ? .clean(offset: 0) : .incomplete(offset: 0))
      }
      guard available.prefix(magic.count).elementsEqual(magic) else { throw NotASegment() }
      self.consume(magic.count)
      self.checkedMagic = true
    }
    try self.fill(atLeast: RecordFrame.headerSize)
    let bytes = UnsafeRawBufferPointer(rebasing: self.storage[self.start..<self.end])
    if bytes.isEmpty { return self.finish(.clean(offset: self.offset)) }
    var scan = RecordFrame.scan(bytes, at: 0)
    if scan == .incomplete, bytes.count >= RecordFrame.headerSize {
      // The record may simply continue past what is buffered: read up to its length.
      let length = Int(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
      guard self.offset + Int64(RecordFrame.headerSize + length) <= self.fileSize else {
        return self.finish(.incomplete(offset: self.offset))
      }
      try self.fill(atLeast: RecordFrame.headerSize + length)
      scan = RecordFrame.scan(
        UnsafeRawBufferPointer(rebasing: self.storage[self.start..<self.end]), at: 0)
    }
    switch scan {
    case .incomplete: return self.finish(.incomplete(offset: self.offset))
    case .invalid:
      let offset = self.offset
      if try self.restIsZero() { return self.finish(.zeroFilled(offset: offset)) }
      return self.finish(.invalid(offset: offset))
    case .record(let payload, let next):
      let base = UnsafeRawBufferPointer(rebasing: self.storage[self.start..<self.end])
      let offset = self.offset
      self.consume(next)
      return .record(UnsafeRawBufferPointer(rebasing: base[payload]), offset: offset)
    }
  }

  /// Whether every byte from the current offset to the end of the file is zero (reads them;
  /// the reader is then done).
  private func restIsZero() throws(FileError) -> Bool {
    while true {
      let bytes = UnsafeRawBufferPointer(rebasing: self.storage[self.start..<self.end])
      guard bytes.allSatisfy({ $0 == 0 }) else { return false }
      if self.offset + Int64(bytes.count) >= self.fileSize { return true }
      self.consume(bytes.count)
      try self.fill(atLeast: min(self.storage.count, Int(self.fileSize - self.offset)))
      if self.end == self.start { return true }
    }
  }

  private func finish(_ ending: Ending) -> Step {
    self.ending = ending
    return .end(ending)
  }

  /// Reads every record, handing each payload (valid only during the call) and its offset to
  /// `body`, and says how the segment ended.
  func forEachRecord(
    _ body: (_ payload: UnsafeRawBufferPointer, _ offset: Int64) throws -> Void
  ) throws -> Ending {
    while true {
      switch try self.next() {
      case .record(let payload, let offset): try body(payload, offset)
      case .end(let ending): return ending
      }
    }
  }

  private func consume(_ count: Int) {
    self.start += count
    self.offset += Int64(count)
  }

  /// Reads until at least `count` bytes are buffered, or the file ends.
  private func fill(atLeast count: Int) throws(FileError) {
    guard self.end - self.start < count, !self.atEndOfFile else { return }
    // Move what is left to the front, and grow for a record larger than the buffer.
    if self.start > 0 {
      let left = self.end - self.start
      if left > 0 {
        self.storage.baseAddress!.copyMemory(
          from: self.storage.baseAddress! + self.start, byteCount: left)
      }
      self.start = 0
      self.end = left
    }
    if count > self.storage.count {
      let grown = UnsafeMutableRawBufferPointer.allocate(
        byteCount: max(count, self.storage.count * 2), alignment: 16)
      grown.baseAddress!.copyMemory(from: self.storage.baseAddress!, byteCount: self.end)
      self.storage.deallocate()
      self.storage = grown
    }
    while self.end - self.start < count, self.offset + Int64(self.end - self.start) < self.fileSize
    {
      let room = Int(
        min(
          Int64(self.storage.count - self.end),
          self.fileSize - self.offset - Int64(self.end - self.start)))
      let read = try FileSystem.readSome(
        self.fd,
        into: UnsafeMutableRawBufferPointer(rebasing: self.storage[self.end..<(self.end + room)]),
        path: self.path)
      if read == 0 {
        self.atEndOfFile = true
        return
      }
      self.end += read
    }
  }
}
