@_spi(ChangeTracking) import Architecture
import Wire

/// A scope's state encoded with its identified arrays left out: the *skeleton* (the state's
/// JSON with `[]` where each identified array is), and each array with where it is. Pushes to
/// a whole collection's watchers are computed from this, in O(changes): the skeleton is
/// diffed as usual, and each array contributes the operations its change log records since
/// the subscription's last push (see ``CollectionPatch``), without encoding or comparing the
/// elements that did not change.
@usableFromInline
struct TrackedJSON {
  /// The state's JSON with `[]` in place of each identified array.
  var skeleton: JSON
  /// The identified arrays, in encoding order.
  var collections: [TrackedCollection]

  /// What a subscription keeps of this state to compute its next patch: no element, only the
  /// skeleton and a cursor into each array's change log, whose kept changes count against
  /// `budget` (the host's ``HostConfiguration/changeLogMemoryLimit``).
  func base(budget: IdentifiedArrayChangeBudget) -> TrackedBase {
    TrackedBase(
      skeleton: self.skeleton,
      marks: self.collections.map {
        CollectionMark(path: $0.path, cursor: $0.array.cursor(budget: budget))
      })
  }

  /// The whole state's JSON (every element encoded), for a snapshot or a full replace.
  func fullJSON() throws -> JSON {
    var json = self.skeleton
    for collection in self.collections {
      let elements = try collection.array.fullJSON()
      if collection.path.isRoot {
        json = elements
      } else {
        try JSONPatch.apply([.replace(path: collection.path, value: elements)], to: &json)
      }
    }
    return json
  }

  /// The operations that turn the state `base` describes into this one: the skeleton's diff
  /// and each array's recorded changes, or one `replace` of the whole state when the shape
  /// changed (arrays appeared or moved, or the skeleton changed around one).
  func operations(from base: TrackedBase) throws -> [JSONPatchOperation] {
    guard base.marks.map(\.path) == self.collections.map(\.path) else {
      return [.replace(path: .root, value: try self.fullJSON())]
    }
    var ops = JSONPatch.diff(from: base.skeleton, to: self.skeleton)
    let paths = self.collections.map(\.path)
    if ops.contains(where: { op in paths.contains { Self.op(op, disturbs: $0) } }) {
      return [.replace(path: .root, value: try self.fullJSON())]
    }
    for (mark, collection) in zip(base.marks, self.collections)
    where !collection.array.isAt(mark.cursor) {
      if let changes = try collection.array.operations(since: mark.cursor, at: collection.path) {
        ops += changes
      } else {
        // The log no longer reaches back to this subscription's last push (or the array was
        // replaced): the whole array, once.
        let elements = try collection.array.fullJSON()
        ops.append(.replace(path: collection.path, value: elements))
      }
    }
    return ops
  }

  /// Whether a skeleton operation touches an array's location: replaces, adds or removes it
  /// or one of its ancestors, or inserts into or removes from an array above it (shifting its
  /// index). Member changes of an object above it leave its path alone.
  private static func op(_ op: JSONPatchOperation, disturbs collection: JSONPointer) -> Bool {
    let path: JSONPointer
    let shifts: Bool
    switch op {
    case .replace(let at, _): (path, shifts) = (at, false)
    case .add(let at, _), .remove(let at): (path, shifts) = (at, true)
    default: return true
    }
    if collection.tokens.starts(with: path.tokens) { return true }
    guard shifts, let last = path.tokens.last, let parent = path.parent,
      !last.isEmpty, last.allSatisfy(\.isASCIIDigit)
    else { return false }
    return collection.tokens.starts(with: parent.tokens)
  }
}

/// What a subscription to a scope with identified arrays keeps between pushes.
struct TrackedBase {
  /// The skeleton last sent (see ``TrackedJSON/skeleton``).
  var skeleton: JSON
  /// Where each array is and how far its changes were sent.
  var marks: [CollectionMark]
}

/// An identified array's location in a scope's state and a position in its change log.
struct CollectionMark {
  let path: JSONPointer
  let cursor: IdentifiedArrayChangeCursor
}

/// An identified array met while encoding a scope's state, and where it is.
struct TrackedCollection {
  let path: JSONPointer
  let array: any TrackedArray
}

/// An identified array of any element type, as the push engine uses it.
protocol TrackedArray {
  /// Its position in its change log now; while the cursor lives, the log keeps the changes
  /// after it, their bytes counted against `budget`.
  func cursor(budget: IdentifiedArrayChangeBudget) -> IdentifiedArrayChangeCursor
  /// Whether it has not changed since `cursor`.
  func isAt(_ cursor: IdentifiedArrayChangeCursor) -> Bool
  /// Every element, encoded.
  func fullJSON() throws -> JSON
  /// The operations its changes since `cursor` make at `path`, or `nil` when not known.
  func operations(
    since cursor: IdentifiedArrayChangeCursor, at path: JSONPointer
  ) throws -> [JSONPatchOperation]?
}

struct TypedTrackedArray<ID: Hashable, Element: Encodable>: TrackedArray {
  let array: IdentifiedArray<ID, Element>

  func cursor(budget: IdentifiedArrayChangeBudget) -> IdentifiedArrayChangeCursor {
    self.array.changeCursor(budget: budget)
  }

  func isAt(_ cursor: IdentifiedArrayChangeCursor) -> Bool { self.array.isAt(cursor) }

  func fullJSON() throws -> JSON { try JSONValueEncoder().encode(self.array) }

  func operations(
    since cursor: IdentifiedArrayChangeCursor, at path: JSONPointer
  ) throws -> [JSONPatchOperation]? {
    guard let changes = self.array.changes(since: cursor) else { return nil }
    return try CollectionPatch.operations(changes, to: self.array, at: path)
  }
}

/// Collects the identified arrays of a state as it is encoded, writing `[]` in their place.
///
/// `@unchecked Sendable` because `JSONValueEncoder.userInfo` holds `Sendable` values: one
/// finder is made, filled and read by a single `TypedScopeState.trackedJSON()` call on one
/// thread, and never shared.
final class CollectionFinder: IdentifiedArrayEncodingObserver, @unchecked Sendable {
  private(set) var found: [TrackedCollection] = []

  func encode<ID: Hashable, Element: Encodable>(
    _ array: IdentifiedArray<ID, Element>, to encoder: any Encoder
  ) throws {
    let tokens = encoder.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
    self.found.append(
      TrackedCollection(path: JSONPointer(tokens: tokens), array: TypedTrackedArray(array: array)))
    _ = encoder.unkeyedContainer()
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
