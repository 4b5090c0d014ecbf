import Foundation
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A deliberately plain protocol client for tests: a blocking socket with poll(2) timeouts,
/// so a test controls exactly which bytes go out and when it reads (or stops reading).
final class WireClient {
  let fd: Int32
  private var decoder = FrameDecoder(maxFrameSize: 256 << 20)
  private var pending: [JSON] = []
  /// Frames received, counted by type.
  private(set) var received: [String: Int] = [:]

  init(path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes.prefix(raw.count - 1))
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else {
      let code = errno
      close(fd)
      throw HarnessError("connect to \(path): errno \(code)")
    }
  }

  deinit { close(fd) }

  /// A client connected to `path` that has said hello and read the welcome.
  static func greeted(path: String) throws -> WireClient {
    let client = try WireClient(path: path)
    try client.hello()
    return client
  }

  /// Writes bytes exactly as given.
  func sendRaw(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard written > 0 else { throw HarnessError("send: errno \(errno)") }
      offset += written
    }
  }

  /// Frames and sends a JSON text.
  func send(_ text: String) throws {
    try sendRaw(Self.frame(Array(text.utf8)))
  }

  static func frame(_ payload: [UInt8]) -> [UInt8] {
    let length = UInt32(payload.count)
    return [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)] + payload
  }

  /// The next frame as JSON, waiting up to `timeout` seconds.
  func next(timeout: Double = 10) throws -> JSON {
    if !pending.isEmpty { return pending.removeFirst() }
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let frame = try decoder.nextFrame() {
        let json = try JSON(parsing: frame)
        if case .string(let type)? = json["type"] { received[type, default: 0] += 1 }
        return json
      }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { throw HarnessError("no frame within \(timeout) s") }
      guard try readSome(timeout: remaining) else { throw HarnessError("the host closed the connection") }
    }
  }

  /// The next frame's payload, unparsed (for large snapshots a test only counts).
  func nextRaw(timeout: Double = 10) throws -> [UInt8] {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let frame = try decoder.nextFrame() { return Array(frame) }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { throw HarnessError("no frame within \(timeout) s") }
      guard try readSome(timeout: remaining) else { throw HarnessError("the host closed the connection") }
    }
  }

  /// The next frame of the given type, failing on any other.
  func expect(_ type: String, timeout: Double = 10) throws -> JSON {
    let message = try next(timeout: timeout)
    guard message["type"] == .string(type) else {
      throw HarnessError("expected \(type), got \(message.compactString)")
    }
    return message
  }

  /// Reads until EOF; `true` when the host closed the connection within `timeout`.
  func waitForClose(timeout: Double = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while deadline.timeIntervalSinceNow > 0 {
      do {
        if try !readSome(timeout: deadline.timeIntervalSinceNow) { return true }
      } catch {
        return true
      }
    }
    return false
  }

  /// Reads what is available; `false` at EOF.
  private func readSome(timeout: Double) throws -> Bool {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, Int32(max(1, timeout * 1000)))
    if ready == 0 { return true }
    var buffer = [UInt8](repeating: 0, count: 65536)
    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count == 0 { return false }
    if count < 0 {
      if errno == EINTR || errno == EAGAIN { return true }
      if errno == ECONNRESET { return false }
      throw HarnessError("recv: errno \(errno)")
    }
    buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    return true
  }

  /// Says hello and returns the welcome.
  @discardableResult
  func hello() throws -> JSON {
    try send(#"{"type":"hello","protocol":1,"client":"hosting-tests"}"#)
    return try expect("welcome")
  }

  /// Sends a request and returns the next frame.
  func request(_ text: String) throws -> JSON {
    try send(text)
    return try next()
  }

  /// Sends a request and returns the reply carrying its `id`, passing over pushes (`patch`,
  /// `entry`) that arrive first — for hosts whose effects may still reduce actions.
  func reply(to text: String, id: Int64, timeout: Double = 10) throws -> JSON {
    try send(text)
    while true {
      let message = try next(timeout: timeout)
      if message["id"]?.int == id { return message }
    }
  }
}

extension JSON {
  /// Member access for tests: `message["type"]`.
  subscript(key: String) -> JSON? {
    guard case .object(let object) = self else { return nil }
    return object[key]
  }

  /// Element access for tests.
  subscript(index: Int) -> JSON? {
    guard case .array(let array) = self, array.indices.contains(index) else { return nil }
    return array[index]
  }

  var int: Int64? {
    if case .int(let value) = self { return value }
    return nil
  }

  var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  var array: [JSON]? {
    if case .array(let value) = self { return value }
    return nil
  }
}
