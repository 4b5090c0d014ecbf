import Wire

/// Allocation-free encoding and decoding of the few frames a load generator handles per
/// action. Anything that does not match the expected shape exactly is left to the full
/// decoder, so this only ever speeds up, never changes, what is understood.
enum FastFrames {
  /// The `send` frames of one scope and action: the parts around the request id, ready to be
  /// copied into an outbound buffer.
  struct SendTemplate: Sendable {
    /// `{"type":"send","id":`
    let prefix: [UInt8]
    /// `,"scope":"…","action":…}`
    let suffix: [UInt8]
    /// The complete frame without an id (fire and forget), prefix included.
    let frameWithoutID: [UInt8]

    /// Prepares the frames for `action` sent to `scope`.
    init(scope: String, action: JSON) {
      self.prefix = Array(#"{"type":"send","id":"#.utf8)
      var suffix = Array(#","scope":"#.utf8)
      JSON.string(scope).serialize(into: &suffix)
      suffix.append(contentsOf: #","action":"#.utf8)
      action.serialize(into: &suffix)
      suffix.append(UInt8(ascii: "}"))
      self.suffix = suffix
      var frame: [UInt8] = []
      FrameEncoder.appendFrame(to: &frame) { payload in
        payload.append(contentsOf: #"{"type":"send","scope":"#.utf8)
        JSON.string(scope).serialize(into: &payload)
        payload.append(contentsOf: #","action":"#.utf8)
        action.serialize(into: &payload)
        payload.append(UInt8(ascii: "}"))
      }
      self.frameWithoutID = frame
    }

    /// Appends the frame of a `send` with `id`.
    func append(id: Int64, to buffer: inout [UInt8]) {
      FrameEncoder.appendFrame(to: &buffer) { payload in
        payload.append(contentsOf: self.prefix)
        FastFrames.appendDecimal(id, to: &payload)
        payload.append(contentsOf: self.suffix)
      }
    }
  }

  /// Appends the frame of `{"type":"ping","id":N}`.
  static func appendPing(id: Int64, to buffer: inout [UInt8]) {
    FrameEncoder.appendFrame(to: &buffer) { payload in
      payload.append(contentsOf: #"{"type":"ping","id":"#.utf8)
      Self.appendDecimal(id, to: &payload)
      payload.append(UInt8(ascii: "}"))
    }
  }

  /// Appends a non-negative integer's decimal digits.
  static func appendDecimal(_ value: Int64, to buffer: inout [UInt8]) {
    precondition(value >= 0, "ids are non-negative")
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                 UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { scratch in
      repeat {
        scratch[count] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
        count += 1
      } while rest > 0
      for index in stride(from: count - 1, through: 0, by: -1) { buffer.append(scratch[index]) }
    }
  }

  // MARK: - Decoding

  private static let ackPrefix = Array(#"{"type":"ack","id":"#.utf8)
  private static let revKey = Array(#","rev":"#.utf8)
  private static let pongPrefix = Array(#"{"type":"pong","id":"#.utf8)
  private static let patchPrefix = Array(#"{"type":"patch","#.utf8)
  private static let baseKey = Array(#""base":"#.utf8)
  private static let revMember = Array(#""rev":"#.utf8)
  private static let opsKey = Array(#""ops":"#.utf8)

  /// `{"type":"ack","id":N,"rev":R}` exactly → `(N, R)`.
  static func ack(_ payload: UnsafeRawBufferPointer) -> (id: Int64, rev: Int64)? {
    var index = 0
    guard Self.expect(Self.ackPrefix, in: payload, at: &index),
      let id = Self.integer(in: payload, at: &index),
      Self.expect(Self.revKey, in: payload, at: &index),
      let rev = Self.integer(in: payload, at: &index),
      index == payload.count - 1, payload[index] == UInt8(ascii: "}")
    else { return nil }
    return (id, rev)
  }

  /// `{"type":"pong","id":N}` exactly → `N`.
  static func pong(_ payload: UnsafeRawBufferPointer) -> Int64? {
    var index = 0
    guard Self.expect(Self.pongPrefix, in: payload, at: &index),
      let id = Self.integer(in: payload, at: &index),
      index == payload.count - 1, payload[index] == UInt8(ascii: "}")
    else { return nil }
    return id
  }

  /// The `base` and `rev` of a `patch` whose `base` and `rev` members come before `ops` (as
  /// Wire's encoder writes them); `nil` for anything else.
  static func patchRevisions(_ payload: UnsafeRawBufferPointer) -> (base: Int64, rev: Int64)? {
    var index = 0
    guard Self.expect(Self.patchPrefix, in: payload, at: &index) else { return nil }
    var base: Int64?
    var rev: Int64?
    // Only members before "ops" are looked at: nothing before it can be a string that
    // contains these keys (the members there are numbers).
    while index < payload.count {
      if Self.matches(Self.opsKey, in: payload, at: index) { break }
      if Self.matches(Self.baseKey, in: payload, at: index) {
        index += Self.baseKey.count
        base = Self.integer(in: payload, at: &index)
        continue
      }
      if Self.matches(Self.revMember, in: payload, at: index) {
        index += Self.revMember.count
        rev = Self.integer(in: payload, at: &index)
        continue
      }
      index += 1
    }
    guard let base, let rev else { return nil }
    return (base, rev)
  }

  private static func matches(_ literal: [UInt8], in bytes: UnsafeRawBufferPointer, at index: Int) -> Bool {
    guard bytes.count - index >= literal.count else { return false }
    for offset in 0..<literal.count where bytes[index + offset] != literal[offset] { return false }
    return true
  }

  private static func expect(_ literal: [UInt8], in bytes: UnsafeRawBufferPointer, at index: inout Int) -> Bool {
    guard Self.matches(literal, in: bytes, at: index) else { return false }
    index += literal.count
    return true
  }

  /// A non-negative decimal integer of at most 18 digits (no sign, no leading zeros).
  private static func integer(in bytes: UnsafeRawBufferPointer, at index: inout Int) -> Int64? {
    var value: Int64 = 0
    let start = index
    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
      value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
      index += 1
      if index - start > 18 { return nil }
    }
    let count = index - start
    guard count > 0, count == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
    return value
  }
}
