/// Appends the fields of a record to a byte buffer: fixed-width little-endian integers,
/// LEB128 variable-length integers (one byte below 128), and length-prefixed byte strings.
struct ByteWriter {
  var bytes: [UInt8]

  init(reservingCapacity capacity: Int = 0) {
    self.bytes = []
    self.bytes.reserveCapacity(capacity)
  }

  mutating func byte(_ value: UInt8) {
    self.bytes.append(value)
  }

  mutating func fixed32(_ value: UInt32) {
    withUnsafeBytes(of: value.littleEndian) { self.bytes.append(contentsOf: $0) }
  }

  mutating func fixed64(_ value: UInt64) {
    withUnsafeBytes(of: value.littleEndian) { self.bytes.append(contentsOf: $0) }
  }

  mutating func varint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      self.bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    self.bytes.append(UInt8(value))
  }

  /// A signed integer, zig-zag encoded so that small negative numbers stay short.
  mutating func signedVarint(_ value: Int64) {
    self.varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  /// A byte string: its length, then its bytes.
  mutating func data(_ value: some Collection<UInt8>) {
    self.varint(UInt64(value.count))
    self.bytes.append(contentsOf: value)
  }

  /// An optional string: 0 for `nil`, else its length plus one, then its UTF-8 bytes.
  mutating func optionalString(_ value: String?) {
    guard var value else {
      self.varint(0)
      return
    }
    value.withUTF8 { utf8 in
      self.varint(UInt64(utf8.count) + 1)
      self.bytes.append(contentsOf: utf8)
    }
  }
}

/// Reads what a ``ByteWriter`` wrote, from a borrowed buffer; every read checks the bounds and
/// throws ``Truncated`` rather than read past them (records come from disk: never trusted).
struct ByteReader {
  /// A read ran past the end of the buffer, or a value does not fit its type.
  struct Truncated: Error {}

  let buffer: UnsafeRawBufferPointer
  private(set) var offset: Int

  init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
    self.buffer = buffer
    self.offset = offset
  }

  var isAtEnd: Bool { self.offset >= self.buffer.count }

  mutating func byte() throws(Truncated) -> UInt8 {
    guard self.offset < self.buffer.count else { throw Truncated() }
    defer { self.offset += 1 }
    return self.buffer[self.offset]
  }

  mutating func fixed32() throws(Truncated) -> UInt32 {
    guard self.buffer.count - self.offset >= 4 else { throw Truncated() }
    defer { self.offset += 4 }
    return UInt32(
      littleEndian: self.buffer.loadUnaligned(fromByteOffset: self.offset, as: UInt32.self))
  }

  mutating func fixed64() throws(Truncated) -> UInt64 {
    guard self.buffer.count - self.offset >= 8 else { throw Truncated() }
    defer { self.offset += 8 }
    return UInt64(
      littleEndian: self.buffer.loadUnaligned(fromByteOffset: self.offset, as: UInt64.self))
  }

  mutating func varint() throws(Truncated) -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let byte = try self.byte()
      guard shift < 64 else { throw Truncated() }
      result |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return result }
      shift += 7
    }
  }

  mutating func signedVarint() throws(Truncated) -> Int64 {
    let raw = try self.varint()
    return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
  }

  /// A varint that must fit an `Int` and be at most `limit`.
  mutating func count(atMost limit: Int) throws(Truncated) -> Int {
    let value = try self.varint()
    guard value <= UInt64(limit) else { throw Truncated() }
    return Int(value)
  }

  /// The next `count` bytes, in place.
  mutating func bytes(_ count: Int) throws(Truncated) -> UnsafeRawBufferPointer {
    guard count >= 0, self.buffer.count - self.offset >= count else { throw Truncated() }
    defer { self.offset += count }
    return UnsafeRawBufferPointer(rebasing: self.buffer[self.offset..<(self.offset + count)])
  }

  /// A byte string written by ``ByteWriter/data(_:)``, in place.
  mutating func data() throws(Truncated) -> UnsafeRawBufferPointer {
    try self.bytes(try self.count(atMost: self.buffer.count - self.offset))
  }

  /// An optional string written by ``ByteWriter/optionalString(_:)``, in place.
  mutating func optionalStringBytes() throws(Truncated) -> UnsafeRawBufferPointer? {
    let stored = try self.count(atMost: self.buffer.count - self.offset + 1)
    guard stored > 0 else { return nil }
    return try self.bytes(stored - 1)
  }

  /// An optional string written by ``ByteWriter/optionalString(_:)``.
  mutating func optionalString() throws(Truncated) -> String? {
    try self.optionalStringBytes().map { String(decoding: $0, as: UTF8.self) }
  }
}
