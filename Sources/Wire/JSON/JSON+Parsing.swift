extension JSON {
  /// The nesting depth that parsing allows unless told otherwise.
  public static let defaultMaxDepth = 512

  /// Parses one JSON value (RFC 8259) from UTF-8 bytes.
  ///
  /// ```swift
  /// let value = try bytes.withUnsafeBytes { try JSON(parsing: $0) }
  /// ```
  ///
  /// The parser is strict: it accepts exactly the RFC 8259 grammar (any value at top level,
  /// surrounded by optional whitespace), requires well-formed UTF-8 inside strings, rejects
  /// lone surrogate escapes such as `"\uD800"` (a `String` cannot hold them), rejects numbers
  /// too large for `Double` (`1e400`), and lets a repeated object key keep its first position
  /// and its last value. Integers without fraction or exponent that fit `Int64` become
  /// ``int(_:)`` (so `-0` is `.int(0)`); every other number becomes ``double(_:)``.
  ///
  /// - Parameters:
  ///   - bytes: The complete JSON text.
  ///   - maxDepth: How many arrays and objects may be open at once; deeper input is an error,
  ///     never a stack overflow.
  /// - Throws: ``JSONParseError`` with the byte offset of the problem.
  public init(parsing bytes: UnsafeRawBufferPointer, maxDepth: Int = JSON.defaultMaxDepth)
    throws(JSONParseError)
  {
    guard let base = bytes.baseAddress, bytes.count > 0 else {
      throw .endOfInput(at: 0, expecting: "a value")
    }
    // Two allocations because each stays on the stack only up to 1024 bytes. Both pass the
    // typed error straight through (no `Result` to wrap and unwrap).
    self = try withUnsafeTemporaryAllocation(
      byteCount: JSONParser.workspaceByteCount, alignment: 16
    ) { (workspace) throws(JSONParseError) -> JSON in
      try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: JSONParser.shapeWordCount) {
        (shapes) throws(JSONParseError) -> JSON in
        var parser = JSONParser(
          base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: maxDepth,
          workspace: workspace.baseAddress.unsafelyUnwrapped,
          shapes: shapes.baseAddress.unsafelyUnwrapped)
        return try parser.parseDocument()
      }
    }
  }

  /// Parses one JSON value from UTF-8 bytes.
  ///
  /// - Parameters:
  ///   - bytes: The complete JSON text.
  ///   - maxDepth: How many arrays and objects may be open at once.
  /// - Throws: ``JSONParseError`` with the byte offset of the problem.
  public init(
    parsing bytes: borrowing [UInt8], maxDepth: Int = JSON.defaultMaxDepth
  ) throws(JSONParseError) {
    // `borrowing`: an initializer otherwise takes its arguments owned, so every call paid a
    // retain (by the caller) and a release (here) of the array.
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(JSONParseError) in try JSON(parsing: buffer, maxDepth: maxDepth) }
    }
    self = try result.get()
  }

  /// Parses one JSON value from a slice of UTF-8 bytes, such as a frame's payload.
  ///
  /// Offsets in errors count from the start of the slice.
  ///
  /// - Parameters:
  ///   - bytes: The complete JSON text.
  ///   - maxDepth: How many arrays and objects may be open at once.
  /// - Throws: ``JSONParseError`` with the byte offset of the problem.
  public init(
    parsing bytes: borrowing ArraySlice<UInt8>, maxDepth: Int = JSON.defaultMaxDepth
  ) throws(JSONParseError) {
    // `borrowing`, as for `[UInt8]`: no retain/release of the slice's buffer per call.
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(JSONParseError) in try JSON(parsing: buffer, maxDepth: maxDepth) }
    }
    self = try result.get()
  }

  /// Parses one JSON value from text.
  ///
  /// ```swift
  /// let action = try JSON(parsing: #"{"incrementButtonTapped":{}}"#)
  /// ```
  ///
  /// - Parameters:
  ///   - text: The complete JSON text.
  ///   - maxDepth: How many arrays and objects may be open at once.
  /// - Throws: ``JSONParseError`` with the UTF-8 byte offset of the problem.
  public init(parsing text: String, maxDepth: Int = JSON.defaultMaxDepth) throws(JSONParseError) {
    var text = text
    let result = text.withUTF8 { buffer in
      Result { () throws(JSONParseError) in
        try JSON(parsing: UnsafeRawBufferPointer(buffer), maxDepth: maxDepth)
      }
    }
    self = try result.get()
  }
}
