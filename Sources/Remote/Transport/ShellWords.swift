/// Splits a command line written in an environment variable (`STOREHOST_SSH_COMMAND`) into
/// words the way a shell would for the simple cases: blanks separate words, single quotes
/// keep everything, double quotes keep blanks, a backslash keeps the next character. Nothing
/// is expanded.
enum ShellWords {
  /// The words of `text`.
  ///
  /// - Parameters:
  ///   - text: The command line.
  ///   - name: The variable's name, for the error.
  /// - Returns: The words.
  /// - Throws: ``ClientEnvironmentError`` for an unterminated quote or a trailing backslash.
  static func split(_ text: String, name: String) throws(ClientEnvironmentError) -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    for character in text {
      if escaped {
        word.append(character)
        escaped = false
        continue
      }
      switch (quote, character) {
      case ("'", "'"), ("\"", "\""):
        quote = nil
      case ("'", _):
        word.append(character)
      case ("\"", "\\"), (nil, "\\"):
        escaped = true
        inWord = true
      case ("\"", _):
        word.append(character)
      case (nil, "'"), (nil, "\""):
        quote = character
        inWord = true
      case (nil, " "), (nil, "\t"), (nil, "\n"):
        if inWord { words.append(word) }
        word = ""
        inWord = false
      default:
        word.append(character)
        inWord = true
      }
    }
    guard quote == nil, !escaped else {
      throw ClientEnvironmentError(
        variable: name, value: text, reason: "it ends inside a quote or after a backslash")
    }
    if inWord { words.append(word) }
    guard !words.isEmpty else {
      throw ClientEnvironmentError(variable: name, value: text, reason: "it names no command")
    }
    return words
  }
}
