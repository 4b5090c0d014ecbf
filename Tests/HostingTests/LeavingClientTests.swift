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
@Suite struct LeavingClientTests {
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
}
