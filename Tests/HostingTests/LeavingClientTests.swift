import Foundation
import Testing
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A client that leaves while the host is still writing to it: what the client sent before
/// leaving must be handled after the host's current work, never in the middle of it.
@Suite(.serialized)
struct LeavingClientTests {
  /// The crash of issue 26, made deterministic. A reader asks for a tail of a long history and
  /// leaves at once, with an `unsubscribe` of that tail still unread behind it. The host, held
  /// by SIGSTOP until every byte is in its socket, reads the `tail` alone (it fills the first
  /// read exactly), starts pumping the tail's entries, and its first send fails: the peer is
  /// gone. The host used to read the rest of the input right there, inside the pump — the
  /// `unsubscribe`, then the end of input and the connection's close, which removed the tails
  /// the `unsubscribe` was still holding an index into — and crashed on that stale index.
  @Test func aReaderLeavingWhileItsTailIsPumpedDoesNotStopTheHost() throws {
    let host = try HostProcess(arguments: ["--log-level", "warning"])
    // Enough history that the tail's entries take several 64 KiB chunks.
    let writer = try WireClient.greeted(path: host.socketPath)
    for id in 1...1_500 {
      try writer.send(
        #"{"type":"send","id":\#(id),"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
    }
    while try writer.next()["id"]?.int != 1_500 {}

    kill(host.processID, SIGSTOP)
    #expect(Self.waitUntilStopped(host.processID), "storehost did not stop on SIGSTOP")
    let leaver = try WireClient(path: host.socketPath)
    let hello = WireClient.frame(Array(#"{"type":"hello","protocol":1}"#.utf8))
    let readSize = 64 * 1024  // the host's read buffer (EventLoop.readBufferSize)
    let tailStart = #"{"type":"tail","id":1,"since":0,"padding":""#
    let tailEnd = #""}"#
    let padding = readSize - hello.count - 4 - tailStart.utf8.count - tailEnd.utf8.count
    let tail = WireClient.frame(
      Array((tailStart + String(repeating: "x", count: padding) + tailEnd).utf8))
    #expect(hello.count + tail.count == readSize)
    let unsubscribe = WireClient.frame(Array(#"{"type":"unsubscribe","id":2,"sub":1}"#.utf8))
    try leaver.sendRaw(hello + tail + unsubscribe + hello)
    // Gone for the host: its reads end after these bytes, and its sends fail (EPIPE).
    shutdown(leaver.fd, Int32(SHUT_RDWR))
    kill(host.processID, SIGCONT)

    // The host lives and answers.
    do {
      let visitor = try WireClient.greeted(path: host.socketPath)
      #expect(try visitor.reply(to: #"{"type":"ping","id":7}"#, id: 7)["type"] == .string("pong"))
    } catch {
      Issue.record("the host stopped answering (\(error)); its log ends:\n\(host.stderr.suffix(2_000))")
    }
    #expect(host.stop() == 0, "storehost crashed:\n\(host.stderr.suffix(2_000))")
  }

  /// Waits until every thread of `pid` is stopped (state `T` in /proc), so that nothing the
  /// test sends next is read before SIGCONT.
  static func waitUntilStopped(_ pid: Int32) -> Bool {
    MemoryLimitsTests.eventually {
      guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
      else { return false }
      return tasks.allSatisfy { task in
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")")
        else { return false }
        // The state follows the command name, which ends with the last ')'.
        let state = stat[stat.index(after: close)...].dropFirst().first
        return state == "T" || state == "t"
      }
    }
  }

  /// A reader that asks for tails from the start of a long history and has left (its reading
  /// side shut: every send to it fails) costs the host one chunk of entries, not the encoding of
  /// every entry each tail is owed — for nobody, while every other client waits.
  @Test func aReaderThatHasLeftIsNotEncodedTheEntriesItCannotRead() throws {
    let host = try HostProcess(arguments: ["--log-level", "warning"])
    let writer = try WireClient.greeted(path: host.socketPath)
    for id in 1...1_500 {
      try writer.send(
        #"{"type":"send","id":\#(id),"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
    }
    while try writer.next()["id"]?.int != 1_500 {}
    func bytesOut(_ id: Int64) throws -> Int64 {
      let state = try writer.reply(to: #"{"type":"get","id":\#(id),"scope":"_host"}"#, id: id)
      return state["state"]?["bytesOut"]?.int ?? -1
    }
    let before = try bytesOut(2_001)

    let leaver = try WireClient(path: host.socketPath)
    shutdown(leaver.fd, Int32(SHUT_RD))
    var requests = WireClient.frame(Array(#"{"type":"hello","protocol":1}"#.utf8))
    for id in 1...20 {
      requests += WireClient.frame(Array(#"{"type":"tail","id":\#(id),"since":0}"#.utf8))
    }
    try leaver.sendRaw(requests)
    // The host closes it once its sends have failed.
    var descriptor = pollfd(fd: leaver.fd, events: 0, revents: 0)
    #expect(
      MemoryLimitsTests.eventually {
        descriptor.revents = 0
        return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLHUP) != 0
      }, "the host did not close the connection whose sends failed")

    // 20 tails of 1,500 entries are some 6 MB of entries; one 64 KiB chunk left before the
    // first send failed, then an `entry_gap` per tail.
    let written = try bytesOut(2_002) - before
    #expect(written < 256 * 1024, "\(written) bytes were encoded for a client that had left")
    #expect(host.stop() == 0)
  }

  /// A connection the host closes (here for a frame that is not UTF-8) stops counting the
  /// unfinished frame behind it
  /// against the budget at once — not only when the loop reports the close, after the other
  /// connections read in the same round: those must not be closed for bytes nobody holds.
  @Test func aClosedConnectionsUnfinishedFrameLeavesTheBudgetAtOnce() throws {
    // Two readers holding 125,004 bytes each fit the budget (and still do while the last
    // 5,000 of each frame arrive); with the closed connection's 65,529 they would not.
    let host = try HostProcess(arguments: ["--max-frame", "262144", "--max-buffered", "307200"])
    let closed = try WireClient.greeted(path: host.socketPath)
    let first = try WireClient.greeted(path: host.socketPath)
    let second = try WireClient.greeted(path: host.socketPath)
    let frames = [
      MemoryLimitsTests.paddedPing(id: 1, length: 200_000),
      MemoryLimitsTests.paddedPing(id: 2, length: 130_000),
      MemoryLimitsTests.paddedPing(id: 3, length: 130_000),
    ]
    // Held by SIGSTOP until every byte is in the sockets, so that the host reads all three in
    // one round of its loop: the bad frame and the rest of a 64 KiB read, the start of a frame
    // behind it; then the two unfinished frames.
    kill(host.processID, SIGSTOP)
    #expect(Self.waitUntilStopped(host.processID), "storehost did not stop on SIGSTOP")
    try closed.sendRaw(WireClient.frame([0x7B, 0xFF, 0x7D]) + frames[0].prefix(100_004))
    try first.sendRaw(Array(frames[1].prefix(125_004)))
    try second.sendRaw(Array(frames[2].prefix(125_004)))
    kill(host.processID, SIGCONT)

    #expect(try closed.expect("error")["code"] == .string("bad_frame"))
    #expect(closed.waitForClose())
    for (client, frame) in [(first, frames[1]), (second, frames[2])] {
      do {
        try client.sendRaw(Array(frame[125_004...]))
        let reply = try client.next()
        #expect(reply["type"] == .string("pong"), "\(reply.compactString.prefix(400))")
      } catch {
        Issue.record("a reader within the budget was closed (\(error))")
      }
    }
    #expect(host.stop() == 0)
  }
}
