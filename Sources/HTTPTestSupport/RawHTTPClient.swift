import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure of the test client (a timeout, a refused connection).
public struct ClientError: Error, CustomStringConvertible {
  /// What went wrong.
  public let description: String
  /// Creates an error.
  public init(_ description: String) { self.description = description }
}

/// A response as the test client read it.
public struct RawResponse: Sendable {
  /// The status code.
  public var status: Int
  /// The header fields, in order.
  public var headers: [(String, String)]
  /// The body.
  public var body: [UInt8]

  /// The first field named `name` (any case).
  public func header(_ name: String) -> String? {
    self.headers.first { $0.0.lowercased() == name.lowercased() }?.1
  }

  /// The body as UTF-8 text.
  public var text: String { String(decoding: self.body, as: UTF8.self) }
}

/// A TCP client for tests that writes whatever bytes a test wants — malformed requests included — and
/// reads responses with a deadline (never a test that hangs).
public final class RawHTTPClient {
  /// The socket.
  public let fd: Int32
  private var buffer: [UInt8] = []
  /// Whether the server closed the connection.
  public private(set) var sawEndOfInput = false

  /// Connects to `address:port` (blocking).
  public init(port: UInt16, address: String = "127.0.0.1") throws {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw ClientError("socket: \(errno)") }
    var socketAddress = sockaddr_in()
    socketAddress.sin_family = sa_family_t(AF_INET)
    socketAddress.sin_port = port.bigEndian
    inet_pton(AF_INET, address, &socketAddress.sin_addr)
    let result = withUnsafePointer(to: &socketAddress) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(fd)
      throw ClientError("connect to \(address):\(port) failed: errno \(errno)")
    }
    self.fd = fd
  }

  deinit { close(self.fd) }

  /// Sends one request on a new connection and reads its response.
  ///
  /// - Parameters:
  ///   - text: The whole request, line ends included.
  ///   - port: The server's port on 127.0.0.1.
  /// - Returns: The response.
  public static func exchange(_ text: String, port: UInt16) throws -> RawResponse {
    let client = try RawHTTPClient(port: port)
    try client.send(text)
    return try client.readResponse()
  }

  /// Sends text as it is (line ends included).
  public func send(_ text: String) throws { try self.send(Array(text.utf8)) }

  /// Sends bytes as they are.
  public func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes {
        #if canImport(Glibc)
          Glibc.send(self.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        #else
          Darwin.send(self.fd, $0.baseAddress, $0.count, 0)
        #endif
      }
      guard n > 0 else { throw ClientError("send failed: errno \(errno)") }
      offset += n
    }
  }

  /// Reads more bytes; `false` at end of input. Throws after `deadline`.
  private func fill(until deadline: Date) throws -> Bool {
    guard !self.sawEndOfInput else { return false }
    while true {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { throw ClientError("timed out waiting for the server") }
      var descriptor = pollfd(fd: self.fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Int32(min(remaining, 1) * 1000) + 1)
      if ready <= 0 { continue }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = chunk.withUnsafeMutableBytes { recv(self.fd, $0.baseAddress, $0.count, 0) }
      if n > 0 {
        self.buffer += chunk[0..<n]
        return true
      }
      if n == 0 || errno == ECONNRESET {
        self.sawEndOfInput = true
        return false
      }
      if errno != EINTR && errno != EAGAIN { throw ClientError("recv failed: errno \(errno)") }
    }
  }

  /// Reads one response (status line, fields, and a body framed by `Content-Length`, or by the
  /// end of the connection without it; none for the answer to `HEAD`).
  public func readResponse(toHead: Bool = false, timeout: Double = 30) throws -> RawResponse {
    let deadline = Date().addingTimeInterval(timeout)
    let separator = Array("\r\n\r\n".utf8)
    var headEnd: Int?
    while headEnd == nil {
      headEnd = self.buffer.firstRange(of: separator)?.upperBound
      if headEnd == nil, !(try self.fill(until: deadline)) {
        throw ClientError(
          "the connection closed before a response: \(String(decoding: self.buffer, as: UTF8.self))"
        )
      }
    }
    let head = String(decoding: self.buffer[0..<headEnd!], as: UTF8.self)
    self.buffer.removeFirst(headEnd!)
    var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    let statusLine = lines.removeFirst().split(separator: " ")
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
      throw ClientError("bad status line: \(head)")
    }
    let headers = lines.map { line -> (String, String) in
      let colon = line.firstIndex(of: ":")!
      return (
        String(line[..<colon]),
        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      )
    }
    var response = RawResponse(status: status, headers: headers, body: [])
    if status == 100 || toHead { return response }
    if let length = response.header("Content-Length").flatMap(Int.init) {
      while self.buffer.count < length {
        guard try self.fill(until: deadline) else { throw ClientError("body cut short") }
      }
      response.body = Array(self.buffer[0..<length])
      self.buffer.removeFirst(length)
    } else {
      while try self.fill(until: deadline) {}
      response.body = self.buffer
      self.buffer.removeAll()
    }
    return response
  }

  /// Reads until the received text contains `text` (for event streams).
  public func readUntil(contains text: String, timeout: Double = 30) throws -> String {
    try self.readUntil(timeout: timeout, "'\(text)'") { $0.contains(text) }
  }

  /// Reads until everything received so far satisfies `done` (for event streams).
  public func readUntil(
    timeout: Double = 30, _ what: String, _ done: (String) -> Bool
  ) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    while !done(String(decoding: self.buffer, as: UTF8.self)) {
      guard try self.fill(until: deadline) else {
        throw ClientError(
          "closed before \(what); got: \(String(decoding: self.buffer, as: UTF8.self))")
      }
    }
    return String(decoding: self.buffer, as: UTF8.self)
  }

  /// Waits until the server closes the connection; returns what it sent meanwhile.
  public func readUntilClosed(timeout: Double = 30) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    while try self.fill(until: deadline) {}
    return String(decoding: self.buffer, as: UTF8.self)
  }
}
