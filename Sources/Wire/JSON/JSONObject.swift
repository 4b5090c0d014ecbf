/// The members of a JSON object, in insertion order, with lookup by key.
///
/// Equality and hashing ignore member order, as JSON's data model does. Keys are unique: setting
/// an existing key replaces its value in place, keeping the member's position.
///
/// ```swift
/// var object: JSONObject = ["id": .int(1), "title": .string("Milk")]
/// object["done"] = .bool(false)   // appended
/// object["id"] = nil              // removed
/// ```
///
/// > Note: Lookup is a linear scan, which beats hashing for the small objects that make up most
/// > messages. Code that looks up many keys of one large object should build its own index.
public struct JSONObject: Sendable {
  /// One member. A nominal type rather than a tuple: arrays of it get statically cached
  /// metadata and cheaper copying and destruction than tuple arrays do.
  struct Member {
    var key: String
    var value: JSON
  }

  /// The members in order; keys are unique.
  var storage: [Member]

  /// An empty object.
  public init() { self.storage = [] }

  /// An object with these members, in this order; a repeated key keeps its first position and
  /// its last value.
  ///
  /// - Parameter members: Key–value pairs in the order they should appear.
  public init<S: Sequence>(_ members: S) where S.Element == (String, JSON) {
    self.storage = []
    self.storage.reserveCapacity(members.underestimatedCount)
    for (key, value) in members { self[key] = value }
  }

  /// Wraps members whose keys the caller has already made unique.
  init(uniqueMembers: [Member]) {
    self.storage = uniqueMembers
  }

  /// The number of members.
  public var count: Int { self.storage.count }
  /// Whether the object has no members.
  public var isEmpty: Bool { self.storage.isEmpty }
  /// The keys, in insertion order.
  public var keys: [String] { self.storage.map(\.key) }

  /// The position of the member named `key` in ``storage``, if any.
  func index(forKey key: String) -> Int? {
    self.storage.firstIndex { $0.key == key }
  }

  /// The value for `key`; setting `nil` removes the member, setting a new key appends it.
  ///
  /// - Parameter key: The member name.
  public subscript(key: String) -> JSON? {
    get {
      for member in self.storage where member.key == key { return member.value }
      return nil
    }
    set {
      if let index = self.index(forKey: key) {
        if let newValue {
          self.storage[index].value = newValue
        } else {
          self.storage.remove(at: index)
        }
      } else if let newValue {
        self.storage.append(Member(key: key, value: newValue))
      }
    }
  }

  /// Removes the member named `key`, returning its value if it was present.
  ///
  /// - Parameter key: The member name.
  /// - Returns: The removed value, or `nil` when there was no such member.
  @discardableResult
  public mutating func removeValue(forKey key: String) -> JSON? {
    guard let index = self.index(forKey: key) else { return nil }
    return self.storage.remove(at: index).value
  }
}

extension JSONObject: Sequence {
  /// Iterates the members in insertion order as `(key, value)` pairs.
  public struct Iterator: IteratorProtocol {
    var members: IndexingIterator<[Member]>

    /// The next member, or `nil` after the last.
    public mutating func next() -> (key: String, value: JSON)? {
      guard let member = self.members.next() else { return nil }
      return (member.key, member.value)
    }
  }

  /// Iterates the members in insertion order.
  public func makeIterator() -> Iterator {
    Iterator(members: self.storage.makeIterator())
  }

  /// The number of members.
  public var underestimatedCount: Int { self.storage.count }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  /// An object with the literal's members in source order.
  public init(dictionaryLiteral elements: (String, JSON)...) { self.init(elements) }
}

extension JSONObject: Equatable {
  /// Whether both objects have the same keys with equal values, in any order.
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    let count = lhs.storage.count
    guard count == rhs.storage.count else { return false }
    // Objects usually share their member order (both sides came from the same type), so walk
    // them in step and only search once the orders diverge.
    var position = 0
    while position < count {
      let left = lhs.storage[position]
      let right = rhs.storage[position]
      guard left.key == right.key else { break }
      guard left.value == right.value else { return false }
      position += 1
    }
    if position == count { return true }
    if count - position <= 16 {
      for member in lhs.storage[position...] {
        guard let other = rhs[member.key], other == member.value else { return false }
      }
      return true
    }
    var index: [String: Int] = [:]
    index.reserveCapacity(count)
    for (offset, member) in rhs.storage.enumerated() { index[member.key] = offset }
    for member in lhs.storage[position...] {
      guard let offset = index[member.key], rhs.storage[offset].value == member.value else {
        return false
      }
    }
    return true
  }
}

extension JSONObject: Hashable {
  /// Hashes the members without regard to their order.
  public func hash(into hasher: inout Hasher) {
    // Order-independent: combine per-member hashes commutatively.
    var sum = 0
    for member in self.storage {
      var memberHasher = Hasher()
      memberHasher.combine(member.key)
      memberHasher.combine(member.value)
      sum = sum &+ memberHasher.finalize()
    }
    hasher.combine(self.count)
    hasher.combine(sum)
  }
}
