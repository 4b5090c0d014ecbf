/// Applies patch operations in place and, when asked, records how to undo each one.
///
/// Undo steps hold the values an operation removed or overwrote (references, not copies) and
/// concrete locations (an appended `-` becomes its index), so that replaying them in reverse
/// restores the document exactly, member order included.
struct PatchApplier {
  /// One step that reverts one change. Paths are token arrays.
  private enum UndoStep {
    /// Put back `value` where something now stands.
    case restore([String], JSON)
    /// Remove the member or element that now stands at the location.
    case delete([String])
    /// Insert `value` back into the array at `parent` at `index`.
    case insertElement(parent: [String], index: Int, value: JSON)
    /// Insert `value` back into the object at `parent` as `key`, at member `position`.
    case insertMember(parent: [String], key: String, position: Int, value: JSON)
  }

  private let recordsUndo: Bool
  private var undoLog: [UndoStep] = []

  init(recordsUndo: Bool) {
    self.recordsUndo = recordsUndo
  }

  /// Applies `ops` in order, stopping at the first failure with its index in the error.
  mutating func apply(_ ops: [JSONPatchOperation], to document: inout JSON) throws(JSONPatchError) {
    for (index, op) in ops.enumerated() {
      do {
        try self.apply(op, to: &document)
      } catch {
        throw JSONPatchError(error.kind, operationIndex: index)
      }
    }
  }

  /// Reverts every recorded operation, newest first.
  mutating func undo(_ document: inout JSON) {
    while let step = self.undoLog.popLast() {
      do {
        try Self.revert(step, in: &document)
      } catch {
        // Each step replays the exact inverse of a change that succeeded on this very document,
        // so its location exists; failing here would be a bug in this file, not bad input.
        preconditionFailure("JSON Patch undo failed: \(error)")
      }
    }
  }

  private mutating func apply(_ op: JSONPatchOperation, to document: inout JSON)
    throws(JSONPatchError)
  {
    switch op {
    case .add(let path, let value):
      try self.add(value, at: path.tokens, in: &document)
    case .remove(let path):
      _ = try self.remove(at: path.tokens, in: &document)
    case .replace(let path, let value):
      let old = try document.withValue(atPointerTokens: path.tokens) {
        target throws(JSONPatchError) in
        let old = target
        target = value
        return old
      }
      self.record(.restore(path.tokens, old))
    case .move(let from, let path):
      if from == path {
        _ = try document.value(atPointerTokens: from.tokens)
        return
      }
      if from.isProperPrefix(of: path) {
        throw JSONPatchError(.moveIntoDescendant(from: from, path: path))
      }
      let value = try self.remove(at: from.tokens, in: &document)
      try self.add(value, at: path.tokens, in: &document)
    case .copy(let from, let path):
      try self.add(try document.value(atPointerTokens: from.tokens), at: path.tokens, in: &document)
    case .test(let path, let value):
      guard try document.value(atPointerTokens: path.tokens) == value else {
        throw JSONPatchError(.testFailed(path))
      }
    }
  }

  private mutating func record(_ step: @autoclosure () -> UndoStep) {
    if self.recordsUndo { self.undoLog.append(step()) }
  }

  /// RFC 6902 §4.1: replace the root, set an object member, or insert an array element.
  private mutating func add(_ value: JSON, at path: [String], in document: inout JSON)
    throws(JSONPatchError)
  {
    guard let last = path.last else {
      self.record(.restore([], document))
      document = value
      return
    }
    let parentPath = Array(path.dropLast())
    enum Outcome {
      case replacedMember(JSON)
      case addedMember
      case insertedElement(Int)
    }
    let outcome = try document.withValue(atPointerTokens: parentPath) {
      parent throws(JSONPatchError) in
      if var object = parent.takeObjectForMutation() {
        defer { parent = .object(object) }
        let old = object[last]
        object[last] = value
        return old.map(Outcome.replacedMember) ?? .addedMember
      }
      guard var array = parent.takeArrayForMutation() else {
        throw JSONPatchError(.notAContainer(JSONPointer(tokens: path)))
      }
      defer { parent = .array(array) }
      let index: Int
      if last == "-" {
        index = array.count
      } else {
        guard let position = JSONPointer.arrayIndex(last) else {
          throw JSONPatchError(.invalidArrayIndex(JSONPointer(tokens: path)))
        }
        guard position <= array.count else {
          throw JSONPatchError(.indexOutOfBounds(JSONPointer(tokens: path), count: array.count))
        }
        index = position
      }
      array.insert(value, at: index)
      return .insertedElement(index)
    }
    switch outcome {
    case .replacedMember(let old): self.record(.restore(path, old))
    case .addedMember: self.record(.delete(path))
    case .insertedElement(let index): self.record(.delete(parentPath + [String(index)]))
    }
  }

