import Foundation
import Wire

/// Helpers for the JSON Pointer and JSON Patch tests.
///
/// The JSON parser lives in another part of `Wire`; these tests read JSON text through
/// Foundation's `JSONSerialization` and convert the result, so they depend only on the JSON
/// value type.
enum PatchFixtures {
  /// Parses JSON text (any value at the top level) into a `JSON` value.
  static func json(_ text: String) -> JSON {
    do {
      return try self.parse(Data(text.utf8))
    } catch {
      fatalError("invalid JSON in a test: \(error)\n\(text)")
    }
  }

  /// Parses JSON bytes into a `JSON` value.
  static func parse(_ data: Data) throws -> JSON {
    self.convert(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
  }

  /// Converts `JSONSerialization` output to `JSON`.
  ///
  /// On swift-corelibs-foundation (and Darwin) `true`/`false` come back as the `NSNumber`
  /// subclass that `NSNumber(value: true)` has, so a type check tells them from `1`/`0`.
  /// Numbers written with a fraction or exponent report the `d` type; integers that do not
  /// fit `Int64` report `Q` and become doubles.
  static func convert(_ object: Any) -> JSON {
    switch object {
    case is NSNull:
      return .null
    case let string as String:
      return .string(string)
    case let array as [Any]:
      return .array(array.map(self.convert))
    case let dictionary as [String: Any]:
      // Sorted, so that member order is deterministic in tests.
      return .object(
        JSONObject(dictionary.keys.sorted().map { ($0, self.convert(dictionary[$0]!)) }))
    case let number as NSNumber:
      if type(of: number) == type(of: NSNumber(value: true)) { return .bool(number.boolValue) }
      switch UInt8(bitPattern: number.objCType.pointee) {
      case UInt8(ascii: "d"), UInt8(ascii: "f"): return .double(number.doubleValue)
      case UInt8(ascii: "Q"):
        return Int64(exactly: number.uint64Value).map(JSON.int) ?? .double(number.doubleValue)
      default: return .int(number.int64Value)
      }
    default:
      fatalError("unexpected JSONSerialization value \(object)")
    }
  }

  /// A pointer from its text form, for tests that know it is well formed.
  static func pointer(_ text: String) -> JSONPointer {
    do {
      return try JSONPointer(text)
    } catch {
      fatalError("invalid pointer in a test: \(error)")
    }
  }

  /// Equality that also requires object members to be in the same order, to check that a
  /// failed patch leaves a document exactly as it was.
  static func identicallyOrdered(_ a: JSON, _ b: JSON) -> Bool {
    switch (a, b) {
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { self.identicallyOrdered($0, $1) }
    case (.object(let a), .object(let b)):
      return a.count == b.count
        && zip(a, b).allSatisfy { $0.key == $1.key && self.identicallyOrdered($0.value, $1.value) }
    default:
      return a == b
    }
  }

  /// A compact rendering for failure messages (the JSON serializer lives elsewhere).
  static func text(_ value: JSON) -> String {
    switch value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return String(i)
    case .double(let d): return String(d)
    case .string(let s): return "\"\(s)\""
    case .array(let a): return "[" + a.map(self.text).joined(separator: ",") + "]"
    case .object(let o):
      return "{" + o.map { "\"\($0.key)\":\(self.text($0.value))" }.joined(separator: ",") + "}"
    }
  }

  /// A patch as text, for failure messages.
  static func text(_ ops: [JSONPatchOperation]) -> String {
    self.text(JSONPatch.json(for: ops))
  }
}
