import Wire

/// JSON parse and serialize throughput, small-message latency, and `Codable` conversion
/// compared with Foundation.
func runJSONBenchmarks() {
  print("== JSON (median of \(Benchmark.runs) runs of thread CPU time; best run in brackets)")
  let document = JSONBenchmarkData.document(targetBytes: 1 << 20)
  let bytes = document.serialized()
  let size = "\(bytes.count / 1024) KiB"

  let parse = Benchmark.measure(iterations: 20) {
    blackHole(try! JSON(parsing: bytes))
  }
  Benchmark.reportThroughput("parse \(size) document", bytes: bytes.count, parse)
  // The same parses with each result kept until the run's clock has stopped: what building
  // the value costs, without freeing it (the line above includes the free).
  var kept: [JSON] = []
  kept.reserveCapacity(20)
  let parseKept = Benchmark.measure(
    iterations: 20, afterEachRun: { kept.removeAll(keepingCapacity: true) }
  ) {
    kept.append(try! JSON(parsing: bytes))
  }
  Benchmark.reportThroughput(
    "parse \(size) document, result freed after timing", bytes: bytes.count, parseKept)

  var output: [UInt8] = []
  output.reserveCapacity(bytes.count)
  let serialize = Benchmark.measure(iterations: 20) {
    output.removeAll(keepingCapacity: true)
    document.serialize(into: &output)
    blackHole(output)
  }
  Benchmark.reportThroughput(
    "serialize \(size) document, reused buffer", bytes: bytes.count, serialize)
  let serializeFresh = Benchmark.measure(iterations: 20) {
    blackHole(document.serialized())
  }
  Benchmark.reportThroughput(
    "serialize \(size) document, serialized()", bytes: bytes.count, serializeFresh)

  let message = Array(JSONBenchmarkData.message.utf8)
  let parseMessage = Benchmark.measure(iterations: 200_000) {
    blackHole(try! JSON(parsing: message))
  }
  Benchmark.reportTime("parse \(message.count)-byte message", parseMessage)
  let messageValue = try! JSON(parsing: message)
  let serializeMessage = Benchmark.measure(iterations: 200_000) {
    blackHole(messageValue.serialized())
  }
  Benchmark.reportTime("serialize \(message.count)-byte message", serializeMessage)

  runJSONCodableBenchmarks()
}
