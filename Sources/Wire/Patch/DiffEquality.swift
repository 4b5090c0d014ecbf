// Cheap equality for diffing.
//
// A diff mostly compares values that are unchanged, and unchanged values usually share storage
// with the previous state (copy-on-write). Comparing the bytes of two `JSON` values detects that
// in a few instructions, without retaining anything or walking the tree.
//
// Why it is sound: if two `JSON` values have identical bytes, they have the same case and the
// same payload bits, i.e. the same scalar or the same references to the same storage, so they
// are the same value. The converse does not hold (bytes a case does not use may differ), which
// only sends the comparison down the slower structural path.

/// Equality of `JSON` values tuned for diffing; see the comment above.
enum DiffEquality {
  /// Whether `a` and `b` have byte-identical representations, which implies they are equal.
  static func identical(_ a: JSON, _ b: JSON) -> Bool {
    withUnsafeBytes(of: a) { a in
      withUnsafeBytes(of: b) { b in
        Self.bytesEqual(a.baseAddress!, b.baseAddress!)
      }
    }
  }

  /// Compares `MemoryLayout<JSON>.size` bytes of two `JSON` representations.
  @inline(__always)
  static func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool {
    let size = MemoryLayout<JSON>.size
    var offset = 0
    while offset + 8 <= size {
      guard
        a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      else { return false }
      offset += 8
    }
    while offset < size {
      guard
        a.load(fromByteOffset: offset, as: UInt8.self)
          == b.load(fromByteOffset: offset, as: UInt8.self)
      else { return false }
      offset += 1
    }
    return true
  }

  /// Structural equality with the same meaning as `==` (numbers compare by value, object
  /// members regardless of order), but faster on the common shapes: shared storage is
  /// recognised without descending, and objects whose members are in the same order are
  /// compared in one pass instead of one lookup per member.
  static func equal(_ a: JSON, _ b: JSON) -> Bool {
    if Self.identical(a, b) { return true }
    switch a {
    case .array(let a):
      guard case .array(let b) = b, a.count == b.count else { return false }
      return a.withUnsafeBufferPointer { a in
        b.withUnsafeBufferPointer { b in
          Self.commonPrefixCount(a, b, limit: a.count) == a.count
        }
      }
    case .object(let a):
      guard case .object(let b) = b else { return false }
      return Self.equal(a, b)
    case .string(let a):
      guard case .string(let b) = b else { return false }
      return a == b
    default:
      return a == b
    }
  }

  private static func equal(_ a: JSONObject, _ b: JSONObject) -> Bool {
    guard a.count == b.count else { return false }
    var others = b.makeIterator()
    for member in a {
      guard let other = others.next() else { return false }
      if member.key == other.key {
        guard Self.equal(member.value, other.value) else { return false }
      } else {
        guard let value = b[member.key], Self.equal(member.value, value) else { return false }
      }
    }
    return true
  }

  /// How many leading elements of `a` and `b` are equal, up to `limit`.
  static func commonPrefixCount(
    _ a: UnsafeBufferPointer<JSON>,
    _ b: UnsafeBufferPointer<JSON>,
    limit: Int
  ) -> Int {
    guard limit > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return 0 }
    if pa == pb { return limit }
    var index = 0
    while index < limit {
      if !Self.bytesEqual(pa + index, pb + index), !Self.equal(a[index], b[index]) { break }
      index += 1
    }
    return index
  }

  /// How many trailing elements of `a` and `b` are equal, up to `limit`.
  static func commonSuffixCount(
    _ a: UnsafeBufferPointer<JSON>,
    _ b: UnsafeBufferPointer<JSON>,
    limit: Int
  ) -> Int {
    guard limit > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return 0 }
    var count = 0
    var i = a.count - 1
    var j = b.count - 1
    while count < limit {
      if !Self.bytesEqual(pa + i, pb + j), !Self.equal(a[i], b[j]) { break }
      count += 1
      i -= 1
      j -= 1
    }
    return count
  }
}
