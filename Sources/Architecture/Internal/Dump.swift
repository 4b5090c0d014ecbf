#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A readable, multi-line rendering of a value for test-store failures and `_printChanges`,
/// built with `Mirror`, in the layout of swift-custom-dump (which TCA's messages use), so that
/// a test matching on a failure message reads the same here:
///
/// ```
/// Feature.State(
///   count: 1,
///   todos: [
///     [0]: Todo(id: 1),
///     [1]: Todo(
///       id: 2,
///       title: "Milk"
///     )
///   ]
/// )
/// ```
///
/// A value with one property, or an enum case with one associated value, that is itself a leaf
/// (no children of its own) stays on one line: `Todo(id: 1)`, `.popFrom(id: #0)`. Enums name
/// their type at the top level only (`Feature.Action.tap`, then `.tap` inside). Type names drop
/// their module, the contexts Swift cannot name (`(unknown context at $…)`) and their generic
/// arguments. Debugging path only.
func _dumpLines(_ value: Any) -> [String] {
  var lines: [String] = []
  _dump(value, prefix: "", suffix: "", indent: "", isRoot: true, into: &lines)
  return lines
}

/// The whole dump as one string.
func _dumpString(_ value: Any) -> String {
  _dumpLines(value).joined(separator: "\n")
}

/// A value that dumps as a fixed text (swift-custom-dump's `CustomDumpStringConvertible`, for
/// the library's own types): `#0` for a stack element id.
protocol _DumpDescribable {
  /// The text the value dumps as.
  var _dumpDescription: String { get }
}

/// A collection whose order means nothing: its entries are dumped sorted.
protocol _UnorderedDump {}
extension Dictionary: _UnorderedDump {}
extension Set: _UnorderedDump {}

/// Dates print in UTC to the millisecond, as ISO 8601.
private let _dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

/// A type's name as swift-custom-dump prints it: "Feature.State" for
/// "MyModule.Feature.(unknown context at $10b4e0).State", "Int?" for "Swift.Optional<Swift.Int>";
/// with `genericsAbbreviated`, without generic arguments ("AlertState", not
/// "AlertState<Feature.Action.Alert>").
func _dumpTypeName(_ type: Any.Type, genericsAbbreviated: Bool = true) -> String {
  // Regex values are not `Sendable`: made here, on a path that only failures take.
  let unknownContext = /\(unknown context at \$[0-9a-fA-F]+\)\./
  let optionalType = /\bSwift\.Optional<([^<>]+)>/
  let arrayType = /\bSwift\.Array<([^<>]+)>/
  let dictionaryType = /\bSwift\.Dictionary<([^,<>]+), ([^<>]+)>/
  let qualifiedName = /\b\w+\.([\w.]+)/
  var name = _typeName(type, qualified: true)
  name = name.replacing(unknownContext, with: "")
  // Optional, Array and Dictionary of simple types in their sugared spelling, innermost first.
  while true {
    let sugared = name
      .replacing(optionalType) { "\($0.1)?" }
      .replacing(arrayType) { "[\($0.1)]" }
      .replacing(dictionaryType) { "[\($0.1): \($0.2)]" }
    if sugared == name { break }
    name = sugared
  }
  // Every qualified name loses its first component, the module.
  name = name.replacing(qualifiedName) { String($0.1) }
  if genericsAbbreviated, let open = name.firstIndex(of: "<"), let close = name.lastIndex(of: ">"),
    open < close
  {
    name.removeSubrange(open...close)
  }
  return name
}

/// TCA's one-line name of an enum value's cases, for messages: `Feature.Action.child(.tap)`;
/// `abbreviated` drops the type (`.child(.tap)`). Payloads that are not enums are not shown.
func _debugCaseOutput(_ value: Any, abbreviated: Bool = false) -> String {
  func cases(_ value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .enum:
      guard let child = mirror.children.first else {
        let name = "\(value)"
        return name == "\(type(of: value))" ? "" : ".\(name)"
      }
      let inner = cases(child.value)
      return ".\(child.label ?? "")\(inner.isEmpty ? "" : "(\(inner))")"
    case .tuple:
      return mirror.children.map { child in
        let inner = cases(child.value)
        let label = child.label.map { $0.hasPrefix(".") ? "_:" : "\($0):" } ?? ""
        return "\(label)\(inner.isEmpty ? "" : " \(inner)")"
      }
      .joined(separator: ", ")
    default:
      return ""
    }
  }
  if let value = value as? any CustomDebugStringConvertible,
    Mirror(reflecting: value).displayStyle != .enum
  {
    return value.debugDescription
  }
  return (abbreviated ? "" : _dumpTypeName(type(of: value))) + cases(value)
}

/// Whether a mirror is one leaf in a box: one child with no children of its own (or a value
/// that describes itself on one line), so that its value prints on the same line.
private func _isSingleValueContainer(_ mirror: Mirror) -> Bool {
  switch mirror.displayStyle {
  case .collection?, .dictionary?, .set?:
    return false
  default:
    guard mirror.children.count == 1, let child = mirror.children.first else { return false }
    if let describable = child.value as? any _DumpDescribable {
      return !describable._dumpDescription.contains("\n")
    }
    // An optional dumps as its wrapped value (`.send(.tap)`, not `.send(Optional(.tap))`).
    var value = child.value
    while case let wrapped = Mirror(reflecting: value), wrapped.displayStyle == .optional,
      let some = wrapped.children.first
    {
      value = some.value
    }
    return Mirror(reflecting: value).children.isEmpty
  }
}

