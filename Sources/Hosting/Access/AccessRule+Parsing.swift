extension AccessRule {
  /// Reads a rule as `storehost --allow` takes it: `WHO[:ro|:rw]`, where `WHO` is a user
  /// name, a numeric uid, `@` and a group name or numeric gid, or `*` for everyone; the role is
  /// `ro` when none is given (writing must be asked for).
  ///
  /// ```swift
  /// try AccessRule(parsing: "@staff:ro")   // the group staff, read-only
  /// try AccessRule(parsing: "alice:rw")    // the user alice, read-write
  /// try AccessRule(parsing: "1001")        // uid 1001, read-only
  /// ```
  ///
  /// Names are looked up in this machine's user and group databases now; numeric ids are
  /// taken as they are (an id need not have a name, in a container say).
  ///
  /// - Parameter text: The rule.
  /// - Throws: ``AccessRuleError`` saying what is wrong: no name, an unknown role, a user or
  ///   group this machine does not know.
  public init(parsing text: String) throws(AccessRuleError) {
    let who: Substring
    let role: AccessRole
    if let colon = text.firstIndex(of: ":") {
      who = text[..<colon]
      let name = text[text.index(after: colon)...]
      guard let parsed = AccessRole(rawValue: String(name)) else {
        throw AccessRuleError(
          "the role must be 'ro' (read-only) or 'rw' (read-write), not '\(name)'")
      }
      role = parsed
    } else {
      who = Substring(text)
      role = .readOnly
    }
    self.init(try Self.subject(who), role)
  }

  private static func subject(_ who: Substring) throws(AccessRuleError) -> Subject {
    if who == "*" { return .everyone }
    if who.first == "@" {
      let group = who.dropFirst()
      guard !group.isEmpty else {
        throw AccessRuleError("'@' must be followed by a group name or a numeric gid")
      }
      if let gid = Self.numericID(group) { return .group(gid) }
      guard let gid = Platform.groupID(named: String(group)) else {
        throw AccessRuleError("this machine has no group named '\(group)'")
      }
      return .group(gid)
    }
    guard !who.isEmpty else {
      throw AccessRuleError("it names no user: write a user name, a uid, @group or *")
    }
    if let uid = Self.numericID(who) { return .user(uid) }
    guard let uid = Platform.userID(named: String(who)) else {
      throw AccessRuleError("this machine has no user named '\(who)'")
    }
    return .user(uid)
  }

  /// A uid or gid written in decimal digits only (the all-ones id means "none" and is not one).
  private static func numericID(_ text: Substring) -> UInt32? {
    guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let id = UInt32(text), id != .max
    else { return nil }
    return id
  }
}

/// Why an access rule could not be read: what was wrong with it.
public struct AccessRuleError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was wrong, e.g. `this machine has no user named 'bob'`.
  public var message: String

  /// An error saying `message`.
  ///
  /// - Parameter message: What was wrong.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { self.message }
}
