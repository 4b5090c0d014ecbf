import Testing
import Wire

/// `apply(old, diff(old, new)) == new` over thousands of seeded random documents and edits.
@Suite struct JSONPatchDiffPropertyTests {
  static let seeds: [UInt64] = [0x5EED_0001, 0x5EED_0002, 0x5EED_0003]
  static let documentsPerSeed = 2_000

  @Test(arguments: Self.seeds)
  func diffThenApplyReproducesTheNewDocument(seed: UInt64) throws {
    var generator = PatchDocumentGenerator(seed: seed)
    var totalOps = 0
    var changed = 0
    var nodes = 0
    for iteration in 0..<Self.documentsPerSeed {
      let old = generator.document()
      let new = generator.edited(old)
      let ops = JSONPatch.diff(from: old, to: new)
      totalOps += ops.count
      changed += old == new ? 0 : 1
      nodes += Self.nodeCount(old)
      if let failure = Self.check(old: old, new: new, ops: ops) {
        // Stop at the first failure: one readable counterexample beats thousands.
        Issue.record(
          """
          seed \(seed) #\(iteration): \(failure)
          old: \(PatchFixtures.text(old))
          new: \(PatchFixtures.text(new))
          ops: \(PatchFixtures.text(ops))
          """)
        return
      }
    }
    print(
      "diff property test, seed \(seed): \(Self.documentsPerSeed) documents "
        + "(\(nodes) values), \(changed) changed, \(totalOps) operations")
    // The edits are real: most documents changed.
    #expect(changed > Self.documentsPerSeed / 2)
  }

  /// What is wrong with `ops` as the diff from `old` to `new`, if anything.
  static func check(old: JSON, new: JSON, ops: [JSONPatchOperation]) -> String? {
    for op in ops {
      switch op {
      case .add, .remove, .replace: break
      default: return "diff produced \(op)"
      }
      guard (try? JSONPatchOperation(json: op.json)) == op else {
        return "\(op) does not round-trip"
      }
    }
    do {
      let result = try JSONPatch.apply(ops, to: old)
      guard result == new else { return "apply gave \(PatchFixtures.text(result))" }
      var inPlace = old
      try JSONPatch.apply(ops, to: &inPlace)
      guard inPlace == new else { return "apply in place gave \(PatchFixtures.text(inPlace))" }
    } catch {
      return "apply failed: \(error)"
    }
    if old == new, !ops.isEmpty { return "equal documents gave operations" }
    if !JSONPatch.diff(from: new, to: new).isEmpty { return "diff(new, new) is not empty" }
    if !JSONPatch.diff(from: old, to: Self.rebuilt(old)).isEmpty {
      return "diff from an equal copy is not empty"
    }
    return nil
  }

  static func nodeCount(_ value: JSON) -> Int {
    switch value {
    case .array(let elements): 1 + elements.reduce(0) { $0 + Self.nodeCount($1) }
    case .object(let object): 1 + object.reduce(0) { $0 + Self.nodeCount($1.value) }
    default: 1
    }
  }

  /// An equal document sharing no storage with `value`.
  static func rebuilt(_ value: JSON) -> JSON {
    switch value {
    case .array(let elements): return .array(elements.map(Self.rebuilt))
    case .object(let object):
      return .object(JSONObject(object.map { ($0.key, Self.rebuilt($0.value)) }))
    case .string(let string): return .string(String(decoding: Array(string.utf8), as: UTF8.self))
    default: return value
    }
  }
}


/// Random documents shaped like application state: nested objects, arrays of scalars, and
/// arrays of objects with unique `"id"` members, plus random edits of them.
struct PatchDocumentGenerator {
  var random: SplitMix64
  private var nextID: Int64 = 1000

  init(seed: UInt64) { self.random = SplitMix64(seed: seed) }

  private static let keys = ["a", "b", "c", "id2", "name", "items", "a/b", "m~n", "", "0", "-"]

