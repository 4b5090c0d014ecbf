/// What changed in an identified array, one mutation at a time: what a host needs to push a
/// whole collection's changes to its watchers in O(changes) instead of re-encoding and diffing
/// every element.
///
/// An array records its mutations only while something else shares its log: a copy of the
/// array, or a ``IdentifiedArrayChangeCursor`` taken by a watcher. An array nobody else sees
/// pays one reference-count check per mutation and records nothing.
///
/// Each array value carries a log and a version. Every mutation of a shared array either
/// appends one change to the log and moves the value's version (and the log's head) on by one,
/// or — when the value is not at the head, because another copy of the same lineage mutated
/// first — starts a fresh log. So a log and a version name exactly one content, and the
/// changes between two versions of one log turn the first content into the second.
public enum IdentifiedArrayChange<ID: Hashable, Element> {
  /// `element`, whose id is `id`, was inserted at `index`.
  case insert(Element, id: ID, at: Int)
  /// The element with id `id` was removed from `index`.
  case remove(id: ID, at: Int)
  /// The element with id `id` changed in place; `old` is its value before the change.
  case update(id: ID, old: Element)
}

/// A position in an identified array's history: a log and a version of it. Equal cursors name
/// equal contents. Holding one makes the array's later mutations recorded.
public struct IdentifiedArrayChangeCursor: Equatable, @unchecked Sendable {
  // @unchecked: `log` is only compared by identity here and read through its own lock.
  let log: AnyObject
  let version: Int

  /// Whether both name the same version of the same log.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.log === rhs.log && lhs.version == rhs.version
  }
}

/// The recorded changes of one lineage of an identified array, bounded.
@usableFromInline
final class _IdentifiedArrayChangeLog<ID: Hashable, Element>: @unchecked Sendable {
  // @unchecked: `state` is a `_Lock`, whose value is only reached inside `withLock`; the
  // elements it holds are those of arrays that share the log, which are Sendable whenever the
  // log can be reached from two threads (IdentifiedArray is Sendable only when ID and Element are).
  struct State {
    /// The version the next recorded change starts from.
    var head = 0
    /// The version `changes[0]` starts from.
    var first = 0
    var changes: [IdentifiedArrayChange<ID, Element>] = []
  }

  /// The most changes kept; a watcher further behind gets the whole collection again.
  @usableFromInline static var capacity: Int { 4_096 }

  let state = _Lock(State())

  @usableFromInline init() {}

  /// Appends `change` if `version` is the head, returning whether it did (the value's version
  /// moves on by one); otherwise the value is a stale copy and must start a fresh log.
  @usableFromInline
  func record(_ change: IdentifiedArrayChange<ID, Element>, at version: Int) -> Bool {
    self.state.withLock { state in
      guard state.head == version else { return false }
      state.changes.append(change)
      state.head += 1
      if state.changes.count > Self.capacity {
        let dropped = state.changes.count - Self.capacity / 2
        state.changes.removeFirst(dropped)
        state.first += dropped
      }
      return true
    }
  }

  /// The changes from `from` to `to`, or `nil` when they are no longer (or not) kept.
  func changes(from: Int, to: Int) -> ArraySlice<IdentifiedArrayChange<ID, Element>>? {
    self.state.withLock { state in
      guard state.first <= from, from <= to, to <= state.head else { return nil }
      return state.changes[(from - state.first)..<(to - state.first)]
    }
  }
}

extension IdentifiedArray {
  /// This value's position in its history, for ``changes(since:)``. Holding it makes the
  /// array's later mutations recorded.
  @_spi(ChangeTracking)
  public var changeCursor: IdentifiedArrayChangeCursor {
    IdentifiedArrayChangeCursor(log: self._log, version: self._version)
  }

  /// The changes that turn the array at `cursor` into this one, oldest first, or `nil` when
  /// they are not known: the cursor is of another lineage (the array was replaced, reset or
  /// sorted) or too far behind.
  @_spi(ChangeTracking)
  public func changes(
    since cursor: IdentifiedArrayChangeCursor
  ) -> ArraySlice<IdentifiedArrayChange<ID, Element>>? {
    guard self._log === cursor.log else { return nil }
    return self._log.changes(from: cursor.version, to: self._version)
  }

  /// Before a mutation: whether it must be recorded, i.e. whether anyone else (a copy, a
  /// cursor) shares the log.
  @inlinable
  mutating func _mustRecord() -> Bool {
    !isKnownUniquelyReferenced(&self._log)
  }

  /// Records a mutation of a shared array (after ``_mustRecord()`` said so): appended to the
  /// log when this value is its head, otherwise this value starts a fresh log.
  @usableFromInline
  mutating func _record(_ change: IdentifiedArrayChange<ID, Element>) {
    if self._log.record(change, at: self._version) {
      self._version += 1
    } else {
      self._restartLog()
    }
  }

  /// Starts a fresh log: for changes the log does not describe one by one (a reset, a
  /// reorder), so that holders of older cursors take the whole collection again.
  @usableFromInline
  mutating func _restartLog() {
    self._log = _IdentifiedArrayChangeLog()
    self._version = 0
  }
}

/// Takes over the encoding of identified arrays: an `Encoder` whose `userInfo` holds one under
/// ``Swift/CodingUserInfoKey/identifiedArrayEncodingObserver`` hands it every identified array
/// it meets instead of encoding the elements (a host encodes a scope's state this way to find
/// its collections and where they are).
@_spi(ChangeTracking)
public protocol IdentifiedArrayEncodingObserver: AnyObject {
  /// Encodes `array` into `encoder` in place of its elements.
  func encode<ID: Hashable, Element: Encodable>(
    _ array: IdentifiedArray<ID, Element>, to encoder: any Encoder) throws
}

extension CodingUserInfoKey {
  /// Where an encoder holds its ``IdentifiedArrayEncodingObserver``.
  @_spi(ChangeTracking)
  public static let identifiedArrayEncodingObserver = CodingUserInfoKey(
    rawValue: "Architecture.IdentifiedArrayEncodingObserver")!
}
