import Architecture
import Wire

/// Turns an identified array's recorded changes into JSON Patch operations, in O(changes).
///
/// Inserts and removes become `add` and `remove` at the positions they had when they
/// happened, in the same order, so that the client's array goes through the same sequence of
/// id orders as the host's and ends with the same one. Elements changed in place are diffed
/// once at the end, at their final position: the value the client holds for each (its value
/// before its first recorded change, or the value it was added with) against the current one,
/// so an element changed many times costs one diff, and a change that left it equal costs no
/// operation.
enum CollectionPatch {
  /// The operations that turn the array the changes start from into `array`, at `path`; `nil`
  /// if the changes do not lead to `array` (never expected: the caller falls back to the
  /// whole array).
  static func operations<ID: Hashable, Element: Encodable>(
    _ changes: ArraySlice<IdentifiedArrayChange<ID, Element>>,
    to array: IdentifiedArray<ID, Element>,
    at path: JSONPointer
  ) throws -> [JSONPatchOperation]? {
    let encoder = JSONValueEncoder()
    var ops: [JSONPatchOperation] = []
    // For each element a change touched: what the client holds now (nil once removed).
    var held: [ID: Element?] = [:]
    for change in changes {
      switch change {
      case .insert(let element, let id, let index):
        ops.append(.add(path: path.appending(index: index), value: try encoder.encode(element)))
        held[id] = .some(element)
      case .remove(let id, let index):
        ops.append(.remove(path: path.appending(index: index)))
        held[id] = .some(nil)
      case .update(let id, let old):
        if held.index(forKey: id) == nil { held[id] = .some(old) }
      }
    }
    var edits: [(index: Int, ops: [JSONPatchOperation])] = []
    for (id, value) in held {
      guard let value else { continue }
      guard let index = array.index(id: id) else { return nil }
      let old = try encoder.encode(value)
      let new = try encoder.encode(array[index])
      let diff = JSONPatch.diff(from: old, to: new)
      if !diff.isEmpty {
        edits.append((index, diff.map { $0.rebased(onto: path.appending(index: index)) }))
      }
    }
    edits.sort { $0.index < $1.index }
    for edit in edits { ops += edit.ops }
    return ops
  }
}

extension JSONPatchOperation {
  /// The same operation, its paths taken relative to `prefix`.
  func rebased(onto prefix: JSONPointer) -> JSONPatchOperation {
    func under(_ pointer: JSONPointer) -> JSONPointer {
      JSONPointer(tokens: prefix.tokens + pointer.tokens)
    }
    switch self {
    case .add(let path, let value): return .add(path: under(path), value: value)
    case .remove(let path): return .remove(path: under(path))
    case .replace(let path, let value): return .replace(path: under(path), value: value)
    case .move(let from, let path): return .move(from: under(from), path: under(path))
    case .copy(let from, let path): return .copy(from: under(from), path: under(path))
    case .test(let path, let value): return .test(path: under(path), value: value)
    }
  }
}
