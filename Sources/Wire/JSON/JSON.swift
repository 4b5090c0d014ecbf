/// A JSON value (RFC 8259): the common currency of everything that crosses the socket.
///
/// Integers that fit `Int64` are kept exactly as ``int(_:)``; every other number is a
/// ``double(_:)``. Two numbers compare equal when their values are numerically equal
/// (`1 == 1.0`), as RFC 6902's `test` operation requires. Objects keep their members in
/// insertion order for readable output, but compare without regard to order.
public enum JSON: Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number written without fraction or exponent that fits in `Int64`.
  case int(Int64)
  /// Any other number.
  case double(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSON])
  /// An object.
  case object(JSONObject)
}

extension JSON: Equatable {
  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case let (.bool(a), .bool(b)): return a == b
    case let (.int(a), .int(b)): return a == b
    case let (.double(a), .double(b)): return a == b
    case let (.int(a), .double(b)), let (.double(b), .int(a)): return Int64(exactly: b) == a
    case let (.string(a), .string(b)): return a == b
    case let (.array(a), .array(b)): return a == b
    case let (.object(a), .object(b)): return a == b
    default: return false
    }
  }
}

extension JSON: Hashable {
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let b): hasher.combine(b)
    case .int(let i): hasher.combine(Double(i))
    case .double(let d): hasher.combine(d)
    case .string(let s): hasher.combine(s)
    case .array(let a): hasher.combine(a)
    case .object(let o): hasher.combine(o)
    }
  }
}

/// The members of a JSON object, in insertion order, with lookup by key.
///
/// Equality and hashing ignore member order, as JSON's data model does.
public struct JSONObject: Sendable {
  @usableFromInline var storage: [(key: String, value: JSON)]

  /// An empty object.
  public init() { self.storage = [] }

  /// An object with these members, in this order; a repeated key keeps its last value.
  public init<S: Sequence>(_ members: S) where S.Element == (String, JSON) {
    self.storage = []
    for (key, value) in members { self[key] = value }
  }

  /// The number of members.
  public var count: Int { storage.count }
  /// Whether the object has no members.
  public var isEmpty: Bool { storage.isEmpty }
  /// The keys, in insertion order.
  public var keys: [String] { storage.map(\.key) }

  /// The value for `key`; setting `nil` removes the member, setting a new key appends it.
  public subscript(key: String) -> JSON? {
    get {
      for member in storage where member.key == key { return member.value }
      return nil
    }
    set {
      if let index = storage.firstIndex(where: { $0.key == key }) {
        if let newValue { storage[index].value = newValue } else { storage.remove(at: index) }
      } else if let newValue {
        storage.append((key, newValue))
      }
    }
  }

  /// Removes the member named `key`, returning its value if it was present.
  @discardableResult
  public mutating func removeValue(forKey key: String) -> JSON? {
    guard let index = storage.firstIndex(where: { $0.key == key }) else { return nil }
    return storage.remove(at: index).value
  }
}

extension JSONObject: Sequence {
  public func makeIterator() -> IndexingIterator<[(key: String, value: JSON)]> {
    storage.makeIterator()
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, JSON)...) { self.init(elements) }
}

extension JSONObject: Equatable {
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs.count == rhs.count else { return false }
    for (key, value) in lhs.storage {
      guard let other = rhs[key], other == value else { return false }
    }
    return true
  }
}

extension JSONObject: Hashable {
  public func hash(into hasher: inout Hasher) {
    // Order-independent: combine per-member hashes commutatively.
    var sum = 0
    for (key, value) in storage {
      var h = Hasher()
      h.combine(key)
      h.combine(value)
      sum = sum &+ h.finalize()
    }
    hasher.combine(count)
    hasher.combine(sum)
  }
}
