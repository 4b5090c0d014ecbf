/// Writes length-prefixed frames (PROTOCOL.md §1) into an output buffer.
///
/// The payload is serialized by the caller straight into the output buffer, after four reserved
/// bytes that are patched with the big-endian length afterwards — the payload is never copied.
///
/// ```swift
/// var out: [UInt8] = []
/// FrameEncoder.appendFrame(to: &out) { payload in
///   payload.append(contentsOf: #"{"type":"ping","id":1}"#.utf8)
/// }
/// ```
public enum FrameEncoder {
  /// The size of the length prefix, in bytes.
  public static let prefixSize = 4

  /// Appends one frame whose payload `payload` appends to the buffer it is given.
  ///
  /// If `payload` throws, the buffer is restored to its previous contents.
  ///
  /// - Parameters:
  ///   - buffer: The output buffer; the frame is appended after its current contents.
  ///   - payload: Appends the payload's bytes (and only appends) to the buffer it receives.
  /// - Throws: Whatever `payload` throws.
  /// > Important: An empty payload or one above `UInt32.max` bytes is a programmer error
  /// > (a precondition failure); use ``appendFrame(to:maxFrameSize:payload:)`` to bound the size.
  public static func appendFrame<E: Error>(
    to buffer: inout [UInt8],
    payload: (inout [UInt8]) throws(E) -> Void
  ) throws(E) {
    let start = buffer.count
    Self.reservePrefix(in: &buffer)
    do {
      try payload(&buffer)
    } catch {
      buffer.removeSubrange(start...)
      throw error
    }
    let length = buffer.count - start - Self.prefixSize
    precondition(
      length > 0 && UInt64(length) <= UInt64(UInt32.max), "invalid frame length \(length)")
    Self.patchPrefix(in: &buffer, at: start, length: length)
  }

  /// Appends one frame whose payload `payload` appends, enforcing a maximum size.
  ///
  /// A payload that turns out empty or larger than `maxFrameSize` is removed again, leaving
  /// `buffer` as it was, and reported — the host uses this to answer `frame_too_large` instead
  /// of sending a reply larger than its limit (PROTOCOL.md §6).
  ///
  /// - Parameters:
  ///   - buffer: The output buffer; the frame is appended after its current contents.
  ///   - maxFrameSize: The largest payload allowed, in bytes.
  ///   - payload: Appends the payload's bytes (and only appends) to the buffer it receives.
  /// - Throws: ``FrameError/emptyFrame`` or ``FrameError/frameTooLarge(length:limit:)``.
  public static func appendFrame(
    to buffer: inout [UInt8],
    maxFrameSize: Int,
    payload: (inout [UInt8]) -> Void
  ) throws(FrameError) {
    let start = buffer.count
    Self.reservePrefix(in: &buffer)
    payload(&buffer)
    let length = buffer.count - start - Self.prefixSize
    let limit = min(maxFrameSize, Int(UInt32.max))
    guard length > 0, length <= limit else {
      buffer.removeSubrange(start...)
      throw length == 0 ? .emptyFrame : .frameTooLarge(length: length, limit: limit)
    }
    Self.patchPrefix(in: &buffer, at: start, length: length)
  }

  /// Appends one frame carrying a copy of `payload`.
  ///
  /// - Parameters:
  ///   - buffer: The output buffer.
  ///   - payload: The payload bytes; must not be empty.
  public static func appendFrame(to buffer: inout [UInt8], bytes payload: UnsafeRawBufferPointer) {
    precondition(
      !payload.isEmpty && UInt64(payload.count) <= UInt64(UInt32.max),
      "invalid frame length \(payload.count)")
    // Prefix and payload in two appends, the prefix already final.
    withUnsafeBytes(of: UInt32(payload.count).bigEndian) { buffer.append(contentsOf: $0) }
    buffer.append(contentsOf: payload)
  }

  /// Appends one frame carrying a copy of `payload`.
  ///
  /// - Parameters:
  ///   - buffer: The output buffer.
  ///   - payload: The payload bytes; must not be empty.
  public static func appendFrame(to buffer: inout [UInt8], bytes payload: [UInt8]) {
    payload.withUnsafeBytes { Self.appendFrame(to: &buffer, bytes: $0) }
  }

  /// Appends one frame carrying a copy of `payload`.
  ///
  /// - Parameters:
  ///   - buffer: The output buffer.
  ///   - payload: The payload bytes; must not be empty.
  public static func appendFrame(to buffer: inout [UInt8], bytes payload: ArraySlice<UInt8>) {
    payload.withUnsafeBytes { Self.appendFrame(to: &buffer, bytes: $0) }
  }

  /// Appends one frame carrying a copy of `payload`.
  ///
  /// - Parameters:
  ///   - buffer: The output buffer.
  ///   - payload: The payload bytes; must not be empty.
  public static func appendFrame(to buffer: inout [UInt8], bytes payload: some Collection<UInt8>) {
    Self.appendFrame(to: &buffer) { $0.append(contentsOf: payload) }
  }

  /// Returns a single frame carrying `payload`.
  ///
  /// - Parameter payload: The payload bytes; must not be empty.
  /// - Returns: The 4-byte prefix followed by the payload.
  public static func frame(_ payload: some Collection<UInt8>) -> [UInt8] {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(Self.prefixSize + payload.count)
    Self.appendFrame(to: &buffer, bytes: payload)
    return buffer
  }

  private static func reservePrefix(in buffer: inout [UInt8]) {
    withUnsafeBytes(of: UInt32(0)) { buffer.append(contentsOf: $0) }
  }

  private static func patchPrefix(in buffer: inout [UInt8], at start: Int, length: Int) {
    buffer.withUnsafeMutableBytes {
      $0.storeBytes(of: UInt32(length).bigEndian, toByteOffset: start, as: UInt32.self)
    }
  }
}
