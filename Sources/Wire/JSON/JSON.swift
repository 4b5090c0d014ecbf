/// A JSON value (RFC 8259): the common currency of everything that crosses the socket.
///
/// Integers that fit `Int64` are kept exactly as ``int(_:)``; every other number is a
/// ``double(_:)``. Two numbers compare equal when their values are numerically equal
/// (`1 == 1.0`), as RFC 6902's `test` operation requires. Objects keep their members in
/// insertion order for readable output, but compare without regard to order.
public enum JSON: Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number written without fraction or exponent that fits in `Int64`.
  case int(Int64)
  /// Any other number.
  case double(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSON])
  /// An object.
  case object(JSONObject)
}

extension JSON: Equatable {
  /// Whether two values are equal; numbers compare by numeric value, so `.int(1) == .double(1)`.
  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.int(let a), .int(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Int64(exactly: b) == a
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)): return a == b
    default: return false
    }
  }
}

extension JSON: Hashable {
  /// Hashes the value consistently with `==`: an integer hashes as the equal `Double`.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let b): hasher.combine(b)
    case .int(let i): hasher.combine(Double(i))
    case .double(let d): hasher.combine(d)
    case .string(let s): hasher.combine(s)
    case .array(let a): hasher.combine(a)
    case .object(let o): hasher.combine(o)
    }
  }
}
