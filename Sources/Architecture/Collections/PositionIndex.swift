/// The id → position index of an ``IdentifiedArray``: an open-addressing hash table with
/// linear probing whose slots hold the id and the position side by side.
///
/// `Dictionary` keeps keys and values in separate arrays, so a lookup in a large collection
/// touches two cold cache lines; here one slot holds both, which matters when actions hit
/// random elements of a collection too large for the cache. Capacity is a power of two, at
/// most half full; removal shifts the following probe run back (no tombstones), so lookups
/// stay O(1) expected after any sequence of inserts and removals.
@usableFromInline
struct _PositionIndex<ID: Hashable> {
  @usableFromInline
  struct Slot {
    @usableFromInline var id: ID?
    @usableFromInline var position: Int

    @inlinable
    init(id: ID?, position: Int) {
      self.id = id
      self.position = position
    }
  }

  @usableFromInline var slots: [Slot]
  @usableFromInline var count: Int

  @inlinable
  init(minimumCapacity: Int = 0) {
    var capacity = 8
    while capacity < minimumCapacity * 2 { capacity <<= 1 }
    self.slots = Array(repeating: Slot(id: nil, position: 0), count: capacity)
    self.count = 0
  }

  @inlinable
  var mask: Int { self.slots.count - 1 }

  /// The slot holding `id`, or the empty slot where it would go.
  @inlinable
  func slot(for id: ID) -> (index: Int, found: Bool) {
    let mask = self.mask
    var index = id.hashValue & mask
    while let slotID = self.slots[index].id {
      if slotID == id { return (index, true) }
      index = (index &+ 1) & mask
    }
    return (index, false)
  }

  /// The position of `id`; assigning `nil` removes it.
  @inlinable
  subscript(id: ID) -> Int? {
    get {
      let (index, found) = self.slot(for: id)
      return found ? self.slots[index].position : nil
    }
    set {
      if let newValue {
        self.updateValue(newValue, forKey: id)
      } else {
        self.removeValue(forKey: id)
      }
    }
  }

  /// Sets the position of `id`.
  ///
  /// - Returns: The previous position, or `nil` if `id` was not present.
  @usableFromInline
  @discardableResult
  mutating func updateValue(_ position: Int, forKey id: ID) -> Int? {
    let (index, found) = self.slot(for: id)
    if found {
      defer { self.slots[index].position = position }
      return self.slots[index].position
    }
    self.slots[index] = Slot(id: id, position: position)
    self.count += 1
    if self.count * 2 > self.slots.count { self.grow() }
    return nil
  }

  /// Removes `id`, shifting back the entries of its probe run that may fill the gap.
  @usableFromInline
  mutating func removeValue(forKey id: ID) {
    let (found, isPresent) = self.slot(for: id)
    guard isPresent else { return }
    let mask = self.mask
    var gap = found
    self.slots[gap].id = nil
    var next = gap
    while true {
      next = (next &+ 1) & mask
      guard let nextID = self.slots[next].id else { break }
      let home = nextID.hashValue & mask
      // The entry at `next` may move into the gap unless its home lies cyclically in
      // (gap, next]: then the gap is not on its probe path.
      let homeInRun = gap <= next ? (gap < home && home <= next) : (gap < home || home <= next)
      if !homeInRun {
        self.slots[gap] = self.slots[next]
        self.slots[next].id = nil
        gap = next
      }
    }
    self.count -= 1
  }

  /// Removes every entry.
  @usableFromInline
  mutating func removeAll() {
    self = Self()
  }

  private mutating func grow() {
    var grown = Self(minimumCapacity: self.slots.count)
    for slot in self.slots {
      if let id = slot.id { grown.updateValue(slot.position, forKey: id) }
    }
    self = grown
  }
}

extension _PositionIndex: ExpressibleByDictionaryLiteral {
  @usableFromInline
  init(dictionaryLiteral elements: (ID, Int)...) {
    self.init(minimumCapacity: elements.count)
    for (id, position) in elements { self.updateValue(position, forKey: id) }
  }
}

extension _PositionIndex: Sendable where ID: Sendable {}
extension _PositionIndex.Slot: Sendable where ID: Sendable {}
