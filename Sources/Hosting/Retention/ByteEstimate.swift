import Wire

/// Estimates the bytes a value holds in memory, cheaply enough to run on every change a host
/// keeps (a change log's old element, a history entry's action): without encoding anything.
///
/// How: a value's in-line size (`MemoryLayout.size`) plus what it holds on the heap, found by
/// walking its `Encodable` conformance with an encoder that writes nothing and only adds up:
///
/// - a type with no references at all (`_isPOD`: numbers, `Bool`, `UUID`, `Date`, structs of
///   them) is its in-line size, and is not walked;
/// - a string is its UTF-8 length plus a 32-byte header when it is longer than the 15 bytes
///   Swift stores in the string itself — O(1);
/// - an array, dictionary or set of such plain values is its count times their stride, in O(1);
///   one of other values is that plus what each of them holds (a walk of the elements);
/// - raw bytes handed over in bulk (`Data`) count as their length, in O(1).
///
/// So a to-do costs three container calls, and a 1 MiB string as much as an empty one. It is an
/// estimate: storage shared between values (copy-on-write) is counted for each, which makes
/// the bounds it serves conservative; class instances are walked as the values they encode.
enum ByteEstimate {
  /// The estimated bytes `value` holds: in line and on the heap.
  static func of<T: Encodable>(_ value: T) -> Int {
    MemoryLayout<T>.size + Self.heap(of: value)
  }

  /// The estimated bytes `value` holds on the heap, beyond its in-line size.
  static func heap<T: Encodable>(of value: T) -> Int {
    if _isPOD(T.self) { return 0 }
    if let string = value as? String { return Self.heap(of: string) }
    if let sized = value as? any HeapSizeEstimable { return sized.estimatedHeapBytes }
    let counter = ByteCounter()
    // A conformance that throws stops the walk; what was counted stands.
    try? value.encode(to: counter)
    return counter.heap
  }

  /// The estimated bytes `value` holds when it is `Encodable` (an element of a watched
  /// collection), else its in-line size as far as it is known: that of an existential box.
  @Sendable static func of(any value: Any) -> Int {
    if let encodable = value as? any Encodable { return Self.of(encodable) }
    return MemoryLayout<Any>.size
  }

  /// The estimated bytes a reduced action holds in the history: its record and root action in
  /// line, its draws, and on the heap the JSON it was sent as (counted twice: once more for its
  /// decoded value, which holds the same strings) or, for an action from an effect, what the
  /// action holds when it is `Encodable` (nothing more is known otherwise).
  static func ofHistoryRecord<Action>(
    action: Action, scopeAction: JSON?, draws: Int
  ) -> Int {
    var bytes =
      MemoryLayout<HistoryRecord>.stride + MemoryLayout<Action>.stride
      + draws * MemoryLayout<Draw>.stride
    if let scopeAction {
      bytes += 2 * Self.heap(of: scopeAction)
    } else if let encodable = action as? any Encodable {
      bytes += Self.heap(of: encodable)
    }
    return bytes
  }

  /// The heap bytes of a string: none for the 15 bytes or fewer stored in the string itself.
  @inline(__always)
  static func heap(of string: String) -> Int {
    let count = string.utf8.count
    return count > 15 ? count + Self.objectHeader : 0
  }

  /// What a heap object costs besides its contents: Swift's header and malloc's rounding.
  static var objectHeader: Int { 32 }
}

/// A collection whose heap bytes are known without walking it through `Encodable` (where its
/// elements hold no references, in O(1)).
protocol HeapSizeEstimable {
  var estimatedHeapBytes: Int { get }
}

extension Array: HeapSizeEstimable where Element: Encodable {
  var estimatedHeapBytes: Int {
    guard !self.isEmpty else { return 0 }
    var bytes = ByteEstimate.objectHeader + self.count * MemoryLayout<Element>.stride
    if !_isPOD(Element.self) {
      for element in self { bytes += ByteEstimate.heap(of: element) }
    }
    return bytes
  }
}