  /// RFC 6902 §4.2: remove an existing object member or array element, returning it.
  private mutating func remove(at path: [String], in document: inout JSON) throws(JSONPatchError)
    -> JSON
  {
    guard let last = path.last else { throw JSONPatchError(.cannotRemoveRoot) }
    let parentPath = Array(path.dropLast())
    let recordsUndo = self.recordsUndo
    let (removed, step) = try document.withValue(atPointerTokens: parentPath) {
      parent throws(JSONPatchError) -> (JSON, UndoStep?) in
      if var object = parent.takeObjectForMutation() {
        defer { parent = .object(object) }
        let position = recordsUndo ? Self.position(of: last, in: object) : 0
        guard let removed = object.removeValue(forKey: last) else {
          throw JSONPatchError(.noValue(JSONPointer(tokens: path)))
        }
        let step = UndoStep.insertMember(
          parent: parentPath, key: last, position: position, value: removed)
        return (removed, recordsUndo ? step : nil)
      }
      guard var array = parent.takeArrayForMutation() else {
        throw JSONPatchError(.notAContainer(JSONPointer(tokens: path)))
      }
      defer { parent = .array(array) }
      let index = try JSON.existingArrayIndex(
        last, count: array.count, path: path, depth: path.count - 1)
      let removed = array.remove(at: index)
      let step = UndoStep.insertElement(parent: parentPath, index: index, value: removed)
      return (removed, recordsUndo ? step : nil)
    }
    if let step { self.undoLog.append(step) }
    return removed
  }

  private static func position(of key: String, in object: JSONObject) -> Int {
    var position = 0
    for member in object {
      if member.key == key { return position }
      position += 1
    }
    return position
  }

  private static func revert(_ step: UndoStep, in document: inout JSON) throws(JSONPatchError) {
    switch step {
    case .restore(let path, let value):
      try document.withValue(atPointerTokens: path) { target throws(JSONPatchError) in
        target = value
      }
    case .delete(let path):
      let parentPath = Array(path.dropLast())
      let last = path.last ?? ""
      try document.withValue(atPointerTokens: parentPath) { parent throws(JSONPatchError) in
        if var object = parent.takeObjectForMutation() {
          object.removeValue(forKey: last)
          parent = .object(object)
        } else if var array = parent.takeArrayForMutation() {
          defer { parent = .array(array) }
          let index = try JSON.existingArrayIndex(
            last, count: array.count, path: path, depth: path.count - 1)
          array.remove(at: index)
        } else {
          throw JSONPatchError(.notAContainer(JSONPointer(tokens: path)))
        }
      }
    case .insertElement(let parentPath, let index, let value):
      try document.withValue(atPointerTokens: parentPath) { parent throws(JSONPatchError) in
        guard var array = parent.takeArrayForMutation() else {
          throw JSONPatchError(.notAContainer(JSONPointer(tokens: parentPath)))
        }
        array.insert(value, at: index)
        parent = .array(array)
      }
    case .insertMember(let parentPath, let key, let position, let value):
      try document.withValue(atPointerTokens: parentPath) { parent throws(JSONPatchError) in
        guard var object = parent.takeObjectForMutation() else {
          throw JSONPatchError(.notAContainer(JSONPointer(tokens: parentPath)))
        }
        if position >= object.count {
          object[key] = value
        } else {
          // JSONObject can only append, so rebuild it with the member back in its place.
          var members = object.map { ($0.key, $0.value) }
          members.insert((key, value), at: position)
          object = JSONObject(members)
        }
        parent = .object(object)
      }
    }
  }
}
