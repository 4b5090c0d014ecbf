/// An ordered collection of identified elements with constant-time access by id.
///
/// ```swift
/// var todos: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "Milk")]
/// todos[id: 1]?.isComplete = true     // in place, no copy of the array
/// todos.remove(id: 1)
/// ```
///
/// ## Complexity
///
/// - Lookup, in-place update and replacement by id: O(1) (one hash lookup, then the element is
///   mutated where it lives; no copy of the array and no copy of the element).
/// - `append`: O(1) amortized.
/// - `remove(id:)`, `remove(at:)`, `insert(_:at:)`: O(1) for the hash table plus O(*n* − *i*)
///   to shift the elements after position *i* and renumber their positions, like `Array`.
///   Removing or inserting at the end is O(1); in the middle it is linear. Positions are always
///   renumbered eagerly, so id lookups stay correct after inserting at 0 or removing anywhere.
///
/// `Codable` as a plain JSON array of elements. Equality compares the elements in order.
public struct IdentifiedArray<ID: Hashable, Element> {
  // Invariants: `_elements.count == _ids.count == _positions.count`, every `_elements[i]` is
  // non-nil, `_ids[i] == _id(_elements[i]!)` and `_positions[_ids[i]] == i + _base`.
  // Positions are stored relative to `_base` so that inserting or removing near the front
  // renumbers the few elements before the change (and moves the base) instead of all the
  // elements after it: O(min(i, n − i)) dictionary writes, so a to-do list that inserts at
  // index 0 costs O(1) of them per insert.
  // The slots are optional so that `subscript(id:)` can yield `&_elements[i]` in place as the
  // `Element?` its signature needs; nil is only ever stored transiently, to remove.
  @usableFromInline var _elements: [Element?]
  @usableFromInline var _ids: [ID]
  @usableFromInline var _positions: [ID: Int]
  @usableFromInline var _base = 0
  let _idPath: KeyPath<Element, ID> & Sendable

  /// Creates an identified array from elements whose ids are unique.
  ///
  /// - Parameters:
  ///   - elements: The elements, in order. Duplicated ids are a programmer error.
  ///   - id: The key path of an element's id.
  public init<S: Sequence>(
    uniqueElements elements: S,
    id: KeyPath<Element, ID> & Sendable
  ) where S.Element == Element {
    self._idPath = id
    self._elements = []
    self._ids = []
    self._positions = [:]
    self._elements.reserveCapacity(elements.underestimatedCount)
    for element in elements {
      let elementID = element[keyPath: id]
      precondition(
        self._positions.updateValue(self._ids.count, forKey: elementID) == nil,
        "Duplicate id \(elementID) in IdentifiedArray(uniqueElements:)"
      )
      self._ids.append(elementID)
      self._elements.append(element)
    }
  }

  /// The ids of the elements, in order.
  public var ids: [ID] { self._ids }

  /// The elements, in order.
  public var elements: [Element] { self._elements.map { $0! } }

  /// Returns the position of the element with the given id.
  ///
  /// - Parameter id: An id.
  /// - Returns: The index of that element, or `nil` when there is none.
  @inlinable
  public func index(id: ID) -> Int? {
    self._positions[id].map { $0 - self._base }
  }

  /// Reads, updates in place, inserts (appends) or removes the element with the given id.
  ///
  /// Assigning `nil` removes the element; assigning a value for an absent id appends it. A
  /// mutation through this subscript must not change the element's id.
  public subscript(id id: ID) -> Element? {
    get {
      guard let index = self.index(id: id) else { return nil }
      return self._elements[index]
    }
    _modify {
      if let index = self.index(id: id) {
        yield &self._elements[index]
        if self._elements[index] == nil {
          self._removeSlot(at: index)
        } else {
          assert(self._id(self._elements[index]!) == id, "An element's id changed in place")
        }
      } else {
        var newElement: Element? = nil
        yield &newElement
        if let newElement {
          precondition(self._id(newElement) == id, "Element id does not match subscript id")
          self._appendNew(newElement, id: id)
        }
      }
    }
  }

