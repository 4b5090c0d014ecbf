import Foundation
import NATSTestSupport
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP server on loopback that plays a NATS server by a script — or breaks the protocol on
/// purpose: the client's behaviour facing garbage, silence and errors is tested against it.
///
/// Each accepted connection runs the script on the server's own thread, with blocking reads
/// bounded by timeouts (the test's thread never blocks).
final class FakeNATSServer: Sendable {
  /// One accepted connection, as the script sees it.
  final class Peer: @unchecked Sendable {
    // @unchecked Sendable: a peer is used only by the server's thread, which runs the script.
    let fd: Int32
    /// Which connection this is (0 for the first).
    let index: Int
    private var buffer: [UInt8] = []

    init(fd: Int32, index: Int) {
      self.fd = fd
      self.index = index
    }

    /// Sends text as it is.
    func send(_ text: String) { self.send(Array(text.utf8)) }

    /// Sends bytes as they are (ignoring a peer that is gone).
    func send(_ bytes: [UInt8]) {
      var offset = 0
      while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes {
          #if canImport(Glibc)
            Glibc.send(self.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
          #else
            Darwin.send(self.fd, $0.baseAddress, $0.count, 0)
          #endif
        }
        guard n > 0 else { return }
        offset += n
      }
    }

    /// An `INFO` line like nats-server's.
    func sendInfo(maxPayload: Int = 1_048_576, extra: String = "") {
      self.send(
        "INFO {\"server_id\":\"FAKE\",\"server_name\":\"fake\",\"version\":\"2.9.10\",\"proto\":1,\"headers\":true,\"max_payload\":\(maxPayload)\(extra)}\r\n"
      )
    }

    /// Reads until a line (without CRLF) satisfying `predicate` arrives; `nil` on timeout or
    /// end of input. Lines before it are returned in `skipped`.
    func readLine(
      timeout: Double = 30, where predicate: (String) -> Bool = { _ in true }
    ) -> (line: String?, skipped: [String]) {
      let deadline = Date().addingTimeInterval(timeout)
      var skipped: [String] = []
      while true {
        if let newline = self.buffer.firstIndex(of: 0x0A) {
          var line = Array(self.buffer[..<newline])
          self.buffer.removeFirst(newline + 1)
          if line.last == 0x0D { line.removeLast() }
          let text = String(decoding: line, as: UTF8.self)
          if predicate(text) { return (text, skipped) }
          skipped.append(text)
          continue
        }
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { return (nil, skipped) }
        var descriptor = pollfd(fd: self.fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(min(remaining, 0.5) * 1000) + 1) > 0 else { continue }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(self.fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return (nil, skipped) }
        self.buffer += chunk[0..<n]
      }
    }

    /// Reads the client's `CONNECT` and `PING` and answers `PONG`: the handshake done.
    @discardableResult
    func completeHandshake() -> Bool {
      guard let connect = self.readLine(where: { $0.hasPrefix("CONNECT ") }).line,
        connect.contains("\"headers\":true"), self.readLine(where: { $0 == "PING" }).line != nil
      else { return false }
      self.send("PONG\r\n")
      return true
    }

    /// Answers `PING`s with `PONG` and records every other line, until the client leaves or
    /// `timeout` passes.
    func serve(timeout: Double = 30, onLine: (String) -> Void = { _ in }) {
      let deadline = Date().addingTimeInterval(timeout)
      while deadline.timeIntervalSinceNow > 0 {
        guard let line = self.readLine(timeout: deadline.timeIntervalSinceNow).line else { return }
        if line == "PING" { self.send("PONG\r\n") } else { onLine(line) }
      }
    }
  }

  let port: Int
  private let listener: Int32
  private let state = Mutex<(accepted: Int, stopped: Bool, lines: [String])>((0, false, []))

  /// `nats://127.0.0.1:<port>`.
  var url: String { "nats://127.0.0.1:\(self.port)" }

  /// How many connections it accepted.
  var accepted: Int { self.state.withLock { $0.accepted } }

  /// Lines the scripts recorded with ``record(_:)``.
  var lines: [String] { self.state.withLock { $0.lines } }

  func record(_ line: String) { self.state.withLock { $0.lines.append(line) } }

  /// Listens on a free loopback port and runs `script` for each connection it accepts.
  init(script: @escaping @Sendable (Peer, FakeNATSServer) -> Void) throws {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard fd >= 0, bound, listen(fd, 16) == 0 else { throw HarnessError("fake server: cannot listen") }
    self.listener = fd
    self.port = Int(UInt16(bigEndian: address.sin_port))
    let thread = Thread { [self] in
      while true {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, 100)
        if self.state.withLock({ $0.stopped }) { break }
        guard ready > 0 else { continue }
        let client = accept(fd, nil, nil)
        guard client >= 0 else { continue }
        let index = self.state.withLock { state -> Int in
          state.accepted += 1
          return state.accepted - 1
        }
        script(Peer(fd: client, index: index), self)
        close(client)
      }
      close(fd)
    }
    thread.start()
  }

  /// Stops accepting (the thread ends after the current script).
  func stop() {
    self.state.withLock { $0.stopped = true }
  }
}