  private mutating func chance(_ percent: Int) -> Bool {
    Int.random(in: 0..<100, using: &self.random) < percent
  }
  private mutating func int(_ range: Range<Int>) -> Int {
    Int.random(in: range, using: &self.random)
  }

  mutating func document() -> JSON {
    switch self.int(0..<10) {
    case 0: return self.scalar()
    case 1, 2: return self.array(depth: 0)
    default: return self.object(depth: 0)
    }
  }

  mutating func scalar() -> JSON {
    switch self.int(0..<7) {
    case 0: return .null
    case 1: return .bool(self.chance(50))
    case 2, 3: return .int(Int64(self.int(-3..<10)))
    case 4: return .double([0.5, -1.25, 1.0, 1e300][self.int(0..<4)])
    default: return .string(["", "x", "y", "hello", "~/"][self.int(0..<5)])
    }
  }

  mutating func value(depth: Int) -> JSON {
    guard depth < 4 else { return self.scalar() }
    switch self.int(0..<10) {
    case 0, 1: return self.object(depth: depth + 1)
    case 2, 3: return self.array(depth: depth + 1)
    default: return self.scalar()
    }
  }

  mutating func object(depth: Int) -> JSON {
    var object = JSONObject()
    for _ in 0..<self.int(0..<8) {
      object[Self.keys[self.int(0..<Self.keys.count)]] = self.value(depth: depth)
    }
    return .object(object)
  }

  mutating func array(depth: Int) -> JSON {
    if self.chance(40) { return self.identifiedArray(depth: depth) }
    return .array(
      (0..<self.int(0..<10)).map { _ in self.chance(70) ? self.scalar() : self.value(depth: depth) }
    )
  }

  mutating func identified(depth: Int) -> JSON {
    self.nextID += 1
    var object = JSONObject([
      ("id", self.chance(80) ? .int(self.nextID) : .string("s\(self.nextID)"))
    ])
    object["title"] = .string(["a", "b", "c"][self.int(0..<3)])
    if self.chance(50) { object["done"] = .bool(self.chance(50)) }
    if self.chance(30) { object["sub"] = self.value(depth: depth + 1) }
    return .object(object)
  }

  mutating func identifiedArray(depth: Int) -> JSON {
    .array((0..<self.int(0..<16)).map { _ in self.identified(depth: depth) })
  }

  /// A random variation of `value`: mostly small local edits, sometimes wholesale changes.
  mutating func edited(_ value: JSON, depth: Int = 0) -> JSON {
    if self.chance(depth == 0 ? 3 : 8) { return self.value(depth: depth) }  // replaced outright
    switch value {
    case .object(var object):
      for key in object.keys {
        switch self.int(0..<10) {
        case 0: object.removeValue(forKey: key)
        case 1, 2, 3: object[key] = self.edited(object[key]!, depth: depth + 1)
        default: break
        }
      }
      if self.chance(35) {
        object[Self.keys[self.int(0..<Self.keys.count)]] = self.value(depth: depth + 1)
      }
      return .object(object)
    case .array(var elements):
      for _ in 0..<self.int(1..<5) {
        switch self.int(0..<6) {
        case 0 where !elements.isEmpty:
          elements.remove(at: self.int(0..<elements.count))
        case 1:
          let isIdentified =
            elements.first.map { if case .object(let o) = $0 { o["id"] != nil } else { false } }
            ?? false
          elements.insert(
            isIdentified ? self.identified(depth: depth) : self.value(depth: depth + 1),
            at: self.int(0..<elements.count + 1))
        case 2 where elements.count > 1:
          let moved = elements.remove(at: self.int(0..<elements.count))
          elements.insert(moved, at: self.int(0..<elements.count + 1))
        case 3 where !elements.isEmpty:
          let index = self.int(0..<elements.count)
          elements[index] = self.edited(elements[index], depth: depth + 1)
        case 4 where elements.count > 2 && self.chance(30):
          elements.shuffle(using: &self.random)
        default:
          break
        }
      }
      return .array(elements)
    default:
      return self.chance(50) ? self.scalar() : value
    }
  }
}
