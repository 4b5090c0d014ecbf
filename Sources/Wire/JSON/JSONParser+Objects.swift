// Closing objects: duplicate keys, found by comparing the fingerprints of the members' keys.

extension JSONParser {
  /// Moves the members from `start` into an object, resolving duplicate keys.
  mutating func closeObject(from start: Int) -> JSONObject {
    let pending = self.members.elements(from: start)
    let mayHaveDuplicates =
      Self.shapeCounts.contains(pending.count)
      ? !self.isKnownUniqueShape(pending) : Self.hasRepeats(pending)
    // The fingerprints are trivial and simply left behind.
    let storage = self.members.popArray(
      from: start, field: MemoryLayout<PendingMember>.offset(of: \.member).unsafelyUnwrapped,
      as: JSONObject.Member.self)
    guard mayHaveDuplicates else { return JSONObject(uniqueMembers: storage) }
    // Rare: equal fingerprints. Keep the first position and the last value of each key.
    var positions: [String: Int] = [:]
    var unique: [JSONObject.Member] = []
    for member in storage {
      if let position = positions[member.key] {
        unique[position].value = member.value
      } else {
        positions[member.key] = unique.count
        unique.append(member)
      }
    }
    return JSONObject(uniqueMembers: unique)
  }

  /// Whether `fingerprints` (with a count in `shapeCounts`) has no repeats: the same sequence
  /// as the remembered one of its size (which had none), or checked by `hasRepeats` and then
  /// remembered. Exact, since equal sequences repeat equally.
  private mutating func isKnownUniqueShape(_ pending: UnsafeBufferPointer<PendingMember>) -> Bool {
    let index = pending.count - Self.shapeCounts.lowerBound
    let slot = self.shapes + index * Self.shapeCounts.upperBound
    let bit: UInt32 = 1 << UInt32(truncatingIfNeeded: index)
    if self.shapeSlotsFilled & bit != 0 {
      var same = true
      for offset in 0..<pending.count where slot[offset] != pending[offset].fingerprint {
        same = false
        break
      }
      if same { return true }
    }
    if Self.hasRepeats(pending) { return false }
    // Plain stores: `UInt64` is trivial, so the slot may be uninitialized or hold an old shape.
    for offset in 0..<pending.count { slot[offset] = pending[offset].fingerprint }
    self.shapeSlotsFilled |= bit
    return true
  }

  /// Whether any fingerprint occurs twice; the small counts of typical objects inline.
  @inline(__always)
  private static func hasRepeats(_ pending: UnsafeBufferPointer<PendingMember>) -> Bool {
    switch pending.count {
    case 0, 1: return false
    case 2: return pending[0].fingerprint == pending[1].fingerprint
    case 3:
      let (first, second, third) = (
        pending[0].fingerprint, pending[1].fingerprint, pending[2].fingerprint
      )
      return first == second || first == third || second == third
    default: return Self.hasRepeatsSlowly(pending)
    }
  }

  /// ``hasRepeats(_:)`` for any count.
  private static func hasRepeatsSlowly(_ pending: UnsafeBufferPointer<PendingMember>) -> Bool {
    let count = pending.count
    if count < 2 { return false }
    if count <= 32 {
      for i in 1..<count {
        let fingerprint = pending[i].fingerprint
        for j in 0..<i where pending[j].fingerprint == fingerprint { return true }
      }
      return false
    }
    var seen = Set<UInt64>(minimumCapacity: count)
    for entry in pending where !seen.insert(entry.fingerprint).inserted { return true }
    return false
  }

  /// A cheap digest of a key's UTF-8: equal keys always have equal fingerprints.
  @inline(__always)
  static func fingerprint(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
    if count <= 15 {
      let words = SmallString.words(bytes, count)
      return Self.fingerprint(words.low, words.high, count)
    }
    let raw = UnsafeRawPointer(bytes)
    return Self.fingerprint(
      UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)),
      UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)), count)
  }

  /// Mixes the two words that stand for a key: all of it up to 15 bytes (zero-filled), else
  /// its first and last 8 bytes.
  @inline(__always)
  static func fingerprint(_ first: UInt64, _ second: UInt64, _ count: Int) -> UInt64 {
    var hash = (first &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(truncatingIfNeeded: count)
    hash = (hash << 29 | hash >> 35) ^ second
    return hash &* 0xFF51_AFD7_ED55_8CCD
  }
}
