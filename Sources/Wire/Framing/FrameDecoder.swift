/// An incremental decoder for the store protocol's length-prefixed frames (PROTOCOL.md §1).
///
/// ```
///   0         4                    4 + N
///   +---------+--------------------+---------+-------------------
///   | N (u32, | N bytes of UTF-8   | N' ...  | payload'
///   |  BE)    | JSON (the payload) |         |
///   +---------+--------------------+---------+-------------------
/// ```
///
/// Feed it byte chunks split anywhere — inside the 4-byte prefix, many frames per chunk — and
/// take complete payloads out, in order. Each length prefix is checked against
/// ``maxFrameSize`` as soon as its four bytes are known, before a single byte of that payload
/// is buffered, so a peer announcing a 4 GiB frame costs nothing. Memory grows only with the
/// bytes actually received: the buffer doubles as they arrive (never past the end of the
/// frames announced so far), so a peer that announces 16 MiB and sends 100 bytes makes the
/// decoder hold a few hundred bytes, and a big frame is still copied a bounded number of times.
///
/// Two ways to drive it:
///
/// ```swift
/// // 1. Buffering: append chunks, then pull frames (each a slice of the internal buffer).
/// decoder.append(chunk)
/// while let payload = try decoder.nextFrame() { handle(payload) }
///
/// // 2. Streaming: frames that lie entirely inside `chunk` are handed over in place, with no
/// //    copy at all; only a trailing partial frame is buffered.
/// try decoder.decode(chunk) { payload in handle(payload) }
/// ```
///
/// After an error the decoder stays failed: frames that preceded the bad prefix are still
/// delivered, then every call throws the same ``FrameError``.
///
/// > Important: A slice returned by ``nextFrame()`` shares the decoder's storage. Use it before
/// > the next ``append(_:)-(UnsafeRawBufferPointer)`` (or copy it with `Array(_:)`); holding it
/// > across an append is correct but forces a copy of the buffer.
public struct FrameDecoder: Sendable {
  /// The largest payload accepted, in bytes.
  public let maxFrameSize: Int

  /// Buffered bytes; `buffer[head...]` is not yet consumed.
  private var buffer: [UInt8] = []
  private var head = 0
  /// Where the next frame header not yet validated starts, in `buffer` coordinates. It is past
  /// `buffer.count` while the payload of the last validated frame is still arriving.
  private var scan = 0
  private var failure: FrameError?

  /// Buffer capacity kept across frames (one read's worth); a larger buffer (left by a big
  /// frame) is released once it is empty, so an idle connection does not pin megabytes.
  private static let retainedCapacity = 64 * 1024

  /// Creates a decoder.
  ///
  /// - Parameter maxFrameSize: The largest payload accepted, in bytes (default 16 MiB). Must be
  ///   between 1 and `UInt32.max`.
  public init(maxFrameSize: Int = 16 * 1024 * 1024) {
    precondition(
      maxFrameSize > 0 && UInt64(maxFrameSize) <= UInt64(UInt32.max),
      "maxFrameSize must be in 1...UInt32.max")
    self.maxFrameSize = maxFrameSize
  }

  /// The number of bytes buffered and not yet returned as frames.
  ///
  /// At end of input, after draining ``nextFrame()``, a non-zero value means the peer stopped
  /// in the middle of a frame.
  public var bufferedByteCount: Int { self.buffer.count - self.head }

  /// The capacity of the internal buffer (for tests of its growth).
  var bufferCapacity: Int { self.buffer.capacity }

  /// The error the decoder has failed with, if any.
  public var error: FrameError? { self.failure }

  // MARK: - Buffering interface

