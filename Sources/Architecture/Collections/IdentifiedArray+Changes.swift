/// What changed in an identified array, one mutation at a time: what a host needs to push a
/// whole collection's changes to its watchers in O(changes) instead of re-encoding and diffing
/// every element.
///
/// An array records its mutations only while a watcher holds a position in its history (an
/// ``IdentifiedArrayChangeCursor``). An array nobody else sees pays one reference-count check
/// per mutation and records nothing; an array that is shared only with copies (a saved state, a
/// history's checkpoint) and watched by nobody moves to a fresh log of its own at its first
/// mutation, and records nothing either.
///
/// Each array value carries a log and a version. Every recorded mutation appends one change to
/// the log and moves the value's version (and the log's head) on by one; a value that is not at
/// the head, because another copy of the same lineage mutated first, starts a fresh log. So a
/// log and a version name exactly one content, and the changes between two versions of one log
/// turn the first content into the second.
///
/// What a log keeps is bounded three ways: only the changes after its oldest live cursor (those
/// before it nobody can ask for), at most ``_IdentifiedArrayChangeLog/capacity`` of them, and,
/// when its cursors were taken with an ``IdentifiedArrayChangeBudget``, at most the budget's
/// bytes together with the other logs under it. A watcher whose position was dropped gets `nil`
/// from ``IdentifiedArray/changes(since:)``, and takes the whole collection again.
public enum IdentifiedArrayChange<ID: Hashable, Element> {
  /// `element`, whose id is `id`, was inserted at `index`.
  case insert(Element, id: ID, at: Int)
  /// The element with id `id` was removed from `index`.
  case remove(id: ID, at: Int)
  /// The element with id `id` changed in place; `old` is its value before the change.
  case update(id: ID, old: Element)
}

/// A position in an identified array's history: a log and a version of it. Equal cursors name
/// equal contents. While a cursor (or a copy of it) is alive, the array's later mutations are
/// recorded and kept for it, within the log's bounds.
public struct IdentifiedArrayChangeCursor: Equatable, @unchecked Sendable {
  // @unchecked: `log` is only compared by identity here and read through its own lock;
  // `watch` is an immutable object whose reference count alone carries meaning.
  let log: AnyObject
  let version: Int
  /// Shared by the cursors taken at this version of this log: the log keeps the changes after
  /// `version` while some cursor holds it (see ``_IdentifiedArrayChangeLog``).
  let watch: _IdentifiedArrayChangeWatch

  /// Whether both name the same version of the same log.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.log === rhs.log && lhs.version == rhs.version
  }
}

/// What a cursor holds so that its log knows it is alive: the log holds one reference to each
/// watch, the cursors taken at that version the others, so a watch the log alone references
/// has no cursor left (`isKnownUniquelyReferenced`).
@usableFromInline
final class _IdentifiedArrayChangeWatch: Sendable {
  init() {}
}

/// The recorded changes of one lineage of an identified array, bounded (see
/// ``IdentifiedArrayChange``).
@usableFromInline
final class _IdentifiedArrayChangeLog<ID: Hashable, Element>: @unchecked Sendable {
  // @unchecked: `state` is a `_Lock`, whose value is only reached inside `withLock`; the
  // elements it holds are those of arrays that share the log, which are Sendable whenever the
  // log can be reached from two threads (IdentifiedArray is Sendable only when ID and Element are).

  /// The cursors taken at one version: alive while someone besides the log holds `token`.
  struct Watch {
    let version: Int
    var token: _IdentifiedArrayChangeWatch
  }

  struct State {
    /// The version the next recorded change starts from.
    var head = 0
    /// The version `changes[0]` starts from.
    var first = 0
    var changes: [IdentifiedArrayChange<ID, Element>] = []
    /// The estimated bytes each change holds (same order as `changes`), and their sum.
    var sizes: [Int] = []
    var bytes = 0
    /// The versions cursors were taken at, in increasing order (dead ones are dropped lazily).
    var watches: [Watch] = []
    /// Past this many watches, the dead ones among them are swept out (amortized O(1)).
    var sweepAt = 8
    /// The budget this log's bytes count against, once a cursor was taken with one.
    var budget: IdentifiedArrayChangeBudget?

