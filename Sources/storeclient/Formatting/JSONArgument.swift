import ArgumentParsing
import Wire

/// Parses JSON typed by a person, and explains where it is wrong.
enum JSONArgument {
  /// Parses `text` as the value of the argument or option `name`.
  ///
  /// ```
  /// Error: The value for '<action-json>' is not valid JSON: expected ':' at byte 12
  ///   {"set":{"_0" 5}}
  ///               ^
  /// ```
  ///
  /// - Parameters:
  ///   - text: The argument.
  ///   - name: How help names it, e.g. `<action-json>` or `--action <json>`.
  /// - Returns: The value.
  /// - Throws: A ``UsageError`` quoting the text with a caret under the offending character.
  static func parse(_ text: String, name: String) throws(UsageError) -> JSON {
    do {
      return try JSON(parsing: text)
    } catch {
      throw UsageError("The value for '\(name)' is not valid JSON: \(error)" + Self.pointer(at: error.offset, in: text))
    }
  }

  /// Two lines quoting `text` and pointing at byte `offset`, or nothing for text that does not
  /// fit on a line.
  static func pointer(at offset: Int, in text: String) -> String {
    guard !text.contains(where: \.isNewline), text.count <= 200 else { return "" }
    let bytes = Array(text.utf8)
    let prefix = String(decoding: bytes[..<min(max(offset, 0), bytes.count)], as: UTF8.self)
    return "\n  \(text)\n  " + String(repeating: " ", count: prefix.count) + "^"
  }
}
