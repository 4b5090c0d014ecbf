import Foundation
import Wire

/// A small feature action, as a host receives it in a `send` message.
enum BenchmarkCounterAction: Codable, Equatable {
  case incrementButtonTapped
  case decrementButtonTapped
  case set(Int)
}

/// A small struct for the bulk encoding comparison.
struct BenchmarkTodo: Codable {
  var id: Int
  var title: String
  var isComplete: Bool
  var priority: Double
}

/// `Codable` ↔ JSON bytes through Wire, and the same through Foundation's
/// `JSONEncoder`/`JSONDecoder` for comparison.
func runJSONCodableBenchmarks() {
  let action = BenchmarkCounterAction.incrementButtonTapped
  let setAction = BenchmarkCounterAction.set(42)
  let encoder = JSONValueEncoder()
  let decoder = JSONValueDecoder()
  let foundationEncoder = JSONEncoder()
  let foundationDecoder = JSONDecoder()
  let iterations = 100_000

  for (name, value) in [
    ("{\"incrementButtonTapped\":{}}", action), ("{\"set\":{\"_0\":42}}", setAction),
  ] {
    let bytes = try! encoder.encode(value).serialized()
    let encode = Benchmark.measure(iterations: iterations) {
      blackHole(try! encoder.encode(value).serialized())
    }
    Benchmark.reportTime("Codable → JSON → bytes \(name)", encode)
    let decode = Benchmark.measure(iterations: iterations) {
      blackHole(try! decoder.decode(BenchmarkCounterAction.self, from: try! JSON(parsing: bytes)))
    }
    Benchmark.reportTime("bytes → JSON → Codable \(name)", decode)
    let actionJSON = try! JSON(parsing: bytes)
    let decodeOnly = Benchmark.measure(iterations: iterations) {
      blackHole(try! decoder.decode(BenchmarkCounterAction.self, from: actionJSON))
    }
    Benchmark.reportTime("  JSON → Codable (decode only)", decodeOnly)
    // The host's whole receive path for one `send`, with the compact-send fast path (as
    // HostCore runs it) and without it.
    var path = SendPath(action: actionJSON)
    let fullPath = Benchmark.measure(iterations: iterations) {
      blackHole(path.receive(BenchmarkCounterAction.self))
    }
    Benchmark.reportTime("frame → send → Codable \(name)", fullPath)
    let genericPath = Benchmark.measure(iterations: iterations) {
      blackHole(path.receive(BenchmarkCounterAction.self, compact: false))
    }
    Benchmark.reportTime("  the same, JSON(parsing:) + ClientMessage(json:)", genericPath)
    let data = Data(bytes)
    let foundationEncode = Benchmark.measure(iterations: iterations) {
      blackHole(try! foundationEncoder.encode(value))
    }
    Benchmark.reportTime("  JSONEncoder           \(name)", foundationEncode)
    let foundationDecode = Benchmark.measure(iterations: iterations) {
      blackHole(try! foundationDecoder.decode(BenchmarkCounterAction.self, from: data))
    }
    Benchmark.reportTime("  JSONDecoder           \(name)", foundationDecode)
  }

  let todos = (0..<10_000).map {
    BenchmarkTodo(
      id: $0, title: "Todo number \($0)", isComplete: $0 % 3 == 0, priority: Double($0) / 8)
  }
  let bulk = Benchmark.measure(iterations: 5) {
    blackHole(try! encoder.encode(todos).serialized())
  }
  Benchmark.reportTime("10,000 structs → bytes (Wire)", bulk)
  let foundationBulk = Benchmark.measure(iterations: 5) {
    blackHole(try! foundationEncoder.encode(todos))
  }
  Benchmark.reportTime("  JSONEncoder", foundationBulk)
  let todoBytes = try! encoder.encode(todos).serialized()
  let bulkDecode = Benchmark.measure(iterations: 5) {
    blackHole(try! decoder.decode([BenchmarkTodo].self, from: try! JSON(parsing: todoBytes)))
  }
  Benchmark.reportTime("bytes → 10,000 structs (Wire)", bulkDecode)
  let todoData = Data(todoBytes)
  let foundationBulkDecode = Benchmark.measure(iterations: 5) {
    blackHole(try! foundationDecoder.decode([BenchmarkTodo].self, from: todoData))
  }
  Benchmark.reportTime("  JSONDecoder", foundationBulkDecode)
}