    /// Drops the watches no cursor holds any more: from the front always (they bound what is
    /// kept), and from anywhere once there are many.
    mutating func pruneWatches() {
      while !self.watches.isEmpty && isKnownUniquelyReferenced(&self.watches[0].token) {
        self.watches.removeFirst()
      }
      guard self.watches.count >= self.sweepAt else { return }
      var alive: [Watch] = []
      for index in self.watches.indices
      where !isKnownUniquelyReferenced(&self.watches[index].token) {
        alive.append(self.watches[index])
      }
      self.watches = alive
      self.sweepAt = max(8, alive.count * 2)
    }

    /// Drops the oldest `count` changes; returns the bytes they held.
    mutating func dropFirst(_ count: Int) -> Int {
      guard count > 0 else { return 0 }
      var freed = 0
      for size in self.sizes[..<count] { freed += size }
      self.changes.removeFirst(count)
      self.sizes.removeFirst(count)
      self.first += count
      self.bytes -= freed
      return freed
    }
  }

  /// The most changes kept; a watcher further behind gets the whole collection again.
  @usableFromInline static var capacity: Int { 4_096 }

  /// What a change costs besides its element: its slot and its size's.
  static var overhead: Int {
    MemoryLayout<IdentifiedArrayChange<ID, Element>>.stride + MemoryLayout<Int>.stride
  }

  let state = _Lock(State())

  @usableFromInline init() {}

  deinit {
    let (bytes, budget) = self.state.withLock { ($0.bytes, $0.budget) }
    if bytes != 0 { budget?.add(-bytes) }
  }

  /// Whether a mutation of the value at `version` is to be recorded: that value is the head,
  /// and a cursor is alive. Otherwise the value leaves this log for a fresh one.
  @usableFromInline
  func isWatched(at version: Int) -> Bool {
    let (watched, freed, budget) = self.state.withLock { state in
      state.pruneWatches()
      guard state.watches.isEmpty else { return (state.head == version, 0, state.budget) }
      // Nobody can ask for what is kept: let it go.
      let freed = state.dropFirst(state.changes.count)
      return (false, freed, state.budget)
    }
    if freed != 0 { budget?.add(-freed) }
    return watched
  }

  /// Appends `change` if `version` is the head, returning whether it did (the value's version
  /// moves on by one); otherwise the value is a stale copy and must start a fresh log.
  @usableFromInline
  func record(_ change: IdentifiedArrayChange<ID, Element>, at version: Int) -> Bool {
    var delta = 0
    var budget: IdentifiedArrayChangeBudget?
    let recorded = self.state.withLock { state -> Bool in
      guard state.head == version else { return false }
      budget = state.budget
      state.pruneWatches()
      // The changes before the oldest live cursor: nobody can ask for them any more.
      let consumed = state.watches.first.map { $0.version - state.first } ?? state.changes.count
      delta -= state.dropFirst(min(max(consumed, 0), state.changes.count))
      if state.watches.isEmpty {
        // The cursor that made the caller record is gone since: nothing to keep.
        state.head += 1
        state.first = state.head
        return true
      }
      // The element a change holds, estimated by the budget: in-line bytes only without one.
      let size: Int
      switch change {
      case .insert(let element, _, _), .update(_, let element):
        size = Self.overhead + (state.budget?.estimate(element) ?? MemoryLayout<Element>.size)
      case .remove:
        size = Self.overhead
      }
      state.changes.append(change)
      state.sizes.append(size)
      state.bytes += size
      state.head += 1
      delta += size
      if state.changes.count > Self.capacity {
        delta -= state.dropFirst(state.changes.count - Self.capacity / 2)
      }
      return true
    }
    if delta != 0 { budget?.add(delta) }
    return recorded
  }

