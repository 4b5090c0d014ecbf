/// The cases of an enum without associated values, listed from its type alone — which Swift
/// offers only through `CaseIterable`, and the `CodingKeys` that `Codable` synthesizes are not.
///
/// ```swift
/// NoPayloadEnum.cases(of: Counter.Action.CodingKeys.self)?.map(\.stringValue)
/// // ["decrementButtonTapped", "factButtonTapped", …]
/// ```
///
/// ## Why this is safe
///
/// Swift lays out an enum without payloads as a tag numbering its cases in declaration order
/// — 0, 1, … n−1, in one byte for up to 256 cases, two for up to 65,536, none for a single
/// case — and uses the values from n upward as *extra inhabitants*: bit patterns that are no
/// case, which `Optional` takes for `nil` (the first of them, n). Both rules are part of the
/// ABI (swift/docs/ABI/TypeLayout.rst, "Single-payload enums" and "C-like enums"). So while
/// `UInt8(i)` reinterpreted as `T?` is `.some` of a case, `i` is a case, and the first `i` that
/// reads as `nil` is n: the loop never forms a value of `T` from a pattern that is not one.
///
/// Which types get this treatment is checked first: `T?` must be as large as `T` (only types
/// with extra inhabitants), and every value must reflect as an enum case without children
/// (`Mirror`), which rules out `Bool`, structs around one, and enums with payloads.
enum NoPayloadEnum {
  /// The most cases listed; larger enums are not listed.
  static let limit = 1 << 16

  /// The cases of `type`, in declaration order, when it is an enum without associated
  /// values; `nil` for any other type.
  ///
  /// - Parameter type: The type.
  /// - Returns: Its cases, or `nil`.
  static func cases<T>(of type: T.Type) -> [T]? {
    switch (MemoryLayout<T>.size, MemoryLayout<T?>.size) {
    case (0, 1):
      // A single case: the empty value is it (sizes match: both are 0).
      let only = unsafeBitCast((), to: T.self)
      return self.isCaseWithoutPayload(only) ? [only] : nil
    case (1, 1):
      return self.cases(of: type, tags: UInt8.self)
    case (2, 2):
      return self.cases(of: type, tags: UInt16.self)
    default:
      return nil
    }
  }

  /// The cases read tag by tag until the first tag that is `nil` as `T?` (see the type's
  /// documentation). `Tag` has `T`'s size, so `unsafeBitCast` reinterprets it exactly.
  private static func cases<T, Tag: FixedWidthInteger & UnsignedInteger>(
    of type: T.Type, tags: Tag.Type
  ) -> [T]? {
    precondition(MemoryLayout<Tag>.size == MemoryLayout<T?>.size)
    var cases: [T] = []
    var tag: Tag = 0
    while cases.count < self.limit {
      guard let value = unsafeBitCast(tag, to: T?.self) else {
        return cases.isEmpty ? nil : cases
      }
      guard self.isCaseWithoutPayload(value) else { return nil }
      cases.append(value)
      guard tag < Tag.max else { return nil }
      tag += 1
    }
    return nil
  }

  /// Whether `value` is an enum case without associated values.
  private static func isCaseWithoutPayload<T>(_ value: T) -> Bool {
    let mirror = Mirror(reflecting: value)
    return mirror.displayStyle == .enum && mirror.children.isEmpty
  }
}
