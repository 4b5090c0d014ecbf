import Testing

@testable import Hosting

/// `storehost --allow WHO[:ro|:rw]`, read by `AccessRule(parsing:)`.
@Suite struct AccessRuleParsingTests {
  @Test func readsUsersUidsGroupsAndEveryoneWithReadOnlyByDefault() throws {
    // root and its group exist on every Unix machine.
    #expect(try AccessRule(parsing: "root:rw") == AccessRule(.user(0), .readWrite))
    #expect(try AccessRule(parsing: "root") == AccessRule(.user(0), .readOnly))
    #expect(try AccessRule(parsing: "1234:ro") == AccessRule(.user(1234), .readOnly))
    #expect(try AccessRule(parsing: "@root:rw") == AccessRule(.group(0), .readWrite))
    #expect(try AccessRule(parsing: "@4321") == AccessRule(.group(4321), .readOnly))
    #expect(try AccessRule(parsing: "*:rw") == AccessRule(.everyone, .readWrite))
  }

  @Test func explainsWhatIsWrong() {
    let cases: [(String, String)] = [
      ("root:admin", "the role must be 'ro' (read-only) or 'rw' (read-write), not 'admin'"),
      ("root:", "the role must be 'ro' (read-only) or 'rw' (read-write), not ''"),
      ("", "it names no user: write a user name, a uid, @group or *"),
      (":rw", "it names no user: write a user name, a uid, @group or *"),
      ("@", "'@' must be followed by a group name or a numeric gid"),
      ("no-such-user-here", "this machine has no user named 'no-such-user-here'"),
      ("@no-such-group-here:rw", "this machine has no group named 'no-such-group-here'"),
      // The all-ones id means "no user"; as a name, it names none either.
      ("4294967295", "this machine has no user named '4294967295'"),
    ]
    for (text, message) in cases {
      #expect(throws: AccessRuleError(message), "'\(text)'") { try AccessRule(parsing: text) }
    }
  }

  @Test func describesARuleAsAllowWritesIt() throws {
    #expect(try AccessRule(parsing: "0:rw").description == "root:rw")
    #expect(try AccessRule(parsing: "@0").description == "@root:ro")
    #expect(AccessRule(.everyone, .readWrite).description == "*:rw")
  }
}
