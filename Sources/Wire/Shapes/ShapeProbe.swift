/// Learns the JSON shape a `Decodable` type reads by running its own `init(from:)` against a
/// decoder that records what it is asked for (``ProbeDecoder``), and answers with sample
/// values so that decoding goes on to the next member.
///
/// An enum in Swift's synthesized form asks its keyed container for `allKeys` and switches on
/// the one key it finds. The probe sees that the key type is an enum without payloads, lists
/// its cases (``NoPayloadEnum``) and runs `init(from:)` once per case with that key alone, so
/// that each case's payload is recorded — no macro and no conformance needed, for the app's
/// own action types as for the library's (`IdentifiedAction`, `PresentationAction`).
///
/// One probe describes one type and everything it contains; each type is run once (its shape
/// and a sample value are kept), and a type met again inside itself is described as
/// ``JSONShape/recursive(type:)``.
final class ShapeProbe {
  /// A type's shape and a sample value of it, when one could be made.
  private struct Outcome {
    var shape: JSONShape
    var value: Any?
  }

  private var outcomes: [ObjectIdentifier: Outcome] = [:]
  private var inProgress: Set<ObjectIdentifier> = []
  private var depth = 0

  /// How deep probing goes before a type is described as unknown.
  static let maxDepth = 48
  /// The sample string: it is also a valid UUID, so that `UUID` ids decode and the members
  /// after them are reached.
  static let sampleString = "00000000-0000-0000-0000-000000000000"

  /// The shape of `type`, and a sample value when one could be decoded.
  func probe<T: Decodable>(_ type: T.Type) -> (shape: JSONShape, value: T?) {
    if let primitive = Self.primitive(type) { return primitive }
    let key = ObjectIdentifier(type)
    if let outcome = self.outcomes[key] { return (outcome.shape, outcome.value as? T) }
    let name = JSONShape.typeName(type)
    if self.inProgress.contains(key) { return (.recursive(type: name), nil) }
    if self.depth >= Self.maxDepth { return (.unknown(type: name), nil) }
    self.inProgress.insert(key)
    self.depth += 1
    defer {
      self.depth -= 1
      self.inProgress.remove(key)
    }
    let outcome = self.explore(type, name: name)
    self.outcomes[key] = Outcome(shape: outcome.shape, value: outcome.value)
    return outcome
  }

  /// Runs `init(from:)` and turns what it asked for into a shape.
  private func explore<T: Decodable>(_ type: T.Type, name: String) -> (shape: JSONShape, value: T?) {
    if let choice = Self.choice(type, name: name) { return choice }
    let record = ProbeRecord()
    var value = try? T(from: ProbeDecoder(probe: self, record: record, codingPath: []))
    if let keys = record.dispatchKeys {
      // An enum: once per case, with that case's key alone.
      var cases: [JSONShape.Case] = []
      for key in keys {
        let caseRecord = ProbeRecord()
        let decoded = try? T(
          from: ProbeDecoder(probe: self, record: caseRecord, codingPath: [], selecting: key))
        if value == nil { value = decoded }
        let payload =
          caseRecord.fields.first { $0.name == key.stringValue }.map { self.shape(of: $0.value) }
          ?? .object(type: nil, fields: [])
        cases.append(JSONShape.Case(name: key.stringValue, payload: payload))
      }
      return (.cases(type: name, cases: cases), value)
    }
    return (self.shape(of: record, typeName: name), value)
  }

  /// The shape a finished record describes.
  func shape(of record: ProbeRecord, typeName: String?) -> JSONShape {
    var shape: JSONShape
    switch record.container {
    case .none:
      shape = .unknown(type: typeName ?? "?")
    case .keyed:
      if record.isDictionary {
        shape = .dictionary(record.fields.first.map { self.shape(of: $0.value) } ?? .unknown(type: "?"))
      } else {
        shape = .object(
          type: typeName,
          fields: record.fields.map {
            JSONShape.Field(
              name: $0.name, shape: self.shape(of: $0.value),
              isOptional: $0.isOptional || record.nullableKeys.contains($0.name))
          })
      }
    case .unkeyed:
      let element = record.element.map { self.shape(of: $0) } ?? .unknown(type: "?")
      shape = .array(record.nullableElements ? .optional(element) : element)
    case .single:
      shape = record.single.map { self.shape(of: $0) } ?? .unknown(type: typeName ?? "?")
      // A type read as a plain value (UUID from a string) keeps its own name.
      if let typeName {
        switch shape {
        case .string(nil): shape = .string(type: typeName)
        case .integer(nil): shape = .integer(type: typeName)
        case .number(nil): shape = .number(type: typeName)
        default: break
        }
      }
    }
    return record.isNullable ? .optional(shape) : shape
  }

