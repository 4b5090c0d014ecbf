import Foundation
import Synchronization
import Testing

@testable import Wire

/// A connection's callbacks never run inside a call into the connection: the owner's code may
/// write, flush and close while it walks its own collections, and what those calls cause (a
/// read of what a departed peer left, a close) arrives from the loop once it has returned.
@Suite struct ConnectionCallbackTests {
  /// What happened, in order, across the loop's thread and the test's.
  final class Recorder: Sendable {
    private let storage = Mutex<[String]>([])
    func add(_ event: String) { self.storage.withLock { $0.append(event) } }
    var events: [String] { self.storage.withLock { $0 } }
  }

  /// One end of a fresh socket pair driven by a new loop, and the other end's descriptor.
  private static func pair() throws -> (mine: Int32, peer: Int32) {
    var ends: [Int32] = [-1, -1]
    #if canImport(Glibc)
      let type = Int32(SOCK_STREAM.rawValue)
    #else
      let type = SOCK_STREAM
    #endif
    guard socketpair(AF_UNIX, type, 0, &ends) == 0 else {
      throw SocketError.system(errno, "socketpair")
    }
    return (ends[0], ends[1])
  }

  @Test func aSendToADepartedPeerReadsAndClosesOnlyAfterTheCallerHasReturned() async throws {
    let (mine, peer) = try Self.pair()
    // The peer says something and leaves before the owner writes.
    _ = "bye".withCString { write(peer, $0, 3) }
    close(peer)
    let loop = EventLoop(name: "callbacks")
    defer { loop.shutdownGracefully() }
    let recorder = Recorder()
    await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
      loop.execute {
        let connection = UnixConnection.adopt(fileDescriptor: mine, loop: loop)
        connection.onRead = { bytes in recorder.add("read \(bytes.count) bytes") }
        connection.onClose = { error in
          recorder.add("closed: \(error.map { "errno \($0.errno ?? 0)" } ?? "orderly")")
          closed.resume()
        }
        // The owner, in the middle of its own work, writes and flushes: the send fails.
        connection.write(Array(repeating: 7, count: 1 << 16))
        connection.flush()
        recorder.add("flush returned")
      }
    }
    #expect(recorder.events == ["flush returned", "read 3 bytes", "closed: errno \(EPIPE)"])
  }

  @Test func aConnectionWhoseSendFailedSaysItIsBackedUp() async throws {
    let (mine, peer) = try Self.pair()
    close(peer)
    let loop = EventLoop(name: "callbacks")
    defer { loop.shutdownGracefully() }
    let recorder = Recorder()
    await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
      loop.execute {
        let connection = UnixConnection.adopt(fileDescriptor: mine, loop: loop)
        connection.onClose = { _ in closed.resume() }
        connection.write(Array(repeating: 7, count: 1 << 16))
        connection.flush()
        // Until the loop closes it, nothing written would leave: an owner that produces
        // output only for a peer that keeps up (a tail's entries) must stop, as for a full
        // socket, rather than encode it for nobody.
        recorder.add("backed up: \(connection.isBackedUp), open: \(connection.isOpen)")
      }
    }
    #expect(recorder.events == ["backed up: true, open: true"])
  }

  @Test func closeCallsOnCloseAfterTheCallerHasReturned() async throws {
    let (mine, peer) = try Self.pair()
    defer { close(peer) }
    let loop = EventLoop(name: "callbacks")
    defer { loop.shutdownGracefully() }
    let recorder = Recorder()
    await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
      loop.execute {
        let connection = UnixConnection.adopt(fileDescriptor: mine, loop: loop)
        connection.onClose = { error in
          recorder.add(error == nil ? "closed" : "closed with \(error!)")
          closed.resume()
        }
        connection.close()
        recorder.add("close returned")
        // Closed is closed at once: nothing written now goes anywhere.
        connection.write([1, 2, 3])
        recorder.add("open: \(connection.isOpen)")
      }
    }
    #expect(recorder.events == ["close returned", "open: false", "closed"])
  }
}
