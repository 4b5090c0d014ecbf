import Remote
import Wire

/// The lines `storeclient watch` prints, in its three formats.
enum WatchFormat: String, Sendable, CaseIterable {
  /// One readable line per change: `rev 42  /count: 3 → 4`.
  case text
  /// The full state after each change, one JSON document per line.
  case json
  /// The raw JSON Patch operations of each change, one JSON object per line.
  case patch
}

/// Turns snapshots and patches into lines of `watch` output.
struct WatchFormatter: Sendable {
  /// The output format.
  var format: WatchFormat
  /// The scope name to prefix lines with (when several scopes are watched), else `nil`.
  var label: String?
  /// The longest a value may be in the text format before it is cut with `…`.
  var maxValueLength = 60

  /// The line for a snapshot (the first state, or a fresh one after a reconnection).
  func snapshot(_ snapshot: Snapshot, scope: String) -> String {
    switch self.format {
    case .text:
      return self.prefix + "rev \(snapshot.revision)  \(snapshot.state.compactString)"
    case .json:
      return self.document(scope: scope, rev: snapshot.revision, state: snapshot.state)
    case .patch:
      var object: JSONObject = ["scope": .string(scope)]
      object["rev"] = .int(snapshot.revision)
      object["state"] = snapshot.state
      return JSON.object(object).compactString
    }
  }

  /// The line for a patch, given the state it applied to and the state it produced.
  func patch(
    scope: String, base: Revision, rev: Revision, ops: [JSON], before: JSON, after: JSON
  ) -> String {
    switch self.format {
    case .text:
      return self.prefix + "rev \(rev)  " + self.describe(ops, before: before)
    case .json:
      return self.document(scope: scope, rev: rev, state: after)
    case .patch:
      var object: JSONObject = ["scope": .string(scope)]
      object["base"] = .int(base)
      object["rev"] = .int(rev)
      object["ops"] = .array(ops)
      return JSON.object(object).compactString
    }
  }

  private var prefix: String {
    self.label.map { "\($0)  " } ?? ""
  }

  /// With one scope, the state itself (`jq .count` works); with several, an object naming
  /// the scope.
  private func document(scope: String, rev: Revision, state: JSON) -> String {
    guard self.label != nil else { return state.compactString }
    var object: JSONObject = ["scope": .string(scope)]
    object["rev"] = .int(rev)
    object["state"] = state
    return JSON.object(object).compactString
  }

  /// `/count: 3 → 4; /todos/2: + {"title":"Milk"}; /todos/0: - {"title":"Eggs"}` — each
  /// operation with the value it replaced or removed, read from the state as it was just
  /// before that operation.
  func describe(_ ops: [JSON], before: JSON) -> String {
    self.describeEach(ops, before: before).joined(separator: "; ")
  }

  /// The parts of ``describe(_:before:)``, one per operation (`diff` prints one per line).
  func describeEach(_ ops: [JSON], before: JSON) -> [String] {
    var document = before
    var parts: [String] = []
    for op in ops {
      guard let operation = try? JSONPatchOperation(json: op) else {
        parts.append(self.cut(op.compactString))
        continue
      }
      let path = operation.path.isRoot ? "(state)" : operation.path.description
      let old = try? operation.path.evaluate(in: document)
      switch operation {
      case .add(_, let value):
        parts.append("\(path): + \(self.cut(value.compactString))")
      case .remove:
        parts.append("\(path): - \(old.map { self.cut($0.compactString) } ?? "?")")
      case .replace(_, let value):
        let was = old.map { self.cut($0.compactString) } ?? "?"
        parts.append("\(path): \(was) → \(self.cut(value.compactString))")
      case .move(let from, _):
        parts.append("\(path): moved from \(from)")
      case .copy(let from, _):
        parts.append("\(path): copied from \(from)")
      case .test:
        continue
      }
      if let next = try? JSONPatch.apply([operation], to: document) { document = next }
    }
    return parts
  }

  private func cut(_ text: String) -> String {
    text.count <= self.maxValueLength ? text : String(text.prefix(self.maxValueLength - 1)) + "…"
  }
}
