import Wire

/// JSON parse and serialize throughput, small-message latency, and `Codable` conversion
/// compared with Foundation.
func runJSONBenchmarks() {
  print("== JSON (median of \(Benchmark.runs) runs, thread CPU time)")
  let document = JSONBenchmarkData.document(targetBytes: 1 << 20)
  let bytes = document.serialized()
  let megabytes = Double(bytes.count) / 1_000_000

  let parse = Benchmark.nanoseconds(iterations: 20) {
    blackHole(try! JSON(parsing: bytes))
  }
  Benchmark.report("parse \(bytes.count / 1024) KiB document", megabytes / (parse / 1e9), "MB/s")

  var output: [UInt8] = []
  output.reserveCapacity(bytes.count)
  let serialize = Benchmark.nanoseconds(iterations: 20) {
    output.removeAll(keepingCapacity: true)
    document.serialize(into: &output)
    blackHole(output)
  }
  Benchmark.report(
    "serialize \(bytes.count / 1024) KiB document (reused buffer)", megabytes / (serialize / 1e9), "MB/s")
  let serializeFresh = Benchmark.nanoseconds(iterations: 20) {
    blackHole(document.serialized())
  }
  Benchmark.report(
    "serialize \(bytes.count / 1024) KiB document (serialized())", megabytes / (serializeFresh / 1e9),
    "MB/s")

  let message = Array(JSONBenchmarkData.message.utf8)
  let parseMessage = Benchmark.nanoseconds(iterations: 200_000) {
    blackHole(try! JSON(parsing: message))
  }
  Benchmark.report("parse \(message.count)-byte message", parseMessage, "ns")
  let messageValue = try! JSON(parsing: message)
  let serializeMessage = Benchmark.nanoseconds(iterations: 200_000) {
    blackHole(messageValue.serialized())
  }
  Benchmark.report("serialize \(message.count)-byte message", serializeMessage, "ns")

  runJSONCodableBenchmarks()
}
