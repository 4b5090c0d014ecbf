import Wire

/// JSON Patch benchmarks: diffing and patching a 100,000-element array of objects, against the
/// cost of serializing that array once. Run with `swift run -c release WireBenchmarks`.
///
/// The serialization baseline uses `PatchBenchmarkSerializer` below, a plain byte serializer
/// written for this benchmark only, until the JSON module's serializer is merged; the figure
/// should then be re-measured with `JSON.serialize(into:)`.
func runPatchBenchmarks() {
  let count = 100_000
  let changedIndex = 50_000
  let elements = (0..<count).map(PatchBenchmarkData.todo)
  let old = JSON.array(elements)
  var changedElements = elements
  changedElements[changedIndex] = PatchBenchmarkData.todo(changedIndex, done: true)
  let new = JSON.array(changedElements)  // shares every other element's storage with `old`
  let freshNew = PatchBenchmarkData.rebuilt(new)  // equal to `new`, sharing nothing with `old`
  let freshOld = PatchBenchmarkData.rebuilt(old)
  var sink = 0

  print("JSON Patch (\(count)-element array of objects, median of 5 runs)")

  var ops: [JSONPatchOperation] = []
  PatchBenchmarkData.report("diff, one element changed (shared storage)") {
    ops = JSONPatch.diff(from: old, to: new)
  }
  sink &+= ops.count
  print("    patch: \(PatchBenchmarkData.text(JSONPatch.json(for: ops)))")
  PatchBenchmarkData.report("diff, one element changed (no shared storage)") {
    sink &+= JSONPatch.diff(from: old, to: freshNew).count
  }
  PatchBenchmarkData.report("diff, identical inputs (same value)") {
    sink &+= JSONPatch.diff(from: old, to: old).count
  }
  PatchBenchmarkData.report("diff, identical inputs (equal, no shared storage)") {
    sink &+= JSONPatch.diff(from: old, to: freshOld).count
  }

  // In place, on a document nothing else references; the reverse patch restores it untimed.
  var document = PatchBenchmarkData.rebuilt(old)
  let reverse = JSONPatch.diff(from: new, to: old)
  PatchBenchmarkData.report(
    "apply that patch in place (apply(_:to: &doc))",
    setUp: { try? JSONPatch.apply(reverse, to: &document) },
    body: {
      do { try JSONPatch.apply(ops, to: &document) } catch { fatalError("\(error)") }
    })
  sink &+= document == new ? 1 : 0
  var patched = JSON.null
  PatchBenchmarkData.report("apply that patch to a shared document (copies the array)") {
    do { patched = try JSONPatch.apply(ops, to: old) } catch { fatalError("\(error)") }
  }
  sink &+= patched == new ? 1 : 0

  var bytes: [UInt8] = []
  PatchBenchmarkData.report("serialize the array once (benchmark-only serializer)") {
    bytes = []
    PatchBenchmarkSerializer.write(old, into: &bytes)
  }
  print("    serialized size: \(bytes.count) bytes; checksum \(sink)")
}

/// Data, timing and reporting for ``runPatchBenchmarks()``.
private enum PatchBenchmarkData {
  /// One element of the array: an object with an `id`, as application state usually has.
  static func todo(_ index: Int) -> JSON {
    self.todo(index, done: index % 3 == 0)
  }

  static func todo(_ index: Int, done: Bool) -> JSON {
    .object(
      JSONObject([
        ("id", .int(Int64(index))),
        ("title", .string("Todo number \(index)")),
        ("done", .bool(done)),
        ("priority", .int(Int64(index % 5))),
        ("tags", .array([.string("home"), .string("errands")])),
      ]))
  }

  /// An equal value that shares no storage with `value`.
  static func rebuilt(_ value: JSON) -> JSON {
    switch value {
    case .array(let elements): .array(elements.map(self.rebuilt))
    case .object(let object): .object(JSONObject(object.map { ($0.key, self.rebuilt($0.value)) }))
    case .string(let string): .string(String(decoding: Array(string.utf8), as: UTF8.self))
    default: value
    }
  }

  /// Runs `body` five times (after `setUp`, untimed, each time) and prints the median in µs.
  static func report(_ name: String, setUp: () -> Void = {}, body: () -> Void) {
    let clock = ContinuousClock()
    var samples: [Duration] = []
    for _ in 0..<5 {
      setUp()
      samples.append(clock.measure(body))
    }
    let median = samples.sorted()[samples.count / 2]
    let (seconds, attoseconds) = median.components
    let micros = Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    let padded = name + String(repeating: " ", count: max(0, 60 - name.count))
    print("  \(padded) \(micros.formatted(decimals: 1)) µs")
  }

  static func text(_ value: JSON) -> String {
    var bytes: [UInt8] = []
    PatchBenchmarkSerializer.write(value, into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// A straightforward compact JSON serializer, for the benchmark's baseline only.
private enum PatchBenchmarkSerializer {
  static func write(_ value: JSON, into bytes: inout [UInt8]) {
    switch value {
    case .null: bytes.append(contentsOf: "null".utf8)
    case .bool(let b): bytes.append(contentsOf: (b ? "true" : "false").utf8)
    case .int(let i): self.write(i, into: &bytes)
    case .double(let d): bytes.append(contentsOf: d.description.utf8)
    case .string(let s): self.write(s, into: &bytes)
    case .array(let elements):
      bytes.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        self.write(element, into: &bytes)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let object):
      bytes.append(UInt8(ascii: "{"))
      var first = true
      for (key, member) in object {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        self.write(key, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        self.write(member, into: &bytes)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  private static func write(_ value: Int64, into bytes: inout [UInt8]) {
    // Up to 15 digits fit a small string, so this does not allocate.
    bytes.append(contentsOf: String(value).utf8)
  }

  private static func write(_ string: String, into bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
      case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: "\\u00".utf8)
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0xF)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}

extension Double {
  fileprivate func formatted(decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (self * scale).rounded() / scale
    return String(rounded)
  }
}
