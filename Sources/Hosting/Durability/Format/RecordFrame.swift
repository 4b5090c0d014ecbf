/// How one record sits in a journal segment (and the header of a snapshot): its length, a
/// checksum, then its payload.
///
/// ```
///   0        4        8                        8 + length
///   ┌────────┬────────┬─────────────────────────┐
///   │ length │ crc32c │ payload (length bytes)  │   length, crc32c: UInt32 little-endian
///   └────────┴────────┴─────────────────────────┘   crc32c covers the length bytes and the
///                                                   payload
/// ```
///
/// The checksum covers the length too, so a damaged length is detected like damaged payload,
/// and a length of 0 is never valid (a payload starts with its kind), so a run of zero bytes —
/// what a file system may leave at the end of a file after a power loss — is not a record.
enum RecordFrame {
  /// Bytes before the payload.
  static var headerSize: Int { 8 }
  /// The largest payload a record may have (larger lengths are damage).
  static var maxPayload: Int { 1 << 30 }

  /// Appends a record whose payload `body` writes.
  static func append(to writer: inout ByteWriter, _ body: (inout ByteWriter) -> Void) {
    let start = writer.bytes.count
    writer.fixed64(0)
    body(&writer)
    let length = UInt32(writer.bytes.count - start - Self.headerSize)
    writer.bytes.withUnsafeMutableBytes { raw in
      raw.storeBytes(of: length.littleEndian, toByteOffset: start, as: UInt32.self)
      let covered = UnsafeRawBufferPointer(rebasing: raw[start...])
      let crc = CRC32C.checksum(
        UnsafeRawBufferPointer(rebasing: covered[8...]),
        continuing: CRC32C.checksum(UnsafeRawBufferPointer(rebasing: covered[0..<4])))
      raw.storeBytes(of: crc.littleEndian, toByteOffset: start + 4, as: UInt32.self)
    }
  }

  /// What is at an offset of a segment's bytes.
  enum Scan: Equatable {
    /// A record whose checksum matches: its payload's range, and where the next one starts.
    case record(payload: Range<Int>, next: Int)
    /// The bytes end before the record does (a write cut short).
    case incomplete
    /// Bytes that are not a valid record (a checksum mismatch, an impossible length).
    case invalid
  }

  /// Reads the record at `offset` of `bytes`.
  static func scan(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Scan {
    let available = bytes.count - offset
    guard available >= Self.headerSize else { return .incomplete }
    let length = Int(
      UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    guard length > 0, length <= Self.maxPayload else { return .invalid }
    guard available - Self.headerSize >= length else { return .incomplete }
    let stored = UInt32(
      littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
    let payload = (offset + Self.headerSize)..<(offset + Self.headerSize + length)
    let crc = CRC32C.checksum(
      UnsafeRawBufferPointer(rebasing: bytes[payload]),
      continuing: CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 4)])))
    guard crc == stored else { return .invalid }
    return .record(payload: payload, next: payload.upperBound)
  }

  /// Where the first valid record after `offset` starts, if any; `nil` when none does.
  ///
  /// Every byte is a candidate (damage may have changed a length, so the boundaries after it
  /// are unknown). A candidate's checksum is only computed once `isPlausible` accepted its
  /// payload (given in place, as the file holds it), which keeps the search linear in
  /// practice: the caller checks what a real record there would have to start with.
  static func firstValidRecord(
    in bytes: UnsafeRawBufferPointer, after offset: Int,
    isPlausible: (UnsafeRawBufferPointer) -> Bool
  ) -> Int? {
    var candidate = offset + 1
    while candidate + Self.headerSize < bytes.count {
      let length = Int(
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: candidate, as: UInt32.self)))
      let start = candidate + Self.headerSize
      if length > 0, length <= bytes.count - start,
        isPlausible(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)])),
        case .record = self.scan(bytes, at: candidate)
      {
        return candidate
      }
      candidate += 1
    }
    return nil
  }
}
