#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A readable, multi-line rendering of a value for `_printChanges` (and test-store diffs), built
/// with `Mirror`. Debugging path only.
///
/// ```
/// Feature.State(
///   count: 1,
///   todos: [
///     [0]: Todo(
///       id: 1,
///       title: "Milk"
///     )
///   ]
/// )
/// ```
func _dumpLines(_ value: Any) -> [String] {
  var lines: [String] = []
  _dump(value, prefix: "", suffix: "", indent: "", topLevel: true, into: &lines)
  return lines
}

/// Dates print in UTC to the millisecond, as ISO 8601.
private let _dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

private func _typeName(_ type: Any.Type) -> String {
  var name = _typeName(type, qualified: true)
  // Drop the module name: "Module.Feature.State" → "Feature.State".
  if let dot = name.firstIndex(of: "."), !name[..<dot].contains("<") {
    name = String(name[name.index(after: dot)...])
  }
  return name
}

private func _dump(
  _ value: Any, prefix: String, suffix: String, indent: String, topLevel: Bool,
  into lines: inout [String]
) {
  func leaf(_ text: String) { lines.append(indent + prefix + text + suffix) }

  // The app's own say over its dump (CustomDump's protocols) comes first.
  if let value = value as? any CustomDumpRepresentable {
    return _dump(
      value.customDumpValue, prefix: prefix, suffix: suffix, indent: indent, topLevel: topLevel,
      into: &lines)
  }
  if let value = value as? any CustomDumpStringConvertible {
    return leaf(value.customDumpDescription)
  }

  switch value {
  case let string as String:
    return leaf(String(reflecting: string))
  case let character as Character:
    return leaf(String(reflecting: character))
  case is any Numeric, is Bool:
    return leaf("\(value)")
  case let uuid as UUID:
    return leaf("UUID(\(uuid.uuidString))")
  case let url as URL:
    return leaf("URL(\(url.absoluteString))")
  case let date as Date:
    return leaf("Date(\(date.formatted(_dateStyle)))")
  case let duration as Duration:
    return leaf("Duration(\(duration))")
  default:
    break
  }

  var mirror = Mirror(reflecting: value)
  if let custom = (value as? any CustomDumpReflectable)?.customDumpMirror {
    // A custom mirror without a display style dumps as a struct, as CustomDump does.
    mirror =
      custom.displayStyle == nil
      ? Mirror(value, children: custom.children, displayStyle: .struct) : custom
  }
  let children = Array(mirror.children)
  let inner = indent + "  "

  // A value that shows nothing to reflection (a type with custom storage) would print as an
  // empty `Type()`, making different values look equal: print what it says about itself.
  if children.isEmpty, mirror.displayStyle != .enum, mirror.displayStyle != .optional,
    mirror.displayStyle != .collection, mirror.displayStyle != .set,
    mirror.displayStyle != .dictionary
  {
    if let value = value as? any CustomStringConvertible {
      return leaf(value.description)
    }
    if let value = value as? any CustomDebugStringConvertible {
      return leaf(value.debugDescription)
    }
  }

  switch mirror.displayStyle {
  case .optional:
    guard let wrapped = children.first?.value else { return leaf("nil") }
    _dump(wrapped, prefix: prefix, suffix: suffix, indent: indent, topLevel: topLevel, into: &lines)

  case .enum:
    let typePrefix = topLevel ? _typeName(type(of: value)) : ""
    guard let payload = children.first else {
      return leaf(typePrefix + "." + "\(value)")
    }
    let caseName = payload.label ?? "\(value)"
    let payloadMirror = Mirror(reflecting: payload.value)
    if payloadMirror.displayStyle == .tuple, !payloadMirror.children.isEmpty {
      lines.append(indent + prefix + typePrefix + "." + caseName + "(")
      let elements = Array(payloadMirror.children)
      for (offset, element) in elements.enumerated() {
        let label = element.label.map { $0.hasPrefix(".") ? "" : $0 + ": " } ?? ""
        _dump(
          element.value, prefix: label, suffix: offset == elements.count - 1 ? "" : ",",
          indent: inner, topLevel: false, into: &lines)
      }
      lines.append(indent + ")" + suffix)
    } else {
      var payloadLines: [String] = []
      _dump(payload.value, prefix: "", suffix: "", indent: "", topLevel: false, into: &payloadLines)
      if payloadLines.count == 1 {
        leaf(typePrefix + "." + caseName + "(" + payloadLines[0] + ")")
      } else {
        lines.append(indent + prefix + typePrefix + "." + caseName + "(")
        lines.append(contentsOf: payloadLines.map { inner + $0 })
        lines.append(indent + ")" + suffix)
      }
    }

  case .collection, .set:
    guard !children.isEmpty else { return leaf("[]") }
    lines.append(indent + prefix + "[")
    for (offset, child) in children.enumerated() {
      _dump(
        child.value, prefix: "[\(offset)]: ", suffix: offset == children.count - 1 ? "" : ",",
        indent: inner, topLevel: false, into: &lines)
    }
    lines.append(indent + "]" + suffix)

  case .dictionary:
    guard !children.isEmpty else { return leaf("[:]") }
    lines.append(indent + prefix + "[")
    let pairs = children.map { child -> (String, Any) in
      let pair = Array(Mirror(reflecting: child.value).children)
      let key = pair.first.map { _dumpLines($0.value).joined(separator: " ") } ?? "?"
      return (key, pair.last?.value ?? ())
    }.sorted { $0.0 < $1.0 }
    for (offset, (key, child)) in pairs.enumerated() {
      _dump(
        child, prefix: key + ": ", suffix: offset == pairs.count - 1 ? "" : ",",
        indent: inner, topLevel: false, into: &lines)
    }
    lines.append(indent + "]" + suffix)

  case .struct, .class, .tuple:
    let name = mirror.displayStyle == .tuple ? "" : _typeName(type(of: value))
    guard !children.isEmpty else { return leaf(name + "()") }
    lines.append(indent + prefix + name + "(")
    for (offset, child) in children.enumerated() {
      let label = child.label.map { $0.hasPrefix(".") ? "" : $0 + ": " } ?? ""
      _dump(
        child.value, prefix: label, suffix: offset == children.count - 1 ? "" : ",",
        indent: inner, topLevel: false, into: &lines)
    }
    lines.append(indent + ")" + suffix)

  default:
    leaf("\(value)")
  }
}