extension ContiguousArray: HeapSizeEstimable where Element: Encodable {
  var estimatedHeapBytes: Int { Array(self).estimatedHeapBytes }
}

extension Set: HeapSizeEstimable where Element: Encodable {
  var estimatedHeapBytes: Int {
    guard !self.isEmpty else { return 0 }
    // Open addressing at up to 75 % load, plus a bitmap: about 1.5 slots per element.
    var bytes = ByteEstimate.objectHeader + self.count * MemoryLayout<Element>.stride * 3 / 2
    if !_isPOD(Element.self) {
      for element in self { bytes += ByteEstimate.heap(of: element) }
    }
    return bytes
  }
}

extension Dictionary: HeapSizeEstimable where Key: Encodable, Value: Encodable {
  var estimatedHeapBytes: Int {
    guard !self.isEmpty else { return 0 }
    let slot = MemoryLayout<Key>.stride + MemoryLayout<Value>.stride
    var bytes = ByteEstimate.objectHeader + self.count * slot * 3 / 2
    let plainKeys = _isPOD(Key.self)
    let plainValues = _isPOD(Value.self)
    if !plainKeys || !plainValues {
      for (key, value) in self {
        if !plainKeys { bytes += ByteEstimate.heap(of: key) }
        if !plainValues { bytes += ByteEstimate.heap(of: value) }
      }
    }
    return bytes
  }
}

