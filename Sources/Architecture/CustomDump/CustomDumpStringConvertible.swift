/// A type that prints as a fixed text in the dumps of test failures (the state diffs of
/// ``TestStore``, ``expectNoDifference(_:_:_:fileID:filePath:line:column:)``), as CustomDump's
/// protocol of the same name.
///
/// ```swift
/// extension Tile: CustomDumpStringConvertible {
///   var customDumpDescription: String { "Tile(\(self.letter))" }
/// }
/// ```
public protocol CustomDumpStringConvertible {
  /// The text printed for the value.
  var customDumpDescription: String { get }
}

/// A type that chooses the children it shows in test-failure dumps, as CustomDump's protocol of
/// the same name: hide caches, show computed values, or rename fields.
///
/// ```swift
/// extension Game: CustomDumpReflectable {
///   var customDumpMirror: Mirror {
///     Mirror(self, children: ["board": self.board, "score": self.score], displayStyle: .struct)
///   }
/// }
/// ```
public protocol CustomDumpReflectable {
  /// The mirror dumped in place of the value's own.
  var customDumpMirror: Mirror { get }
}

/// A type that dumps as another value, as CustomDump's protocol of the same name: a wrapper
/// prints as what it wraps.
///
/// ```swift
/// extension UserID: CustomDumpRepresentable {
///   var customDumpValue: Any { self.rawValue }
/// }
/// ```
public protocol CustomDumpRepresentable {
  /// The value dumped in place of this one.
  var customDumpValue: Any { get }
}
