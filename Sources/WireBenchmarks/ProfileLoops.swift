import Foundation
import Wire

/// Untimed loops for `perf stat`/`perf record`: `WireBenchmarks loop NAME COUNT` runs one path
/// COUNT times and nothing else, so instruction counts per call can be read off (subtract a
/// run with COUNT 0 for the start-up).
enum ProfileLoops {
  static func run(_ arguments: [String]) {
    guard arguments.count == 2, let count = Int(arguments[1]), let loop = Self.loops[arguments[0]]
    else {
      print("usage: WireBenchmarks loop <\(Self.loops.keys.sorted().joined(separator: "|"))> <count>")
      return
    }
    loop(count)
  }

  static let loops: [String: @Sendable (Int) -> Void] = [
    "send": { count in
      var path = SendPath(action: try! JSON(parsing: #"{"incrementButtonTapped":{}}"#))
      for _ in 0..<count { blackHole(path.receive(BenchmarkCounterAction.self)) }
    },
    "jsondecoder": { count in
      let decoder = JSONDecoder()
      let data = Data(#"{"incrementButtonTapped":{}}"#.utf8)
      for _ in 0..<count { blackHole(try! decoder.decode(BenchmarkCounterAction.self, from: data)) }
    },
    "jsonencoder-bulk": { count in
      let encoder = JSONEncoder()
      let todos = (0..<10_000).map {
        BenchmarkTodo(
          id: $0, title: "Todo number \($0)", isComplete: $0 % 3 == 0, priority: Double($0) / 8)
      }
      for _ in 0..<count { blackHole(try! encoder.encode(todos)) }
    },
    "send-reference": { count in
      var path = SendPath(action: try! JSON(parsing: #"{"increment":{}}"#))
      for _ in 0..<count { blackHole(path.receive(ReferenceAction.self)) }
    },
    "envelope-reference": { count in
      var path = SendPath(action: try! JSON(parsing: #"{"increment":{}}"#))
      for _ in 0..<count { blackHole(path.envelope()) }
    },
    "envelope-null": { count in
      var path = SendPath(action: .null)
      for _ in 0..<count { blackHole(path.envelope()) }
    },
    "frames": { count in
      var path = SendPath(action: .null)
      for _ in 0..<count { blackHole(path.nextPayload()) }
    },
    "parse-reference": { count in
      let bytes = Array(#"{"increment":{}}"#.utf8)
      for _ in 0..<count { blackHole(try! JSON(parsing: bytes)) }
    },
    "decode-reference": { count in
      let decoder = JSONValueDecoder()
      let action = try! JSON(parsing: Array(#"{"increment":{}}"#.utf8))
      for _ in 0..<count { blackHole(try! decoder.decode(ReferenceAction.self, from: action)) }
    },
    "jsondecoder-reference": { count in
      let decoder = JSONDecoder()
      let data = Data(#"{"increment":{}}"#.utf8)
      for _ in 0..<count { blackHole(try! decoder.decode(ReferenceAction.self, from: data)) }
    },
    "decode": { count in
      let decoder = JSONValueDecoder()
      let action = try! JSON(parsing: Array(#"{"incrementButtonTapped":{}}"#.utf8))
      for _ in 0..<count { blackHole(try! decoder.decode(BenchmarkCounterAction.self, from: action)) }
    },
    "decode-bulk": { count in
      let decoder = JSONValueDecoder()
      let todos = (0..<1_000).map {
        BenchmarkTodo(
          id: $0, title: "Todo number \($0)", isComplete: $0 % 3 == 0, priority: Double($0) / 8)
      }
      let json = try! JSONValueEncoder().encode(todos)
      for _ in 0..<count { blackHole(try! decoder.decode([BenchmarkTodo].self, from: json)) }
    },
    "parse-action": { count in
      let bytes = Array(#"{"incrementButtonTapped":{}}"#.utf8)
      for _ in 0..<count { blackHole(try! JSON(parsing: bytes)) }
    },
    "parse": { count in
      let bytes = JSONBenchmarkData.document(targetBytes: 1 << 20).serialized()
      for _ in 0..<count { blackHole(try! JSON(parsing: bytes)) }
    },
    "encode-patch": { count in
      let op = try! JSON(parsing: #"{"op":"replace","path":"/count","value":3}"#)
      let message = HostMessage.patch(sub: 1, base: 41, rev: 42, ops: [op])
      writing(count) { output, _ in try! message.encodeFrame(into: &output, maxFrameSize: 1 << 24) }
    },
    "encode-state": { count in
      let state = try! JSON(parsing: #"{"count":3,"isLoading":false,"isTimerRunning":false}"#)
      let message = HostMessage.subscribed(id: 2, sub: 1, scope: "counter", rev: 42, state: state)
      writing(count) { output, _ in message.encodeFrame(into: &output) }
    },
    "encode-send": { count in
      let action = try! JSON(parsing: #"{"incrementButtonTapped":{}}"#)
      let message = ClientMessage.send(id: 7, scope: "counter", action: action)
      writing(count) { output, _ in message.encodeFrame(into: &output) }
    },
    "json-message": { count in
      let action = try! JSON(parsing: #"{"incrementButtonTapped":{}}"#)
      let message = ClientMessage.send(id: 7, scope: "counter", action: action)
      let reply = HostMessage.error(id: 7, code: .badMessage, message: "no")
      for _ in 0..<count {
        blackHole(message.json)
        blackHole(reply.json)
      }
    },
    "prepared-send": { count in
      let prepared = PreparedSend(
        scope: "counter", action: try! JSON(parsing: #"{"incrementButtonTapped":{}}"#))
      writing(count) { output, index in prepared.appendFrame(id: Int64(index), to: &output) }
    },
    "compact-ack": { count in
      var frame: [UInt8] = []
      HostMessage.ack(id: 123, rev: 45_678).encodeFrame(into: &frame)
      let payload = Array(frame.dropFirst(4))
      payload.withUnsafeBytes { bytes in
        for _ in 0..<count { blackHole(HostMessage(compactReply: bytes)) }
      }
    },
    "serialize": { count in
      let document = JSONBenchmarkData.document(targetBytes: 1 << 20)
      writing(count) { output, _ in document.serialize(into: &output) }
    },
  ]

  /// Runs `write` `count` times into one reused buffer, emptied before each call.
  private static func writing(_ count: Int, _ write: (inout [UInt8], Int) -> Void) {
    var output: [UInt8] = []
    for index in 0..<count {
      output.removeAll(keepingCapacity: true)
      write(&output, index)
      blackHole(output)
    }
  }
}
