extension JSON {
  /// Appends the compact JSON text of this value (no whitespace) to `buffer`.
  ///
  /// ```swift
  /// var payload: [UInt8] = []
  /// JSON.object(["type": "pong", "id": 3]).serialize(into: &payload)
  /// // {"type":"pong","id":3}
  /// ```
  ///
  /// The output is valid UTF-8 JSON text. Strings escape `"`, `\` and the control characters
  /// U+0000–U+001F (as `\n`, `\t`… or `\u00XX`) and keep everything else as UTF-8. Objects keep
  /// member order. Integers are written exactly; doubles in the shortest form that parses back
  /// to the same `Double`, always with a `.` or an exponent so that they stay doubles
  /// (`5.0`, `0.1`, `-0.0`, `1e+300`, `1.5e-7`).
  ///
  /// > Important: JSON has no infinities or NaN. ``JSONValueEncoder`` refuses them; a
  /// > non-finite ``double(_:)`` built by hand is written as `null`.
  ///
  /// - Parameter buffer: The buffer to append to.
  public func serialize(into buffer: inout [UInt8]) {
    JSONWriter.withWriter(appendingTo: &buffer) { writer in writer.write(self) }
  }

  /// The compact JSON text of this value as UTF-8 bytes.
  ///
  /// - Returns: The bytes that ``serialize(into:)`` would append to an empty buffer.
  public func serialized() -> [UInt8] {
    var bytes: [UInt8] = []
    self.serialize(into: &bytes)
    return bytes
  }

  /// The compact JSON text of this value, e.g. `{"count":3}`.
  public var compactString: String {
    String(decoding: self.serialized(), as: UTF8.self)
  }

  /// Human-readable JSON text: one member or element per line, indented by two spaces, with
  /// `": "` after keys.
  ///
  /// ```swift
  /// print(JSON.object(["count": 3, "tags": ["a"]]).prettyPrinted())
  /// // {
  /// //   "count": 3,
  /// //   "tags": [
  /// //     "a"
  /// //   ]
  /// // }
  /// ```
  ///
  /// - Returns: The text, without a trailing newline.
  public func prettyPrinted() -> String {
    var bytes: [UInt8] = []
    JSONWriter.withWriter(appendingTo: &bytes) { writer in writer.writePretty(self, indent: 0) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