  /// Appends a chunk of the byte stream.
  ///
  /// Every length prefix completed by this chunk is validated immediately; on a bad prefix the
  /// decoder keeps the frames before it, drops the rest of the chunk and records the error,
  /// which ``nextFrame()`` throws once those frames are taken.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard self.failure == nil, !bytes.isEmpty else { return }
    self.compact()
    var copied = 0  // input bytes already in the buffer
    var pos: Int  // where the next header starts, in input coordinates
    if self.scan < self.buffer.count {
      // Part of a header is buffered: complete it from the input first.
      let needed = 4 - (self.buffer.count - self.scan)
      guard bytes.count >= needed else {
        self.buffer.append(contentsOf: bytes)
        return
      }
      self.buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<needed]))
      copied = needed
      let length = self.buffer.withUnsafeBytes { Self.length(in: $0, at: self.scan) }
      if let error = self.validate(length) {
        self.buffer.removeLast(4)
        self.scan = self.buffer.count
        self.failure = error
        return
      }
      self.scan += 4 + length
      pos = needed + length
    } else {
      pos = self.scan - self.buffer.count
    }
    // Validate every header that lies wholly inside the input, without copying.
    var end = bytes.count
    while pos <= bytes.count - 4 {
      let length = Self.length(in: bytes, at: pos)
      if let error = self.validate(length) {
        self.failure = error
        end = pos
        break
      }
      pos += 4 + length
    }
    let base = self.buffer.count - copied  // buffer offset of input byte 0
    // Grow by doubling as bytes arrive (linear copying overall), but never reserve room for
    // bytes that have not arrived past what the frames announced so far need: an announced
    // length is a peer's claim, not memory to hand out.
    let needed = base + end
    if needed > self.buffer.capacity {
      let announced = base + (self.failure == nil ? pos : end)
      self.buffer.reserveCapacity(max(needed, min(2 * self.buffer.capacity, announced)))
    }
    self.buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[copied..<end]))
    self.scan = self.failure == nil ? base + pos : self.buffer.count
  }

  /// Appends a chunk of the byte stream; see ``append(_:)-(UnsafeRawBufferPointer)``.
  public mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { self.append($0) }
  }

  /// Returns the next complete payload, or `nil` when more bytes are needed.
  ///
  /// - Returns: The payload, without its length prefix, as a slice of the internal buffer.
  /// - Throws: ``FrameError`` once every frame that preceded a bad length prefix is taken.
  public mutating func nextFrame() throws(FrameError) -> ArraySlice<UInt8>? {
    let available = self.buffer.count - self.head
    if available >= 4 {
      let length = self.buffer.withUnsafeBytes { Self.length(in: $0, at: self.head) }
      guard available - 4 >= length else { return nil }
      let start = self.head + 4
      self.head = start + length
      return self.buffer[start..<start + length]
    }
    if available == 0, let failure = self.failure { throw failure }
    return nil
  }

  // MARK: - Streaming interface

  /// Decodes a chunk of the byte stream, calling `onFrame` with each complete payload in order.
  ///
  /// Frames lying wholly inside `bytes` are passed as views into `bytes` (no copy); a frame
  /// that started in an earlier chunk is completed from the buffer, and a trailing partial
  /// frame is buffered for the next call. The pointer passed to `onFrame` is valid only during
  /// that call.
  ///
  /// - Parameters:
  ///   - bytes: The next chunk of the stream.
  ///   - onFrame: Called once per complete payload, without its length prefix.
  /// - Throws: ``FrameError`` at the first bad length prefix, after the frames before it.
  public mutating func decode(
    _ bytes: UnsafeRawBufferPointer,
    onFrame: (UnsafeRawBufferPointer) -> Void
  ) throws(FrameError) {
    var offset = 0
    // Deliver what is buffered, completing a partial frame from the input as needed.
    while self.head < self.buffer.count || self.failure != nil {
      while let frame = try self.nextFrame() {
        frame.withUnsafeBytes(onFrame)
      }
      if self.head == self.buffer.count { break }
      let available = self.buffer.count - self.head
      let needed =
        available < 4
        ? 4 - available
        : 4 + self.buffer.withUnsafeBytes { Self.length(in: $0, at: self.head) } - available
      let take = min(needed, bytes.count - offset)
      guard take > 0 else { return }
      self.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + take]))
      offset += take
    }
    // Nothing is buffered now: hand out frames straight from the input.
    var pos = offset
    while bytes.count - pos >= 4 {
      let length = Self.length(in: bytes, at: pos)
      if let error = self.validate(length) {
        self.failure = error
        throw error
      }
      guard bytes.count - pos - 4 >= length else { break }
      onFrame(UnsafeRawBufferPointer(rebasing: bytes[pos + 4..<pos + 4 + length]))
      pos += 4 + length
    }
    if pos < bytes.count {
      self.append(UnsafeRawBufferPointer(rebasing: bytes[pos...]))
    }
  }

  /// Decodes a chunk of the byte stream; see ``decode(_:onFrame:)-(UnsafeRawBufferPointer,_)``.
  public mutating func decode(
    _ bytes: [UInt8],
    onFrame: (UnsafeRawBufferPointer) -> Void
  ) throws(FrameError) {
    // `withUnsafeBytes` is untyped `rethrows`, so the error travels out as a value.
    let failure: FrameError? = bytes.withUnsafeBytes { raw in
      do throws(FrameError) {
        try self.decode(raw, onFrame: onFrame)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  // MARK: - Internals

  private func validate(_ length: Int) -> FrameError? {
    if length == 0 { return .emptyFrame }
    if length > self.maxFrameSize {
      return .frameTooLarge(length: length, limit: self.maxFrameSize)
    }
    return nil
  }

  private static func length(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
    Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
  }

  /// Drops consumed bytes. Moving the unconsumed tail only when it is no longer than the
  /// consumed head keeps the cost linear in the bytes decoded (no quadratic compaction).
  private mutating func compact() {
    guard self.head > 0 else { return }
    if self.head == self.buffer.count {
      if self.buffer.capacity > Self.retainedCapacity {
        self.buffer = []
      } else {
        self.buffer.removeAll(keepingCapacity: true)
      }
    } else if self.head >= self.buffer.count - self.head {
      self.buffer.removeSubrange(..<self.head)
    } else {
      return
    }
    self.scan -= self.head
    self.head = 0
  }
}
