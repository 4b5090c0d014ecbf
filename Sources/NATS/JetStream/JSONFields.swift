import Wire

/// Typed reads of a JSON object's members, for the JetStream API's replies: a member that is
/// absent or `null` reads as `nil`; one of another type throws, naming it.
struct JSONFields {
  let object: JSONObject
  /// What the object is, for error messages (`stream info`).
  let context: String

  init(_ object: JSONObject, context: String) {
    self.object = object
    self.context = context
  }

  /// The object in `json`, or an error naming `context`.
  init(_ json: JSON, context: String) throws(NATSError) {
    guard case .object(let object) = json else {
      throw NATSError(.invalidResponse, "the \(context) is not a JSON object")
    }
    self.init(object, context: context)
  }

  private func mismatch(_ key: String, _ expected: String) -> NATSError {
    NATSError(.invalidResponse, "in the \(self.context), \(key) is not \(expected)")
  }

  func string(_ key: String) throws(NATSError) -> String? {
    switch self.object[key] {
    case nil, .null?: return nil
    case .string(let value)?: return value
    default: throw self.mismatch(key, "a string")
    }
  }

  func bool(_ key: String) throws(NATSError) -> Bool? {
    switch self.object[key] {
    case nil, .null?: return nil
    case .bool(let value)?: return value
    default: throw self.mismatch(key, "true or false")
    }
  }

  func int(_ key: String) throws(NATSError) -> Int64? {
    switch self.object[key] {
    case nil, .null?: return nil
    case .int(let value)?: return value
    case .double(let value)?:
      // Above Int64.max (an unlimited UInt64 written by Go) reads as the largest value.
      guard value.rounded() == value, value >= 0 else { throw self.mismatch(key, "an integer") }
      return Int64(exactly: value) ?? Int64.max
    default: throw self.mismatch(key, "an integer")
    }
  }

  func uint64(_ key: String) throws(NATSError) -> UInt64? {
    switch self.object[key] {
    case nil, .null?: return nil
    case .int(let value)?:
      guard value >= 0 else { throw self.mismatch(key, "a non-negative integer") }
      return UInt64(value)
    case .double(let value)?:
      guard value.rounded() == value, value >= 0, let exact = UInt64(exactly: value) else {
        throw self.mismatch(key, "a non-negative integer")
      }
      return exact
    default: throw self.mismatch(key, "a non-negative integer")
    }
  }

  func strings(_ key: String) throws(NATSError) -> [String]? {
    switch self.object[key] {
    case nil, .null?: return nil
    case .array(let values)?:
      var strings: [String] = []
      for value in values {
        guard case .string(let string) = value else { throw self.mismatch(key, "a list of strings") }
        strings.append(string)
      }
      return strings
    default: throw self.mismatch(key, "a list of strings")
    }
  }

  func object(_ key: String) throws(NATSError) -> JSONFields? {
    switch self.object[key] {
    case nil, .null?: return nil
    case .object(let value)?: return JSONFields(value, context: "\(self.context) \(key)")
    default: throw self.mismatch(key, "an object")
    }
  }

  func objects(_ key: String) throws(NATSError) -> [JSONFields]? {
    switch self.object[key] {
    case nil, .null?: return nil
    case .array(let values)?:
      var objects: [JSONFields] = []
      for value in values {
        guard case .object(let object) = value else { throw self.mismatch(key, "a list of objects") }
        objects.append(JSONFields(object, context: "\(self.context) \(key)"))
      }
      return objects
    default: throw self.mismatch(key, "a list of objects")
    }
  }

  /// A duration in nanoseconds (how Go writes `time.Duration`).
  func duration(_ key: String) throws(NATSError) -> Duration? {
    try self.int(key).map { Duration.nanoseconds($0) }
  }
}

extension Duration {
  /// The duration in whole nanoseconds, as JetStream's API expects durations.
  var jetStreamNanoseconds: Int64 {
    let (seconds, attoseconds) = self.components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }
}
