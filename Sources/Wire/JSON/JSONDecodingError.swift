/// Why a ``JSON`` value could not be decoded as a type, and where.
///
/// ```swift
/// // {"todo":{"id":7}} decoded as an action whose todo id is a String:
/// error.path          // ["todo", "id"]
/// error.description   // todo.id: expected string, found number
/// ```
///
/// Every `DecodingError` is mapped, whether thrown by ``JSONValueDecoder`` itself, by
/// synthesized conformances or by custom `init(from:)` code:
/// - type mismatches read `expected string, found number`; `null` reads `found null`;
/// - a missing key names it: `todo: missing key 'id'`;
/// - an enum whose single key matches no case reads `unknown case 'foo'`, and one with
///   several or no keys says so;
/// - out-of-range numbers read `number 300 does not fit Int8`.
public struct JSONDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The keys from the root to the failing value; array indices as decimal numbers,
  /// unlabeled associated values as `_0`, `_1`…
  public var path: [String]
  /// What went wrong there.
  public var reason: String

  /// An error at `path` for `reason`.
  ///
  /// - Parameters:
  ///   - path: The keys from the root to the failing value.
  ///   - reason: What went wrong there.
  public init(path: [String], reason: String) {
    self.path = path
    self.reason = reason
  }

  /// The path joined with `.`, a colon, and the reason, e.g. `todo.id: expected string,
  /// found number`; just the reason when the root itself failed.
  public var description: String {
    self.path.isEmpty ? self.reason : "\(self.path.joined(separator: ".")): \(self.reason)"
  }
}

extension JSONDecodingError {
  /// Maps a `DecodingError` thrown while decoding `root`.
  init(_ error: DecodingError, root: JSON) {
    let render = { (codingPath: [any CodingKey]) in Self.render(codingPath, in: root) }
    switch error {
    case .typeMismatch(_, let context):
      self.init(path: render(context.codingPath), reason: context.debugDescription)
      // Synthesized enum decoding reports every wrong key count with this one message.
      if context.debugDescription == "Invalid number of keys found, expected one.",
        case .object(let object)? = Self.value(at: context.codingPath, in: root)
      {
        switch object.count {
        case 0: self.reason = "expected an object with one key naming a case, found {}"
        case 1: self.reason = "unknown case '\(object.keys[0])'"
        default:
          let keys = object.keys.map { "'\($0)'" }.joined(separator: ", ")
          self.reason = "expected one key naming a case, found \(object.count): \(keys)"
        }
      }
    case .valueNotFound(_, let context):
      self.init(path: render(context.codingPath), reason: context.debugDescription)
    case .keyNotFound(let key, let context):
      self.init(path: render(context.codingPath), reason: "missing key '\(key.stringValue)'")
    case .dataCorrupted(let context):
      self.init(path: render(context.codingPath), reason: context.debugDescription)
    @unknown default:
      self.init(path: [], reason: "\(error)")
    }
  }

  /// Keys as path components: array indices as bare numbers.
  static func render(_ codingPath: [any CodingKey]) -> [String] {
    codingPath.map { key in
      if let index = key as? IndexKey { return String(index.index) }
      return key.stringValue
    }
  }

  /// Keys as path components, as ``render(_:)``, leaving out each `_0` that `root` does not
  /// have at that point: an unlabeled value written without its wrapper (`{"setStep":2}`).
  static func render(_ codingPath: [any CodingKey], in root: JSON) -> [String] {
    var current: JSON? = root
    var components: [String] = []
    for key in codingPath {
      if key.stringValue == "_0", let here = current, Self.isUnwrapped(here) { continue }
      components.append(self.render([key])[0])
      current = current.flatMap { self.value(at: [key], in: $0) }
    }
    return components
  }

  /// Whether `value` stands for an enum payload's `_0` itself rather than holding it.
  private static func isUnwrapped(_ value: JSON) -> Bool {
    guard case .object(let object) = value else { return true }
    return !object.isEmpty && object["_0"] == nil
  }

  /// The value at `codingPath` below `root`, if the path leads anywhere (an `_0` that `root`
  /// does not have is an unlabeled value written without its wrapper: the path stays put).
  static func value(at codingPath: [any CodingKey], in root: JSON) -> JSON? {
    var current = root
    for key in codingPath {
      if key.stringValue == "_0", Self.isUnwrapped(current) { continue }
      switch current {
      case .array(let elements):
        guard let index = key.intValue, elements.indices.contains(index) else { return nil }
        current = elements[index]
      case .object(let object):
        guard let next = object[key.stringValue] else { return nil }
        current = next
      default:
        return nil
      }
    }
    return current
  }
}
