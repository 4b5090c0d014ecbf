import Foundation
import Testing
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The real `storehost`, killed with SIGKILL while 8 clients send, then restarted on the same
/// data directory — ten times in a row, in each fsync mode: nothing acknowledged is lost,
/// nothing unsent appears, and revisions never go back.
@Suite(.serialized)
struct KillRecoveryTests {
  /// What a restarted host serves: the count, the ids of the to-dos, and the revision.
  private func observe(_ host: HostProcess) throws -> (count: Int64, ids: Set<String>, rev: Int64) {
    let client = try WireClient.greeted(path: host.socketPath)
    let counter = try client.request(#"{"type":"get","id":1,"scope":"counter"}"#)
    let todos = try client.request(#"{"type":"get","id":2,"scope":"todos"}"#)
    let count = try #require(counter["state"]?["count"]?.int, "\(counter.compactString)")
    let list = try #require(todos["state"]?["todos"]?.array, "\(todos.compactString)")
    let rev = try #require(todos["rev"]?.int)
    return (count, Set(list.compactMap { $0["id"]?.string }), rev)
  }

  @Test(arguments: ["always", "everysec", "no"])
  func killedUnderLoadKeepsEveryAcknowledgedAction(fsync: String) async throws {
    let data = TemporaryDirectory()
    let arguments = ["--data", data.file("state"), "--fsync", fsync, "--log-level", "info"]
    var host = try HostProcess(arguments: arguments)
    var before = try self.observe(host)
    var acknowledgedIDs: Set<String> = []
    for cycle in 1...10 {
      let senders =
        (0..<4).map { _ in LoadSender(kind: .increments, path: host.socketPath) }
        + (0..<4).map { _ in LoadSender(kind: .todos, path: host.socketPath) }
      // Kill once every sender is well under way.
      try await waitUntil("the senders are acknowledged", timeout: 60) {
        senders.allSatisfy { $0.progress.load(ordering: .relaxed) >= 5 }
      }
      let status = host.stop(signal: SIGKILL)
      #expect(status == SIGKILL, "cycle \(cycle): the host exited with \(status), not killed")
      for sender in senders { sender.join() }
      for sender in senders {
        #expect(sender.failure == nil, "cycle \(cycle): \(sender.failure ?? "")")
      }

      host = try HostProcess(arguments: arguments)
      let after = try self.observe(host)
      let increments = senders.filter { $0.kind == .increments }
      let acked = increments.reduce(0) { $0 + $1.acknowledged }
      let sent = increments.reduce(0) { $0 + $1.sent }
      let moved = after.count - before.count
      #expect(
        moved >= Int64(acked),
        "cycle \(cycle) (\(fsync)): \(acked) increments acked, moved \(moved)")
      #expect(
        moved <= Int64(sent), "cycle \(cycle) (\(fsync)): \(sent) increments sent, moved \(moved)")
      let todoSenders = senders.filter { $0.kind == .todos }
      let ids = todoSenders.flatMap(\.acknowledgedIDs)
      #expect(!ids.isEmpty, "cycle \(cycle): no acknowledged to-do was attributed")
      acknowledgedIDs.formUnion(ids)
      let missing = acknowledgedIDs.subtracting(after.ids)
      #expect(missing.isEmpty, "cycle \(cycle) (\(fsync)): acknowledged to-dos lost: \(missing)")
      let added = after.ids.subtracting(before.ids).count
      let todosSent = todoSenders.reduce(0) { $0 + $1.sent }
      #expect(added <= todosSent, "cycle \(cycle): \(added) to-dos appeared, \(todosSent) sent")
      let highest = senders.map(\.highestRevision).max() ?? 0
      #expect(after.rev >= highest, "cycle \(cycle): revision \(after.rev) < acked \(highest)")
      #expect(after.rev >= before.rev, "cycle \(cycle): the revision went back")
      try await waitUntil("the host logs its recovery") {
        host.stderr.contains("recovered revision")
      }
      before = after
    }
    #expect(host.stop() == 0)
  }
}
