/// The rules for subjects the client writes: a subject that breaks them would make the server
/// read a different command (a space turns `PUB a b 5` into a publish with a reply subject), so
/// they are checked before anything is written.
///
/// A subject is dot-separated tokens, each non-empty, with no space, tab, CR, LF or other
/// control byte. Subscriptions may use the wildcards `*` (one token) and `>` (the rest, last
/// token only); a publish subject may not.
public enum NATSSubject {
  /// Why `subject` cannot be published to, or `nil` when it can.
  public static func publishProblem(_ subject: String) -> String? {
    Self.problem(subject, allowWildcards: false)
  }

  /// Why `subject` cannot be subscribed to, or `nil` when it can.
  public static func subscribeProblem(_ subject: String) -> String? {
    Self.problem(subject, allowWildcards: true)
  }

  /// Why `name` cannot be a queue group, or `nil` when it can.
  public static func queueGroupProblem(_ name: String) -> String? {
    if name.isEmpty { return "a queue group name cannot be empty" }
    if name.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
      return "the queue group \"\(name)\" contains a space or a control character"
    }
    return nil
  }

  private static func problem(_ subject: String, allowWildcards: Bool) -> String? {
    if subject.isEmpty { return "a subject cannot be empty" }
    if subject.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
      return "the subject \"\(subject)\" contains a space or a control character"
    }
    let tokens = subject.utf8.split(separator: 0x2E, omittingEmptySubsequences: false)
    for (index, token) in tokens.enumerated() {
      if token.isEmpty { return "the subject \"\(subject)\" has an empty token (\"..\", or a leading or trailing dot)" }
      let isStar = token.elementsEqual("*".utf8)
      let isTail = token.elementsEqual(">".utf8)
      if (isStar || isTail) && !allowWildcards {
        return "the subject \"\(subject)\" contains a wildcard; messages are published to concrete subjects"
      }
      if isTail && index != tokens.count - 1 {
        return "in the subject \"\(subject)\", the wildcard > must be the last token"
      }
    }
    return nil
  }
}
