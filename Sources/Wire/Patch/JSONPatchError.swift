/// Why a JSON Pointer could not be parsed, a patch operation could not be decoded, or a patch
/// could not be applied.
///
/// ```swift
/// do {
///   _ = try JSONPatch.apply(ops, to: document)
/// } catch {
///   print(error)  // operation 1: no value at /todos/7
/// }
/// ```
public struct JSONPatchError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Sendable, Hashable {
    /// A pointer's text is not an RFC 6901 JSON Pointer: it is not empty and does not start
    /// with `/`, or a `~` is not followed by `0` or `1`.
    case malformedPointer(String)
    /// The patch document is not a JSON array.
    case patchNotAnArray
    /// An operation is not a JSON object.
    case operationNotAnObject
    /// An operation lacks a required member (`op`, `path`, `value` or `from`).
    case missingMember(String)
    /// An operation member has the wrong type, such as `"path": null`.
    case invalidMember(String)
    /// The `op` member names no RFC 6902 operation.
    case unknownOperation(String)
    /// Nothing exists at this location (the target or one of its ancestors).
    case noValue(JSONPointer)
    /// The location's parent is a string, number, boolean or null, so it has no members.
    case notAContainer(JSONPointer)
    /// The token at this location is not an array index: not `0` or a number without leading
    /// zeros, or `-` where the operation needs an existing element.
    case invalidArrayIndex(JSONPointer)
    /// The array index at this location is past the end of an array of `count` elements.
    case indexOutOfBounds(JSONPointer, count: Int)
    /// A `test` operation found a different value at this location.
    case testFailed(JSONPointer)
    /// A `move` whose `from` location is a proper prefix of its `path`.
    case moveIntoDescendant(from: JSONPointer, path: JSONPointer)
    /// A `remove` of the whole document, which would leave nothing behind.
    case cannotRemoveRoot
  }

  /// What went wrong.
  public var kind: Kind
  /// The zero-based position in the patch of the operation that failed, if any.
  public var operationIndex: Int?

  /// Creates an error of this kind, for the operation at `operationIndex` if known.
  public init(_ kind: Kind, operationIndex: Int? = nil) {
    self.kind = kind
    self.operationIndex = operationIndex
  }

  /// A one-line explanation, such as `operation 1: no value at /todos/7`.
  public var description: String {
    let reason: String
    switch self.kind {
    case .malformedPointer(let text):
      reason =
        "malformed JSON Pointer \"\(text)\": it must be empty or start with '/', "
        + "and '~' must be followed by '0' or '1'"
    case .patchNotAnArray: reason = "a JSON Patch must be an array of operations"
    case .operationNotAnObject: reason = "an operation must be an object"
    case .missingMember(let name): reason = "missing member '\(name)'"
    case .invalidMember(let name): reason = "member '\(name)' must be a string"
    case .unknownOperation(let op): reason = "unknown op '\(op)'"
    case .noValue(let pointer): reason = "no value at \(Self.quote(pointer))"
    case .notAContainer(let pointer):
      reason = "cannot address \(Self.quote(pointer)): its parent is not an object or array"
    case .invalidArrayIndex(let pointer):
      reason = "\(Self.quote(pointer)) does not end in a valid array index"
    case .indexOutOfBounds(let pointer, let count):
      reason = "\(Self.quote(pointer)) is out of bounds for an array of \(count) elements"
    case .testFailed(let pointer):
      reason = "test failed: the value at \(Self.quote(pointer)) differs"
    case .moveIntoDescendant(let from, let path):
      reason = "cannot move \(Self.quote(from)) into its own descendant \(Self.quote(path))"
    case .cannotRemoveRoot: reason = "cannot remove the whole document"
    }
    guard let operationIndex = self.operationIndex else { return reason }
    return "operation \(operationIndex): \(reason)"
  }

  private static func quote(_ pointer: JSONPointer) -> String {
    pointer.tokens.isEmpty ? "the document root" : pointer.description
  }
}