private func _dump(
  _ value: Any, prefix: String, suffix: String, indent: String, isRoot: Bool,
  into lines: inout [String]
) {
  func leaf(_ text: String) {
    let text = indent + prefix + text + suffix
    lines.append(contentsOf: text.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0)
    })
  }

  // The app's own say over its dump (CustomDump's protocols) comes first.
  if let value = value as? any CustomDumpRepresentable {
    return _dump(
      value.customDumpValue, prefix: prefix, suffix: suffix, indent: indent, isRoot: isRoot,
      into: &lines)
  }
  if let value = value as? any CustomDumpStringConvertible {
    return leaf(value.customDumpDescription)
  }

  switch value {
  case let type as Any.Type:
    return leaf("\(_dumpTypeName(type)).self")
  case let describable as any _DumpDescribable:
    return leaf(describable._dumpDescription)
  case let string as String:
    return leaf(_dumpString(string, indent: indent + String(repeating: " ", count: 0)))
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

  // A value that shows nothing to reflection (a type with custom storage) would print as an
  // empty `Type()`, making different values look equal: print what it says about itself.
  if children.isEmpty, mirror.displayStyle != .enum, mirror.displayStyle != .optional,
    mirror.displayStyle != .collection, mirror.displayStyle != .set,
    mirror.displayStyle != .dictionary, mirror.displayStyle != .tuple
  {
    if let value = value as? any CustomStringConvertible {
      return leaf(value.description)
    }
    if let value = value as? any CustomDebugStringConvertible {
      return leaf(value.debugDescription)
    }
  }

  /// Dumps children between `open` and `close`: on one line for a single leaf, else one per
  /// line.
  func dumpChildren(
    _ children: [(label: String?, value: Any)], of mirror: Mirror, open: String, close: String
  ) {
    guard !children.isEmpty else { return leaf(open + close) }
    if _isSingleValueContainer(mirror), let child = children.first {
      var inner: [String] = []
      let label = child.label.map { "\($0): " } ?? ""
      _dump(child.value, prefix: label, suffix: "", indent: "", isRoot: false, into: &inner)
      if inner.count == 1 { return leaf(open + inner[0] + close) }
    }
    lines.append(indent + prefix + open)
    let inner = indent + "  "
    for (offset, child) in children.enumerated() {
      let label = child.label.map { "\($0): " } ?? ""
      _dump(
        child.value, prefix: label, suffix: offset == children.count - 1 ? "" : ",",
        indent: inner, isRoot: false, into: &lines)
    }
    lines.append(indent + close + suffix)
  }

  func labeled(_ children: [Mirror.Child]) -> [(label: String?, value: Any)] {
    children.map { child in
      // Tuple elements without a label reflect as ".0", ".1": no label.
      (child.label.flatMap { $0.hasPrefix(".") ? nil : $0 }, child.value)
    }
  }

  switch mirror.displayStyle {
  case .optional:
    guard let wrapped = children.first?.value else { return leaf("nil") }
    _dump(wrapped, prefix: prefix, suffix: suffix, indent: indent, isRoot: isRoot, into: &lines)

  case .enum:
    let typePrefix = isRoot ? _dumpTypeName(mirror.subjectType) : ""
    guard let payload = children.first else {
      return leaf(typePrefix + "." + "\(value)")
    }
    let caseName = payload.label ?? "@unknown"
    let payloadMirror = Mirror(reflecting: payload.value)
    if payloadMirror.displayStyle == .tuple {
      dumpChildren(
        labeled(Array(payloadMirror.children)), of: payloadMirror,
        open: typePrefix + "." + caseName + "(", close: ")")
    } else {
      let boxed = Mirror(payload.value, unlabeledChildren: [payload.value], displayStyle: .tuple)
      dumpChildren(
        [(nil, payload.value)], of: boxed, open: typePrefix + "." + caseName + "(", close: ")")
    }

  case .collection:
    dumpChildren(
      children.enumerated().map { ("[\($0.offset)]", $0.element.value) }, of: mirror,
      open: "[", close: "]")

  case .set:
    let elements = children.map { _dumpString($0.value) }.sorted()
    dumpChildren(elements.map { (nil, _Verbatim($0) as Any) }, of: mirror, open: "Set([", close: "])")

  case .dictionary:
    guard !children.isEmpty else { return leaf("[:]") }
    var pairs = children.map { child -> (String, Any) in
      let pair = Array(Mirror(reflecting: child.value).children)
      let key = pair.first.map { _dumpString($0.value) } ?? "?"
      return (key, pair.last?.value ?? ())
    }
    if value is any _UnorderedDump { pairs.sort { $0.0 < $1.0 } }
    dumpChildren(pairs.map { ($0.0, $0.1) }, of: mirror, open: "[", close: "]")

  case .tuple:
    dumpChildren(labeled(children), of: mirror, open: "(", close: ")")

  case .struct, .class:
    let name = _dumpTypeName(mirror.subjectType)
    dumpChildren(labeled(children), of: mirror, open: name + "(", close: ")")

  default:
    leaf("\(value)")
  }
}

/// Text dumped as it is (a set's sorted elements).
private struct _Verbatim: _DumpDescribable {
  let text: String
  init(_ text: String) { self.text = text }
  var _dumpDescription: String { self.text }
}

/// A string in quotes; a multi-line one as a raw block, as swift-custom-dump prints it.
private func _dumpString(_ string: String, indent: String) -> String {
  guard string.contains("\n") else { return String(reflecting: string) }
  return "\"\"\"\n" + string + "\n\"\"\""
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
