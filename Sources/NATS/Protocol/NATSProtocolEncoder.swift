/// Writes the client's protocol operations (`CONNECT`, `PUB`, `HPUB`, `SUB`, `UNSUB`, `PING`,
/// `PONG`) into a buffer. Subjects and headers must have been checked (``NATSSubject``,
/// ``NATSHeaders/encodingProblem``): this writes what it is given.
public enum NATSProtocolEncoder {
  /// `PING\r\n`.
  public static let ping: [UInt8] = Array("PING\r\n".utf8)
  /// `PONG\r\n`.
  public static let pong: [UInt8] = Array("PONG\r\n".utf8)

  /// Appends `CONNECT <json>\r\n`.
  public static func appendConnect(json: [UInt8], into buffer: inout [UInt8]) {
    buffer.append(contentsOf: "CONNECT ".utf8)
    buffer.append(contentsOf: json)
    buffer.append(contentsOf: [0x0D, 0x0A])
  }

  /// Appends `PUB` (no headers) or `HPUB` (with headers) and the payload.
  ///
  /// - Parameters:
  ///   - subject: The subject, checked.
  ///   - replyTo: The reply subject, checked, or `nil`.
  ///   - headers: The header block as ``NATSHeaders/encode(into:)`` writes it, or `nil`.
  ///   - payload: The payload.
  ///   - buffer: Receives the operation.
  public static func appendPublish(
    subject: String, replyTo: String?, headers: [UInt8]?, payload: UnsafeRawBufferPointer,
    into buffer: inout [UInt8]
  ) {
    buffer.append(contentsOf: (headers == nil ? "PUB " : "HPUB ").utf8)
    buffer.append(contentsOf: subject.utf8)
    buffer.append(0x20)
    if let replyTo {
      buffer.append(contentsOf: replyTo.utf8)
      buffer.append(0x20)
    }
    if let headers {
      Self.appendDecimal(headers.count, into: &buffer)
      buffer.append(0x20)
      Self.appendDecimal(headers.count + payload.count, into: &buffer)
      buffer.append(contentsOf: [0x0D, 0x0A])
      buffer.append(contentsOf: headers)
    } else {
      Self.appendDecimal(payload.count, into: &buffer)
      buffer.append(contentsOf: [0x0D, 0x0A])
    }
    buffer.append(contentsOf: payload)
    buffer.append(contentsOf: [0x0D, 0x0A])
  }

  /// Appends `SUB <subject> [queue] <sid>\r\n`.
  public static func appendSubscribe(
    subject: String, queue: String?, id: UInt64, into buffer: inout [UInt8]
  ) {
    buffer.append(contentsOf: "SUB ".utf8)
    buffer.append(contentsOf: subject.utf8)
    buffer.append(0x20)
    if let queue {
      buffer.append(contentsOf: queue.utf8)
      buffer.append(0x20)
    }
    Self.appendDecimal(id, into: &buffer)
    buffer.append(contentsOf: [0x0D, 0x0A])
  }

  /// Appends `UNSUB <sid> [max]\r\n`: with `max`, the server ends the subscription after
  /// delivering that many messages in all.
  public static func appendUnsubscribe(id: UInt64, max: Int?, into buffer: inout [UInt8]) {
    buffer.append(contentsOf: "UNSUB ".utf8)
    Self.appendDecimal(id, into: &buffer)
    if let max {
      buffer.append(0x20)
      Self.appendDecimal(max, into: &buffer)
    }
    buffer.append(contentsOf: [0x0D, 0x0A])
  }

  /// Appends a non-negative integer in decimal.
  @inlinable
  public static func appendDecimal(_ value: some BinaryInteger, into buffer: inout [UInt8]) {
    var number = UInt64(value)
    guard number > 0 else {
      buffer.append(0x30)
      return
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
    var count = 0
    withUnsafeMutableBytes(of: &digits) { raw in
      while number > 0 {
        raw[23 - count] = UInt8(truncatingIfNeeded: number % 10) + 0x30
        number /= 10
        count += 1
      }
      buffer.append(contentsOf: raw[(24 - count)...])
    }
  }
}