/// The encoder behind ``ByteEstimate``: it writes nothing, and adds up the heap bytes of what
/// it is given. Made, used and dropped by one ``ByteEstimate/heap(of:)`` call on one thread.
///
/// `@unchecked Sendable`: `Encoder`'s containers must be able to reach it; it never leaves the
/// call that made it.
final class ByteCounter: Encoder, @unchecked Sendable {
  /// The heap bytes counted so far.
  var heap = 0
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(Fields<Key>(counter: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    self.heap += ByteEstimate.objectHeader
    return Elements(counter: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    Single(counter: self)
  }

  /// A value met inside another: in line there, so only what it holds on the heap counts.
  func add<T: Encodable>(_ value: T) {
    if _isPOD(T.self) { return }
    if let string = value as? String {
      self.heap += ByteEstimate.heap(of: string)
    } else if let sized = value as? any HeapSizeEstimable {
      self.heap += sized.estimatedHeapBytes
    } else {
      try? value.encode(to: self)
    }
  }

  /// The members of a struct (or an enum's payload): in line in it.
  struct Fields<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let counter: ByteCounter
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) {}
    mutating func encode(_ value: Bool, forKey key: Key) {}
    mutating func encode(_ value: String, forKey key: Key) {
      self.counter.heap += ByteEstimate.heap(of: value)
    }
    mutating func encode(_ value: Double, forKey key: Key) {}
    mutating func encode(_ value: Float, forKey key: Key) {}
    mutating func encode(_ value: Int, forKey key: Key) {}
    mutating func encode(_ value: Int8, forKey key: Key) {}
    mutating func encode(_ value: Int16, forKey key: Key) {}
    mutating func encode(_ value: Int32, forKey key: Key) {}
    mutating func encode(_ value: Int64, forKey key: Key) {}
    mutating func encode(_ value: UInt, forKey key: Key) {}
    mutating func encode(_ value: UInt8, forKey key: Key) {}
    mutating func encode(_ value: UInt16, forKey key: Key) {}
    mutating func encode(_ value: UInt32, forKey key: Key) {}
    mutating func encode(_ value: UInt64, forKey key: Key) {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {
      self.counter.add(value)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      self.counter.container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      self.counter.unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { self.counter }
    mutating func superEncoder(forKey key: Key) -> any Encoder { self.counter }
  }

  /// The elements of a collection: in its heap storage, each its stride.
  struct Elements: UnkeyedEncodingContainer {
    let counter: ByteCounter
    var codingPath: [any CodingKey] { [] }
    var count = 0

    mutating func encodeNil() { self.count += 1 }
    mutating func encode(_ value: Bool) { self.element(value) }
    mutating func encode(_ value: String) {
      self.count += 1
      self.counter.heap += MemoryLayout<String>.stride + ByteEstimate.heap(of: value)
    }
    mutating func encode(_ value: Double) { self.element(value) }
    mutating func encode(_ value: Float) { self.element(value) }
    mutating func encode(_ value: Int) { self.element(value) }
    mutating func encode(_ value: Int8) { self.element(value) }
    mutating func encode(_ value: Int16) { self.element(value) }
    mutating func encode(_ value: Int32) { self.element(value) }
    mutating func encode(_ value: Int64) { self.element(value) }
    mutating func encode(_ value: UInt) { self.element(value) }
    mutating func encode(_ value: UInt8) { self.element(value) }
    mutating func encode(_ value: UInt16) { self.element(value) }
    mutating func encode(_ value: UInt32) { self.element(value) }
    mutating func encode(_ value: UInt64) { self.element(value) }
    mutating func encode<T: Encodable>(_ value: T) {
      self.count += 1
      self.counter.heap += MemoryLayout<T>.stride
      self.counter.add(value)
    }
    /// Bytes handed over in bulk (`Data` encodes itself this way): their length, in O(1).
    mutating func encode<T: Sequence>(contentsOf sequence: T) where T.Element == UInt8 {
      let length = sequence.underestimatedCount
      self.count += length
      self.counter.heap += length
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
      self.count += 1
      return self.counter.container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      self.count += 1
      return self.counter.unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { self.counter }

    @inline(__always)
    private mutating func element<T>(_ value: T) {
      self.count += 1
      self.counter.heap += MemoryLayout<T>.stride
    }
  }

  /// A value encoded as one (a wrapper, an optional's payload): in line where it is.
  struct Single: SingleValueEncodingContainer {
    let counter: ByteCounter
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() {}
    mutating func encode(_ value: Bool) {}
    mutating func encode(_ value: String) { self.counter.heap += ByteEstimate.heap(of: value) }
    mutating func encode(_ value: Double) {}
    mutating func encode(_ value: Float) {}
    mutating func encode(_ value: Int) {}
    mutating func encode(_ value: Int8) {}
    mutating func encode(_ value: Int16) {}
    mutating func encode(_ value: Int32) {}
    mutating func encode(_ value: Int64) {}
    mutating func encode(_ value: UInt) {}
    mutating func encode(_ value: UInt8) {}
    mutating func encode(_ value: UInt16) {}
    mutating func encode(_ value: UInt32) {}
    mutating func encode(_ value: UInt64) {}
    mutating func encode<T: Encodable>(_ value: T) { self.counter.add(value) }
  }
}

extension ByteEstimate {
  /// The estimated bytes a JSON value holds: its in-line size and its nodes', strings by their
  /// length (O(1) each). O(nodes), without writing anything.
  static func of(_ json: JSON) -> Int {
    MemoryLayout<JSON>.size + Self.heap(of: json)
  }

  /// The estimated heap bytes of a JSON value, beyond its in-line size.
  static func heap(of json: JSON) -> Int {
    switch json {
    case .null, .bool, .int, .double:
      return 0
    case .string(let string):
      return Self.heap(of: string)
    case .array(let elements):
      guard !elements.isEmpty else { return 0 }
      var bytes = Self.objectHeader + elements.count * MemoryLayout<JSON>.stride
      for element in elements { bytes += Self.heap(of: element) }
      return bytes
    case .object(let object):
      guard !object.isEmpty else { return 0 }
      var bytes = Self.objectHeader + object.count * MemoryLayout<(String, JSON)>.stride
      for (key, value) in object { bytes += Self.heap(of: key) + Self.heap(of: value) }
      return bytes
    }
  }
}