  func shape(of value: ProbeRecord.Value) -> JSONShape {
    switch value {
    case .shape(let shape): shape
    case .record(let record): self.shape(of: record, typeName: nil)
    }
  }

  /// The shape and sample of the types every decoder reads itself.
  static func primitive<T>(_ type: T.Type) -> (shape: JSONShape, value: T?)? {
    switch type {
    case is String.Type: (.string(type: nil), self.sampleString as? T)
    case is Bool.Type: (.boolean, false as? T)
    case is Double.Type: (.number(type: nil), 0.0 as? T)
    case is Float.Type: (.number(type: "Float"), Float(0) as? T)
    case is Int.Type: (.integer(type: nil), 0 as? T)
    case is Int8.Type: (.integer(type: "Int8"), Int8(0) as? T)
    case is Int16.Type: (.integer(type: "Int16"), Int16(0) as? T)
    case is Int32.Type: (.integer(type: "Int32"), Int32(0) as? T)
    case is Int64.Type: (.integer(type: "Int64"), Int64(0) as? T)
    case is UInt.Type: (.integer(type: "UInt"), UInt(0) as? T)
    case is UInt8.Type: (.integer(type: "UInt8"), UInt8(0) as? T)
    case is UInt16.Type: (.integer(type: "UInt16"), UInt16(0) as? T)
    case is UInt32.Type: (.integer(type: "UInt32"), UInt32(0) as? T)
    case is UInt64.Type: (.integer(type: "UInt64"), UInt64(0) as? T)
    default: nil
    }
  }

  /// An enum without payloads whose cases encode as plain values (raw values: `"all"`,
  /// `"active"`), as the values it takes.
  private static func choice<T: Decodable>(_ type: T.Type, name: String) -> (shape: JSONShape, value: T?)? {
    guard let encodable = type as? any Encodable.Type, let cases = NoPayloadEnum.cases(of: type)
    else { return nil }
    _ = encodable
    var values: [JSON] = []
    for value in cases {
      guard let encodableValue = value as? any Encodable,
        let json = try? JSONValueEncoder().encode(encodableValue)
      else { return nil }
      switch json {
      case .string, .int, .double, .bool: values.append(json)
      default: return nil  // Synthesized enums encode as objects: probed as cases instead.
      }
    }
    return (.choice(type: name, values: values), cases.first)
  }
}

/// What one container was asked for, filled in by ``ProbeDecoder`` and its containers.
final class ProbeRecord {
  /// The kind of container asked for first.
  enum Container {
    case none, keyed, unkeyed, single
  }

  /// A recorded value: a finished shape, or a nested container still being filled.
  enum Value {
    case shape(JSONShape)
    case record(ProbeRecord)
  }

  /// A member of a keyed container.
  struct Member {
    var name: String
    var value: Value
    var isOptional: Bool
  }

  var container = Container.none
  /// Keyed: the members read, in order.
  var fields: [Member] = []
  /// Keyed: members probed with `decodeNil(forKey:)`, which may therefore be `null`.
  var nullableKeys: Set<String> = []
  /// Keyed: the keys of an enum's cases, when the container was asked for `allKeys` and its key
  /// type lists its cases.
  var dispatchKeys: [any CodingKey]?
  /// Keyed: asked for `allKeys` with a key type that does not list its keys (a dictionary).
  var isDictionary = false
  /// Unkeyed: the first element read.
  var element: Value?
  /// Unkeyed: whether elements were probed with `decodeNil()`.
  var nullableElements = false
  /// Single value: what was read.
  var single: Value?
  /// Single value: whether it was probed with `decodeNil()` (an optional).
  var isNullable = false

  /// Records a member (the first reading of a key wins).
  func add(_ name: String, _ value: Value, optional: Bool) {
    guard !self.fields.contains(where: { $0.name == name }) else { return }
    self.fields.append(Member(name: name, value: value, isOptional: optional))
  }
}
