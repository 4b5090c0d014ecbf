import Foundation
import Synchronization
import Testing

@testable import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// TCP client connections on the event loop: name resolution, a round trip through a real
/// listener, a refused port.
@Suite struct TCPConnectTests {
  @Test func resolvesLiteralsWithoutLookupAndNamesWithIt() throws {
    let v4 = try TCPAddress.resolve(host: "127.0.0.1", port: 4222, numericOnly: true)
    #expect(v4.map(\.description) == ["127.0.0.1:4222"])
    let v6 = try TCPAddress.resolve(host: "::1", port: 80, numericOnly: true)
    #expect(v6.first?.isIPv6 == true && v6.first?.description == "[::1]:80")
    do {
      _ = try TCPAddress.resolve(host: "localhost", port: 1, numericOnly: true)
      Issue.record("a name was accepted as a literal")
    } catch {
      #expect(error.code == .noSuchFile)
      #expect(error.description.contains("localhost:1"))
    }
    let named = try TCPAddress.resolve(host: "localhost", port: 7)
    #expect(named.contains { $0.host == "127.0.0.1" || $0.host == "::1" })
  }

  @Test func carriesBytesBothWaysThroughARealTCPListener() async throws {
    let (listener, port) = try Self.listen()
    defer { close(listener) }
    // The peer: accepts one connection and echoes what it reads, upper-cased.
    let peer = Thread {
      let client = accept(listener, nil, nil)
      guard client >= 0 else { return }
      var buffer = [UInt8](repeating: 0, count: 64)
      let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
      if n > 0 {
        let reply = Array(String(decoding: buffer[0..<n], as: UTF8.self).uppercased().utf8)
        _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
      }
      close(client)
    }
    peer.start()
    let loop = EventLoop(name: "tcp-test")
    defer { loop.shutdownGracefully() }
    let received = Mutex<[UInt8]>([])
    let closed = Mutex<SocketError??>(nil)
    let address = try TCPAddress.resolve(host: "127.0.0.1", port: UInt16(port), numericOnly: true)[0]
    try await loop.submit {
      let connection = try UnixConnection.connect(to: address, loop: loop)
      #expect(connection.peerCredentials == nil)
      connection.onRead = { bytes in received.withLock { $0 += bytes } }
      connection.onClose = { error in closed.withLock { $0 = .some(error) } }
      connection.write(Array("hello over tcp".utf8))  // queued until the connect completes
    }
    #expect(await eventually { closed.withLock { $0 != nil } })
    #expect(String(decoding: received.withLock { $0 }, as: UTF8.self) == "HELLO OVER TCP")
    #expect(closed.withLock { $0 } == .some(nil))  // the peer's orderly close
  }

  @Test func aRefusedPortClosesTheConnectionWithConnectionRefused() async throws {
    let (listener, port) = try Self.listen()
    close(listener)  // nothing listens there any more
    let loop = EventLoop(name: "tcp-test")
    defer { loop.shutdownGracefully() }
    let closed = Mutex<SocketError??>(nil)
    let address = try TCPAddress.resolve(host: "127.0.0.1", port: UInt16(port), numericOnly: true)[0]
    try await loop.submit {
      do throws(SocketError) {
        let connection = try UnixConnection.connect(to: address, loop: loop)
        connection.onClose = { error in closed.withLock { $0 = .some(error) } }
      } catch {
        closed.withLock { $0 = .some(error) }  // refused at once: also fine
      }
    }
    #expect(await eventually { closed.withLock { $0 != nil } })
    #expect(closed.withLock { $0??.code } == .connectionRefused)
  }

  /// A listening TCP socket on a free loopback port.
  static func listen() throws -> (fd: Int32, port: Int) {
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
    guard fd >= 0, bound, systemListen(fd, 4) == 0 else { throw SocketError(code: .other, operation: "listen") }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
  }
}

/// `listen(2)`, out of reach of the static method named `listen`.
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
