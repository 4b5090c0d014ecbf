import Foundation
import Testing
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What clients can make the host hold, against the real `storehost`: the budget for
/// unfinished frames, the frame timeout, memory given back after hostile connections leave, and
/// subscribers of one large scope sharing its state.
@Suite(.serialized)
struct MemoryLimitsTests {
  /// A `ping` frame padded to exactly `length` payload bytes.
  static func paddedPing(id: Int, length: Int) -> [UInt8] {
    let head = Array(#"{"type":"ping","id":\#(id),"pad":""#.utf8)
    let tail = Array(#""}"#.utf8)
    let pad = [UInt8](repeating: UInt8(ascii: "x"), count: length - head.count - tail.count)
    return WireClient.frame(head + pad + tail)
  }

  /// Polls `condition` every 100 ms until it holds or `timeout` seconds pass.
  static func eventually(timeout: Double = 30, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if try condition() { return true }
      usleep(100_000)
    }
    return try condition()
  }

  @Test func unfinishedFramesOverTheBudgetCloseTheLargestHoldersAndOthersAreServed() throws {
    // 1 MiB frames, a 4 MiB budget: six connections holding 900 KB each cannot all fit.
    let frameLength = 1 << 20
    let sentLength = 900_000
    let host = try HostProcess(arguments: ["--max-frame", "\(frameLength)", "--max-buffered", "\(4 << 20)"])
    let bystander = try WireClient.greeted(path: host.socketPath)
    var holders: [(id: Int, client: WireClient, frame: [UInt8])] = []
    for id in 1...6 {
      let client = try WireClient.greeted(path: host.socketPath)
      let frame = Self.paddedPing(id: id, length: frameLength)
      // The host may close this connection while the bytes are still going out.
      try? client.sendRaw(Array(frame[..<(4 + sentLength)]))
      holders.append((id, client, frame))
    }
    // The connections over the budget get `overloaded` and are closed.
    var closed: Set<Int> = []
    let settled = Self.eventually {
      for holder in holders where !closed.contains(holder.id) {
        if let error = try? holder.client.next(timeout: 0.05) {
          #expect(error["type"] == .string("error"))
          #expect(error["code"] == .string("overloaded"), "\(error.compactString)")
          #expect(holder.client.waitForClose(timeout: 10), "closed after its error")
          closed.insert(holder.id)
        }
      }
      return closed.count >= 2
    }
    #expect(settled, "at least two of six 900 KB holders must go to fit a 4 MiB budget")
    #expect(closed.count <= 3, "only the connections over the budget are closed: \(closed.sorted())")
    // Everyone else is served: the bystander, and each holder that was kept, whose frame is
    // intact and completes.
    #expect(try bystander.request(#"{"type":"ping","id":99}"#)["type"] == .string("pong"))
    let ack = try bystander.request(#"{"type":"send","id":100,"scope":"counter","action":{"incrementButtonTapped":{}}}"#)
    #expect(ack["type"] == .string("ack"))
    for holder in holders where !closed.contains(holder.id) {
      try holder.client.sendRaw(Array(holder.frame[(4 + sentLength)...]))
      let pong = try holder.client.expect("pong")
      #expect(pong["id"] == .int(Int64(holder.id)))
    }
    #expect(host.stderr.contains("overloaded"))
  }

  @Test func aFrameThatStopsArrivingIsDroppedAfterTheFrameTimeout() throws {
    let host = try HostProcess(arguments: ["--frame-timeout", "1"])
    let idle = try WireClient.greeted(path: host.socketPath)
    let stalled = try WireClient.greeted(path: host.socketPath)
    try stalled.sendRaw(Array(Self.paddedPing(id: 1, length: 1000).prefix(4 + 10)))
    let error = try stalled.expect("error", timeout: 30)
    #expect(error["code"] == .string("bad_frame"))
    #expect(error["message"]?.string?.contains("stalled") == true, "\(error.compactString)")
    #expect(stalled.waitForClose(timeout: 10))
    // A connection with no unfinished frame is not timed, however long it is quiet.
    #expect(try idle.request(#"{"type":"ping","id":2}"#)["type"] == .string("pong"))
  }

  @Test func memoryReturnsOnceConnectionsHoldingLargeFramesClose() throws {
    let host = try HostProcess()
    let probe = try WireClient.greeted(path: host.socketPath)
    _ = try probe.request(#"{"type":"ping","id":1}"#)
    let baseline = try #require(host.residentKilobytes)
    // Eight connections each send 12 MiB of a 16 MiB frame and stop.
    let announced = 16 << 20
    let sent = 12 << 20
    var holders: [WireClient] = []
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    for _ in 0..<8 {
      let client = try WireClient.greeted(path: host.socketPath)
      let length = UInt32(announced)
      try client.sendRaw([UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)])
      for _ in 0..<(sent / chunk.count) { try client.sendRaw(chunk) }
      holders.append(client)
    }
    if !HostProcess.isSanitized {
      let held = Self.eventually { (host.residentKilobytes ?? 0) > baseline + 80 * 1024 }
      #expect(held, "the host holds the 96 MiB sent (RSS \(host.residentKilobytes ?? 0) KiB, baseline \(baseline))")
    }
    holders.removeAll()  // closes them
    // (Under ThreadSanitizer the host's memory is the sanitizer's allocator: only that it
    // still serves is checked.)
    if !HostProcess.isSanitized {
      let returned = Self.eventually { (host.residentKilobytes ?? .max) < baseline + 24 * 1024 }
      #expect(
        returned,
        "RSS after the connections closed: \(host.residentKilobytes ?? 0) KiB; before them: \(baseline) KiB")
    }
    #expect(try probe.request(#"{"type":"ping","id":2}"#)["type"] == .string("pong"))
  }

  @Test func subscribersOfOneLargeScopeShareItsState() throws {
    let host = try HostProcess()
    let writer = try WireClient.greeted(path: host.socketPath)
    // 3,000 to-dos, added through actions in pipelined batches.
    let add = WireClient.frame(Array(#"{"type":"send","scope":"todos","action":{"addTodoButtonTapped":{}}}"#.utf8))
    for batch in 1...3 {
      var bytes: [UInt8] = []
      for _ in 0..<1000 { bytes += add }
      try writer.sendRaw(bytes + WireClient.frame(Array(#"{"type":"ping","id":\#(batch)}"#.utf8)))
      #expect(try writer.expect("pong", timeout: 60)["id"] == .int(Int64(batch)))
    }
    let subscribe = #"{"type":"subscribe","id":1,"scope":"todos"}"#
    func subscriber() throws -> (WireClient, Int) {
      let client = try WireClient.greeted(path: host.socketPath)
      try client.send(subscribe)
      let snapshot = try client.nextRaw(timeout: 30)
      #expect(snapshot.starts(with: Array(#"{"type":"subscribed""#.utf8)))
      return (client, snapshot.count)
    }
    var subscribers = [try subscriber()]
    let snapshotBytes = subscribers[0].1
    #expect(snapshotBytes > 200_000, "the scope is large: \(snapshotBytes) bytes")
    let withOne = try #require(host.residentKilobytes)
    for _ in 0..<150 { subscribers.append(try subscriber()) }
    let withAll = try #require(host.residentKilobytes)
    // A copy each would be 150 × (the JSON tree and the bytes of a 250 KB snapshot) ≈ 180 MiB.
    // (Not measurable under ThreadSanitizer, whose allocator and shadow memory it would be.)
    #expect(
      HostProcess.isSanitized || withAll - withOne < 24 * 1024,
      "150 more subscribers grew the host by \(withAll - withOne) KiB (snapshot: \(snapshotBytes) bytes)")
    // They are live: one change reaches every one of them as a patch.
    try writer.send(#"{"type":"send","id":5,"scope":"todos","action":{"addTodoButtonTapped":{}}}"#)
    _ = try writer.expect("ack")
    for (client, _) in subscribers {
      let patch = try client.nextRaw(timeout: 30)
      #expect(patch.starts(with: Array(#"{"type":"patch""#.utf8)))
    }
  }
}
