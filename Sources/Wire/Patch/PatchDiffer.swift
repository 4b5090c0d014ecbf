/// Computes a JSON Patch of `add`, `remove` and `replace` operations between two documents.
///
/// Objects are compared member by member. Arrays are compared in three stages: equal leading
/// and trailing elements are skipped (cheaply, since unchanged elements usually share storage),
/// then the differing middle is aligned (by `"id"` member when every element there is an object
/// with a distinct `id`, otherwise by equality), and the elements between alignment anchors are
/// paired up and diffed, with any surplus removed or added.
struct PatchDiffer {
  /// The operations so far, in application order.
  private(set) var ops: [JSONPatchOperation] = []
  /// The location being compared, as tokens.
  private var path: [String] = []

  /// The most insertions plus deletions the equality alignment of an array's middle searches
  /// for before falling back to pairing elements by position.
  static let maxAlignmentEdits = 512
  /// A bound on the element comparisons the equality alignment may make, ~(n + m) per edit.
  static let maxAlignmentWork = 4_000_000

  /// Appends the operations that turn `old` into `new` at the current location.
  mutating func diff(_ old: JSON, _ new: JSON) {
    if DiffEquality.identical(old, new) { return }
    switch (old, new) {
    case (.object(let old), .object(let new)):
      self.diffObjects(old, new)
    case (.array(let old), .array(let new)):
      self.diffArrays(old, new)
    default:
      if !(old == new) { self.ops.append(.replace(path: self.pointer(), value: new)) }
    }
  }

  private func pointer() -> JSONPointer {
    JSONPointer(tokens: self.path)
  }

  private func pointer(_ token: String) -> JSONPointer {
    JSONPointer(tokens: self.path + [token])
  }

  private mutating func diff(_ old: JSON, _ new: JSON, at token: String) {
    self.path.append(token)
    self.diff(old, new)
    self.path.removeLast()
  }

  // MARK: - Objects

  private mutating func diffObjects(_ old: JSONObject, _ new: JSONObject) {
    let oldMembers = Array(old)
    let newMembers = Array(new)
    // For each old member, the position of the new member with its key. Members usually keep
    // their order, so look at the same position first; index a large object whose order differs.
    var matches = [Int?](repeating: nil, count: oldMembers.count)
    var isMatched = [Bool](repeating: false, count: newMembers.count)
    var newIndex: [String: Int]?
    var matchCount = 0
    for (position, member) in oldMembers.enumerated() {
      let found: Int?
      if position < newMembers.count, newMembers[position].key == member.key {
        found = position
      } else if newMembers.count <= 16 {
        found = newMembers.firstIndex { $0.key == member.key }
      } else {
        if newIndex == nil {
          newIndex = Dictionary(
            newMembers.enumerated().map { ($0.element.key, $0.offset) },
            uniquingKeysWith: { first, _ in first })
        }
        found = newIndex?[member.key]
      }
      if let found {
        matches[position] = found
        isMatched[found] = true
        matchCount += 1
      }
    }
    // With no member in common, one `replace` says it all.
    if matchCount == 0, !oldMembers.isEmpty, !newMembers.isEmpty {
      self.ops.append(.replace(path: self.pointer(), value: .object(new)))
      return
    }
    for (position, member) in oldMembers.enumerated() {
      if let found = matches[position] {
        self.diff(member.value, newMembers[found].value, at: member.key)
      } else {
        self.ops.append(.remove(path: self.pointer(member.key)))
      }
    }
    for (position, member) in newMembers.enumerated() where !isMatched[position] {
      self.ops.append(.add(path: self.pointer(member.key), value: member.value))
    }
  }

  // MARK: - Arrays

  private mutating func diffArrays(_ old: [JSON], _ new: [JSON]) {
    let (prefix, suffix) = old.withUnsafeBufferPointer { o in
      new.withUnsafeBufferPointer { n in
        let prefix = DiffEquality.commonPrefixCount(o, n, limit: min(o.count, n.count))
        let suffix = DiffEquality.commonSuffixCount(
          o, n, limit: min(o.count, n.count) - prefix)
        return (prefix, suffix)
      }
    }
    let oldEnd = old.count - suffix
    let newEnd = new.count - suffix
    if prefix == oldEnd, prefix == newEnd { return }
    // Emptying or filling a whole array is one `replace`, not one operation per element.
    if (old.isEmpty && new.count > 1) || (new.isEmpty && old.count > 1) {
      self.ops.append(.replace(path: self.pointer(), value: .array(new)))
      return
    }
    let oldMiddle = prefix..<oldEnd
    let newMiddle = prefix..<newEnd
    if oldMiddle.isEmpty || newMiddle.isEmpty {
      self.emitGap(old: oldMiddle, new: newMiddle, of: old, new, idMode: false)
      return
    }
    let idMode: Bool
    let anchors: [SequenceAlignment.Anchor]
    if let byID = Self.alignByID(old[oldMiddle], new[newMiddle]) {
      idMode = true
      anchors = byID
    } else {
      idMode = false
      anchors = Self.alignByEquality(old[oldMiddle], new[newMiddle]) ?? []
    }
    var oldStart = prefix
    var newStart = prefix
    for anchor in anchors {
      let (oldIndex, newIndex) = (prefix + anchor.old, prefix + anchor.new)
      self.emitGap(old: oldStart..<oldIndex, new: newStart..<newIndex, of: old, new, idMode: idMode)
      if idMode { self.diff(old[oldIndex], new[newIndex], at: String(newIndex)) }
      oldStart = oldIndex + 1
      newStart = newIndex + 1
    }
    self.emitGap(old: oldStart..<oldEnd, new: newStart..<newEnd, of: old, new, idMode: idMode)
  }