  /// Calls `body` with the element of the given id, in place, if it exists.
  ///
  /// The send path of `forEach` uses this: one hash lookup, no copy of the element.
  ///
  /// - Returns: The result of `body`, or `nil` when no element has that id.
  /// The ids, through a mutating method so that `state[keyPath: kp]._idsSnapshot()` is one
  /// in-place key path *modify* access: a key path read copies the array struct, and goes
  /// through the runtime's generic projection, which looks up type metadata on every call.
  @inlinable
  mutating func _idsSnapshot() -> [ID] {
    self._ids
  }

  @inlinable
  mutating func _modifyAndIDs<R>(id: ID, _ body: (inout Element) -> R) -> (R?, [ID]) {
    guard let index = self.index(id: id) else { return (nil, self._ids) }
    return (body(&self._elements[index]!), self._ids)
  }

  @inlinable
  mutating func _modify<R>(id: ID, _ body: (inout Element) -> R) -> R? {
    guard let index = self.index(id: id) else { return nil }
    return body(&self._elements[index]!)
  }

  /// Appends an element if its id is not already present.
  ///
  /// - Returns: Whether it was inserted, and the index of the element with that id.
  @discardableResult
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    let elementID = self._id(element)
    if let index = self.index(id: elementID) { return (false, index) }
    self._appendNew(element, id: elementID)
    return (true, self._elements.count - 1)
  }

  /// Appends the elements whose ids are not already present.
  public mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
    for element in elements { self.append(element) }
  }

  /// Inserts an element at a position, if its id is not already present: the elements move
  /// as in an `Array`, and O(min(*i*, *n* − *i*)) ids are renumbered (O(1) at either end).
  ///
  /// - Returns: Whether it was inserted, and the index of the element with that id.
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> (inserted: Bool, index: Int) {
    let elementID = self._id(element)
    if let existing = self.index(id: elementID) { return (false, existing) }
    self._elements.insert(element, at: index)
    self._ids.insert(elementID, at: index)
    if index < self._ids.count / 2 {
      // Everything after `index` moved up one: move the base instead, and renumber the front.
      self._base -= 1
      self._renumber(in: 0...index)
    } else {
      self._renumber(from: index)
    }
    return (true, index)
  }

  /// Replaces the element with the same id, or appends it.
  ///
  /// - Returns: The element that was replaced, if any.
  @discardableResult
  public mutating func updateOrAppend(_ element: Element) -> Element? {
    let elementID = self._id(element)
    if let index = self.index(id: elementID) {
      let old = self._elements[index]
      self._elements[index] = element
      return old
    }
    self._appendNew(element, id: elementID)
    return nil
  }

  /// Removes the element with the given id. O(*n* − *i*) for the shift, O(1) at the end.
  ///
  /// - Returns: The removed element, or `nil` when there was none.
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let index = self.index(id: id) else { return nil }
    return self.remove(at: index)
  }

  /// Removes the element at a position: the elements move as in an `Array`, and
  /// O(min(*i*, *n* − *i*)) ids are renumbered (O(1) at either end).
  ///
  /// - Returns: The removed element.
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    let element = self._elements[index]!
    self._removeSlot(at: index)
    return element
  }

  /// Removes the elements that satisfy a predicate, in one O(*n*) pass.
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    var kept: [Element?] = []
    var keptIDs: [ID] = []
    kept.reserveCapacity(self._elements.count)
    keptIDs.reserveCapacity(self._elements.count)
    for (element, elementID) in zip(self._elements, self._ids)
    where !(try shouldBeRemoved(element!)) {
      kept.append(element)
      keptIDs.append(elementID)
    }
    guard kept.count != self._elements.count else { return }
    self._elements = kept
    self._ids = keptIDs
    self._positions = [:]
    self._base = 0
    self._renumber(from: 0)
  }

  /// Removes every element.
  public mutating func removeAll() {
    self._elements.removeAll()
    self._ids.removeAll()
    self._positions.removeAll()
    self._base = 0
  }

  /// Removes and returns the last element. O(1).
  @discardableResult
  public mutating func removeLast() -> Element {
    self.remove(at: self._elements.count - 1)
  }

  /// Removes and returns the first element (O(1) renumbering; the elements move as in an
  /// `Array`).
  @discardableResult
  public mutating func removeFirst() -> Element {
    self.remove(at: 0)
  }

  /// Moves the element at one position to another, shifting the ones between.
  public mutating func move(from source: Int, to destination: Int) {
    guard source != destination else { return }
    let element = self._elements.remove(at: source)
    let elementID = self._ids.remove(at: source)
    self._elements.insert(element, at: destination)
    self._ids.insert(elementID, at: destination)
    self._renumber(from: Swift.min(source, destination))
  }

  /// Returns the elements that satisfy a predicate, as an identified array.
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Self {
    var result = self
    try result.removeAll { try !isIncluded($0) }
    return result
  }

  /// Sorts the elements in place.
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    let sorted = try self._elements.map { $0! }.sorted(by: areInIncreasingOrder)
    self = Self(uniqueElements: sorted, id: self._idPath)
  }

  // MARK: - Internal bookkeeping

  @inline(__always)
  func _id(_ element: Element) -> ID {
    element[keyPath: self._idPath]
  }

  private mutating func _appendNew(_ element: Element, id: ID) {
    self._positions[id] = self._elements.count + self._base
    self._elements.append(element)
    self._ids.append(id)
  }

  private mutating func _removeSlot(at index: Int) {
    let removedID = self._ids.remove(at: index)
    self._elements.remove(at: index)
    self._positions[removedID] = nil
    if index < self._ids.count / 2 {
      // Everything after `index` moved down one: move the base instead, renumber the front.
      self._base += 1
      if index > 0 { self._renumber(in: 0...(index - 1)) }
    } else {
      self._renumber(from: index)
    }
  }

  mutating func _renumber(from start: Int) {
    guard start < self._ids.count else { return }
    self._renumber(in: start...(self._ids.count - 1))
  }

  private mutating func _renumber(in range: ClosedRange<Int>) {
    for index in range {
      self._positions[self._ids[index]] = index + self._base
    }
  }
}

