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

  for (name, value) in [("{\"incrementButtonTapped\":{}}", action), ("{\"set\":{\"_0\":42}}", setAction)] {
    let bytes = try! encoder.encode(value).serialized()
    let encode = Benchmark.nanoseconds(iterations: iterations) {
      blackHole(try! encoder.encode(value).serialized())
    }
    Benchmark.report("Codable → JSON → bytes      \(name)", encode, "ns")
    let decode = Benchmark.nanoseconds(iterations: iterations) {
      blackHole(try! decoder.decode(BenchmarkCounterAction.self, from: try! JSON(parsing: bytes)))
    }
    Benchmark.report("bytes → JSON → Codable      \(name)", decode, "ns")
    let data = Data(bytes)
    let foundationEncode = Benchmark.nanoseconds(iterations: iterations) {
      blackHole(try! foundationEncoder.encode(value))
    }
    Benchmark.report("Foundation JSONEncoder      \(name)", foundationEncode, "ns")
    let foundationDecode = Benchmark.nanoseconds(iterations: iterations) {
      blackHole(try! foundationDecoder.decode(BenchmarkCounterAction.self, from: data))
    }
    Benchmark.report("Foundation JSONDecoder      \(name)", foundationDecode, "ns")
  }

  let todos = (0..<10_000).map {
    BenchmarkTodo(id: $0, title: "Todo number \($0)", isComplete: $0 % 3 == 0, priority: Double($0) / 8)
  }
  let bulk = Benchmark.nanoseconds(iterations: 5) {
    blackHole(try! encoder.encode(todos).serialized())
  }
  Benchmark.report("encode 10,000 small structs → bytes (Wire)", bulk / 1e6, "ms")
  let foundationBulk = Benchmark.nanoseconds(iterations: 5) {
    blackHole(try! foundationEncoder.encode(todos))
  }
  Benchmark.report("encode 10,000 small structs (JSONEncoder)", foundationBulk / 1e6, "ms")
  let todoBytes = try! encoder.encode(todos).serialized()
  let bulkDecode = Benchmark.nanoseconds(iterations: 5) {
    blackHole(try! decoder.decode([BenchmarkTodo].self, from: try! JSON(parsing: todoBytes)))
  }
  Benchmark.report("decode 10,000 small structs ← bytes (Wire)", bulkDecode / 1e6, "ms")
  let todoData = Data(todoBytes)
  let foundationBulkDecode = Benchmark.nanoseconds(iterations: 5) {
    blackHole(try! foundationDecoder.decode([BenchmarkTodo].self, from: todoData))
  }
  Benchmark.report("decode 10,000 small structs (JSONDecoder)", foundationBulkDecode / 1e6, "ms")
}