  /// Emits the operations for a run of removed old elements and inserted new elements between
  /// two anchors, when everything before the run already has its new shape, so that the run
  /// starts at index `newRange.lowerBound`.
  ///
  /// Pairs are diffed in place (elements with different ids are replaced whole); surplus old
  /// elements are removed from the highest index down, surplus new ones added in order.
  private mutating func emitGap(
    old oldRange: Range<Int>,
    new newRange: Range<Int>,
    of old: [JSON],
    _ new: [JSON],
    idMode: Bool
  ) {
    let paired = min(oldRange.count, newRange.count)
    let start = newRange.lowerBound
    for offset in 0..<paired {
      let (oldElement, newElement) = (old[oldRange.lowerBound + offset], new[start + offset])
      if idMode, !(Self.id(of: oldElement) == Self.id(of: newElement)) {
        self.ops.append(.replace(path: self.pointer(String(start + offset)), value: newElement))
      } else {
        self.diff(oldElement, newElement, at: String(start + offset))
      }
    }
    for offset in stride(from: oldRange.count - 1, through: paired, by: -1) {
      self.ops.append(.remove(path: self.pointer(String(start + offset))))
    }
    for offset in paired..<max(paired, newRange.count) {
      self.ops.append(.add(path: self.pointer(String(start + offset)), value: new[start + offset]))
    }
  }

  private static func id(of element: JSON) -> JSON? {
    guard case .object(let object) = element else { return nil }
    return object["id"]
  }

  /// Anchors matching elements with equal `"id"` members, or `nil` unless every element of both
  /// slices is an object with an `id` that is unique within its slice.
  private static func alignByID(
    _ old: ArraySlice<JSON>,
    _ new: ArraySlice<JSON>
  ) -> [SequenceAlignment.Anchor]? {
    var newPositions: [JSON: Int] = [:]
    newPositions.reserveCapacity(new.count)
    for (offset, element) in new.enumerated() {
      guard let id = Self.id(of: element), newPositions.updateValue(offset, forKey: id) == nil
      else { return nil }
    }
    var seen = Set<JSON>()
    seen.reserveCapacity(old.count)
    var pairs: [SequenceAlignment.Anchor] = []
    for (offset, element) in old.enumerated() {
      guard let id = Self.id(of: element), seen.insert(id).inserted else { return nil }
      if let newOffset = newPositions[id] { pairs.append((offset, newOffset)) }
    }
    // Ids are unique on both sides, so the longest common subsequence of ids is the longest
    // chain of matches increasing in both positions.
    return SequenceAlignment.longestIncreasingChain(pairs)
  }

  /// Anchors matching equal elements, or `nil` if the slices differ too much to align cheaply.
  private static func alignByEquality(
    _ old: ArraySlice<JSON>,
    _ new: ArraySlice<JSON>
  ) -> [SequenceAlignment.Anchor]? {
    let total = old.count + new.count
    let maxEdits = min(Self.maxAlignmentEdits, max(2, Self.maxAlignmentWork / total))
    let (oldBase, newBase) = (old.startIndex, new.startIndex)
    return SequenceAlignment.myers(oldCount: old.count, newCount: new.count, maxEdits: maxEdits) {
      DiffEquality.equal(old[oldBase + $0], new[newBase + $1])
    }
  }
}

extension JSONPatch {
  /// Computes operations that turn `old` into `new`, using only `add`, `remove` and `replace`.
  ///
  /// `apply(diff(from: old, to: new), to: old) == new` always holds. The patch is small for
  /// the common changes:
  /// - identical documents give `[]`, immediately when they share storage;
  /// - a changed scalar gives one `replace` at its path; a change of type, one `replace` of the
  ///   value (at `""` for the whole document);
  /// - numbers equal in value (`1` and `1.0`) and objects with the same members in another
  ///   order count as unchanged, as for `==`;
  /// - object members are added and removed by name; an object that keeps no member's name is
  ///   replaced whole;
  /// - an element inserted into or removed from an array gives one `add` or `remove` at its
  ///   index — appends use the explicit index (`/items/3`), never `-`, so a client whose copy
  ///   has diverged gets an error instead of a silently wrong document;
  /// - arrays whose differing elements are all objects with distinct `"id"` members are
  ///   matched by id: an element changed in place gives operations inside it, and removed,
  ///   inserted or reordered elements give `remove`s and `add`s;
  /// - other arrays keep their longest run of equal elements and diff the rest pairwise;
  /// - emptying or filling a whole array is one `replace`.
  ///
  /// - Parameters:
  ///   - old: The document the patch applies to.
  ///   - new: The document the patch produces.
  /// - Returns: The operations, in application order.
  public static func diff(from old: JSON, to new: JSON) -> [JSONPatchOperation] {
    var differ = PatchDiffer()
    differ.diff(old, new)
    return differ.ops
  }
}
