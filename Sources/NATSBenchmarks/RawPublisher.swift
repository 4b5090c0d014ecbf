import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The floor the client is compared with, in the same run: the least a publisher can do — a
/// blocking socket, `PUB` with a reply subject, a scan for the `MSG` that answers it, no
/// parsing beyond that, no event loop, no JSON. Like the raw-socket client the figures
/// came from.
final class RawPublisher {
  private let fd: Int32
  private var buffer: [UInt8] = []
  private var start = 0

  init(port: Int) throws {
    #if canImport(Glibc)
      self.fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      self.fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var one: Int32 = 1
    _ = setsockopt(self.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(self.fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw RawError("connect failed: errno \(errno)") }
    _ = try self.readLine()  // INFO
    try self.send(Array("CONNECT {\"verbose\":false,\"headers\":true}\r\nSUB _RAW.* 1\r\nPING\r\n".utf8))
    while try self.readLine() != "PONG" {}
  }

  deinit { close(self.fd) }

  struct RawError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  private func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Foundation.send(self.fd, $0.baseAddress, $0.count, 0) }
      guard n > 0 else { throw RawError("send failed: errno \(errno)") }
      offset += n
    }
  }

  private func fill() throws {
    if self.start > 65536 {
      self.buffer.removeFirst(self.start)
      self.start = 0
    }
    var chunk = [UInt8](repeating: 0, count: 65536)
    let n = chunk.withUnsafeMutableBytes { recv(self.fd, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { throw RawError("the server closed the connection") }
    self.buffer += chunk[0..<n]
  }

  private func readLine() throws -> String {
    while true {
      if let newline = self.buffer[self.start...].firstIndex(of: 0x0A) {
        let line = String(decoding: self.buffer[self.start..<(newline - 1)], as: UTF8.self)
        self.start = newline + 1
        return line
      }
      try self.fill()
    }
  }

  /// Reads one `MSG` (an ack) and skips its payload.
  private func readAck() throws {
    var line = try self.readLine()
    while line == "PING" {
      try self.send(Array("PONG\r\n".utf8))
      line = try self.readLine()
    }
    guard line.hasPrefix("MSG "), let size = line.split(separator: " ").last.flatMap({ Int($0) }) else {
      throw RawError("unexpected line: \(line)")
    }
    while self.buffer.count - self.start < size + 2 { try self.fill() }
    self.start += size + 2
  }

  /// Publishes `count` messages of `size` bytes to `subject`, at most `window` in flight.
  func publish(subject: String, size: Int, count: Int, window: Int) throws -> Outcome {
    let payload = [UInt8](repeating: 0x61, count: size)
    var sentAt: [ContinuousClock.Instant] = []
    sentAt.reserveCapacity(count)
    var latencies: [Duration] = []
    latencies.reserveCapacity(count)
    let started = ContinuousClock.now
    var sent = 0
    var acked = 0
    while acked < count {
      var batch: [UInt8] = []
      while sent < count && sent - acked < window {
        batch += Array("PUB \(subject) _RAW.\(sent) \(size)\r\n".utf8)
        batch += payload
        batch += [13, 10]
        sentAt.append(.now)
        sent += 1
      }
      if !batch.isEmpty { try self.send(batch) }
      try self.readAck()
      latencies.append(sentAt[acked].duration(to: .now))
      acked += 1
    }
    return Outcome(latencies: latencies, elapsed: started.duration(to: .now), count: count)
  }
}