/// An identified array of `Identifiable` elements, identified by their `id`.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>

extension IdentifiedArray where Element: Identifiable, ID == Element.ID {
  /// Creates an identified array from `Identifiable` elements whose ids are unique.
  public init<S: Sequence>(uniqueElements elements: S) where S.Element == Element {
    self.init(uniqueElements: elements, id: \.id)
  }

  /// Creates an empty identified array.
  public init() {
    self.init(uniqueElements: [], id: \.id)
  }
}

extension IdentifiedArray: ExpressibleByArrayLiteral where Element: Identifiable, ID == Element.ID {
  /// Creates an identified array from a literal of elements with unique ids.
  public init(arrayLiteral elements: Element...) {
    self.init(uniqueElements: elements)
  }
}

extension IdentifiedArray: RandomAccessCollection, MutableCollection {
  /// The position of the first element.
  public var startIndex: Int { 0 }
  /// The position past the last element.
  public var endIndex: Int { self._elements.count }
  /// The number of elements.
  public var count: Int { self._elements.count }

  /// Accesses the element at a position. Setting must keep the element's id.
  public subscript(position: Int) -> Element {
    get { self._elements[position]! }
    set {
      precondition(self._id(newValue) == self._ids[position], "An element's id cannot change")
      self._elements[position] = newValue
    }
    _modify {
      yield &self._elements[position]!
      assert(self._id(self._elements[position]!) == self._ids[position], "An element's id changed")
    }
  }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  /// Whether two identified arrays hold equal elements in the same order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs._elements == rhs._elements
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  /// Hashes the elements in order.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self._elements)
  }
}

extension IdentifiedArray: Sendable where ID: Sendable, Element: Sendable {}

extension IdentifiedArray: Encodable where Element: Encodable {
  /// Encodes the elements as a plain array.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for element in self._elements { try container.encode(element!) }
  }
}

extension IdentifiedArray: Decodable where Element: Decodable & Identifiable, ID == Element.ID {
  /// Decodes a plain array of elements; duplicated ids are a data corruption error.
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    self.init()
    while !container.isAtEnd {
      let element = try container.decode(Element.self)
      guard self.append(element).inserted else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "Duplicate element id \(element.id)")
      }
    }
  }
}

extension IdentifiedArray: CustomStringConvertible {
  /// The elements, formatted like an array.
  public var description: String { self.elements.description }
}

extension IdentifiedArray: CustomReflectable {
  /// Reflects as the array of elements.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: self.elements, displayStyle: .collection)
  }
}
