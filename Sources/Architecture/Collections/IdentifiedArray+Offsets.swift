extension IdentifiedArray {
  /// Removes the elements at a set of positions, as SwiftUI's `onDelete` hands them over.
  ///
  /// ```swift
  /// case .onDelete(let offsets):
  ///   state.todos.remove(atOffsets: offsets)
  /// ```
  ///
  /// O(*n*): the remaining elements are renumbered once. Takes any collection of positions,
  /// so Foundation's `IndexSet` as well as an array.
  ///
  /// - Parameter offsets: Positions of elements; each must be a valid index.
  public mutating func remove(atOffsets offsets: some Sequence<Int>) {
    let offsets = Set(offsets)
    guard !offsets.isEmpty else { return }
    precondition(
      offsets.allSatisfy(self.indices.contains),
      "Offsets \(offsets.sorted()) out of bounds for an identified array of \(self.count) elements")
    var kept: [Element?] = []
    var keptIDs: [ID] = []
    kept.reserveCapacity(self._elements.count - offsets.count)
    keptIDs.reserveCapacity(self._elements.count - offsets.count)
    for index in self._elements.indices where !offsets.contains(index) {
      kept.append(self._elements[index])
      keptIDs.append(self._ids[index])
    }
    self._replaceAll(elements: kept, ids: keptIDs)
  }

  /// Moves the elements at a set of positions to a destination, keeping their order, as
  /// SwiftUI's `onMove` hands them over.
  ///
  /// ```swift
  /// case let .onMove(source, destination):
  ///   state.todos.move(fromOffsets: source, toOffset: destination)
  /// ```
  ///
  /// The destination is a position in the array before the move: the moved elements end up
  /// just before the element that was at `destination` (or at the end when it is `count`).
  /// O(*n*). Takes any collection of positions, so Foundation's `IndexSet` as well as an array.
  ///
  /// - Parameters:
  ///   - source: Positions of the elements to move.
  ///   - destination: Where to move them, as a position before the move (0...`count`).
  public mutating func move(fromOffsets source: some Sequence<Int>, toOffset destination: Int) {
    let source = Set(source)
    guard !source.isEmpty else { return }
    precondition(
      source.allSatisfy(self.indices.contains) && (0...self.count).contains(destination),
      "Offsets \(source.sorted()) or destination \(destination) out of bounds for an identified"
        + " array of \(self.count) elements")
    var moved: [(Element?, ID)] = []
    var kept: [(Element?, ID)] = []
    for index in self._elements.indices {
      let pair = (self._elements[index], self._ids[index])
      if source.contains(index) { moved.append(pair) } else { kept.append(pair) }
    }
    let insertion = destination - source.count { $0 < destination }
    kept.insert(contentsOf: moved, at: insertion)
    self._replaceAll(elements: kept.map(\.0), ids: kept.map(\.1))
  }

  /// Replaces the storage with elements and their ids (same ids as before, in a new order or a
  /// subset) and renumbers every position.
  private mutating func _replaceAll(elements: [Element?], ids: [ID]) {
    self._elements = elements
    self._ids = ids
    self._positions = [:]
    self._positions.reserveCapacity(ids.count)
    self._base = 0
    self._renumber(from: 0)
  }
}