/// A line diff: unchanged lines prefixed with two spaces, removed with `- `, added with `+ `
/// (`-`/`+` replace the first of the two spaces). `nil` when the lines are equal.
func _lineDiff(_ old: [String], _ new: [String]) -> String? {
  guard old != new else { return nil }
  // Trim the common prefix and suffix, then run an LCS on the middle.
  var start = 0
  while start < old.count, start < new.count, old[start] == new[start] { start += 1 }
  var oldEnd = old.count
  var newEnd = new.count
  while oldEnd > start, newEnd > start, old[oldEnd - 1] == new[newEnd - 1] {
    oldEnd -= 1
    newEnd -= 1
  }
  let a = Array(old[start..<oldEnd])
  let b = Array(new[start..<newEnd])
  var output = old[..<start].map { "  " + $0 }
  if a.count * b.count > 4_000_000 {
    // Too large for a quadratic table: show the whole middle as removed then added.
    output += a.map { "- " + $0 }
    output += b.map { "+ " + $0 }
  } else {
    var lengths = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        lengths[i][j] =
          a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
      }
    }
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      if i < a.count, j < b.count, a[i] == b[j] {
        output.append("  " + a[i])
        i += 1
        j += 1
      } else if j < b.count, i == a.count || lengths[i][j + 1] >= lengths[i + 1][j] {
        // Prefer removals before additions at the same point.
        if i < a.count, lengths[i + 1][j] >= lengths[i][j + 1] {
          output.append("- " + a[i])
          i += 1
        } else {
          output.append("+ " + b[j])
          j += 1
        }
      } else {
        output.append("- " + a[i])
        i += 1
      }
    }
  }
  output += old[oldEnd...].map { "  " + $0 }
  return output.joined(separator: "\n")
}
