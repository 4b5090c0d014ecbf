import Synchronization

/// The `allKeys` arrays of one-member objects, per key type and member name, shared by all
/// decodes: synthesized enum decoding asks for them twice per value, and resolving a name
/// afresh costs several run-time metadata lookups.
///
/// Only key types of at most one byte take part: they hold no references, so sharing their
/// values between threads is safe, and they cannot carry state that would make
/// `init(stringValue:)` answer differently next time (synthesized `CodingKeys` enums are
/// such types). A name is remembered only when it is its key's `stringValue`, which bounds
/// the table by the number of keys, whatever names arrive; `limit` bounds it again.
enum ResolvedKeys {
  private struct Name: Hashable {
    let type: ObjectIdentifier
    let name: String
  }

  /// Each array is a `[Key]` for the `Key` named in its entry, stored as `[UInt8]`: arrays
  /// have the same representation whatever their element type, and converting back with
  /// `unsafeBitCast` needs no run-time type lookup, where a cast from `Any` would.
  private static let table = Mutex<[Name: [UInt8]]>([:])
  private static let limit = 4096

  /// Whether `Key`'s arrays may be remembered.
  @inline(__always)
  static func accepts<Key>(_ type: Key.Type) -> Bool { MemoryLayout<Key>.size <= 1 }

  /// The remembered `[Key]` for `name`, still as `[UInt8]`; empty if there is none.
  static func stored<Key>(_ type: Key.Type, _ name: String) -> [UInt8] {
    let entry = Name(type: ObjectIdentifier(Key.self), name: name)
    return Self.table.withLock { $0[entry] } ?? []
  }

  static func remember<Key>(_ keys: [Key], _ name: String) {
    let entry = Name(type: ObjectIdentifier(Key.self), name: name)
    let stored = unsafeBitCast(keys, to: [UInt8].self)
    Self.table.withLock { table in
      if table.count < Self.limit { table[entry] = stored }
    }
  }
}