  /// The changes from `from` to `to`, or `nil` when they are no longer (or not) kept.
  func changes(from: Int, to: Int) -> ArraySlice<IdentifiedArrayChange<ID, Element>>? {
    self.state.withLock { state in
      guard state.first <= from, from <= to, to <= state.head else { return nil }
      return state.changes[(from - state.first)..<(to - state.first)]
    }
  }

  /// The watch for a cursor at `version`: the changes after it are kept while the cursor
  /// lives. The first `budget` given stays the log's.
  func watch(
    at version: Int, budget: IdentifiedArrayChangeBudget?
  ) -> _IdentifiedArrayChangeWatch {
    var joined: (budget: IdentifiedArrayChangeBudget, bytes: Int)?
    let token = self.state.withLock { state -> _IdentifiedArrayChangeWatch in
      if state.budget == nil, let budget {
        // From now on every change of bytes is the budget's; those held before join it here.
        state.budget = budget
        joined = (budget, state.bytes)
      }
      if let last = state.watches.last, last.version == version { return last.token }
      let token = _IdentifiedArrayChangeWatch()
      let position = state.watches.lastIndex { $0.version < version }.map { $0 + 1 } ?? 0
      if position < state.watches.count, state.watches[position].version == version {
        return state.watches[position].token
      }
      state.watches.insert(Watch(version: version, token: token), at: position)
      return token
    }
    if let joined {
      joined.budget.register(self)
      if joined.bytes != 0 { joined.budget.add(joined.bytes) }
    }
    return token
  }
}

extension _IdentifiedArrayChangeLog: _IdentifiedArrayChangeTrimming {
  var heldBytes: Int { self.state.withLock { $0.bytes } }

  func dropUnwatched() -> Int {
    self.state.withLock { state in
      state.pruneWatches()
      // The changes before the oldest live cursor, all of them when none is left.
      let consumed = state.watches.first.map { $0.version - state.first } ?? state.changes.count
      return state.dropFirst(min(max(consumed, 0), state.changes.count))
    }
  }

  func dropOldest(freeing bytes: Int) -> Int {
    self.state.withLock { state in
      var count = 0
      var freed = 0
      while count < state.sizes.count && freed < bytes {
        freed += state.sizes[count]
        count += 1
      }
      return state.dropFirst(count)
    }
  }
}

extension IdentifiedArray {
  /// This value's position in its history, for ``changes(since:)``. Holding it makes the
  /// array's later mutations recorded.
  @_spi(ChangeTracking)
  public var changeCursor: IdentifiedArrayChangeCursor {
    self.changeCursor(budget: nil)
  }

  /// This value's position in its history, for ``changes(since:)``; holding it makes the
  /// array's later mutations recorded, and their bytes count against `budget`.
  ///
  /// - Parameter budget: The bytes this array's log may keep together with the other logs
  ///   under the same budget, which also estimates what each change holds (the first budget
  ///   given to a log stays its own). Without one, a change counts its element's in-line size.
  @_spi(ChangeTracking)
  public func changeCursor(budget: IdentifiedArrayChangeBudget?) -> IdentifiedArrayChangeCursor {
    IdentifiedArrayChangeCursor(
      log: self._log, version: self._version,
      watch: self._log.watch(at: self._version, budget: budget))
  }

  /// Whether `cursor` names this value's position (no change since it was taken).
  @_spi(ChangeTracking)
  public func isAt(_ cursor: IdentifiedArrayChangeCursor) -> Bool {
    self._log === cursor.log && self._version == cursor.version
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
  /// cursor) shares the log and a cursor watches it.
  @inlinable
  mutating func _mustRecord() -> Bool {
    if isKnownUniquelyReferenced(&self._log) { return false }
    return self._mustRecordShared()
  }

  /// ``_mustRecord()`` for a shared log: recorded while a cursor is alive; otherwise this value
  /// moves to a fresh log of its own, so that its later mutations are free again.
  @usableFromInline
  mutating func _mustRecordShared() -> Bool {
    if self._log.isWatched(at: self._version) { return true }
    self._restartLog()
    return false
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
