import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@testable import Hosting

/// The socket's mode and group: the least the access policy needs.
@Suite struct SocketPermissionsTests {
  private func permissions(_ rules: [AccessRule], mode: UInt32? = nil) -> SocketPermissions {
    var configuration = HostConfiguration(socketPath: "/tmp/x.sock")
    configuration.access.rules = rules
    configuration.socketMode = mode
    return SocketPermissions.least(for: configuration)
  }

  @Test func onlyTheOwnerWithoutRules() {
    let least = self.permissions([])
    #expect(least.socketMode == 0o600 && least.group == nil && least.directoryMode == 0o700)
    #expect(least.reason == nil)
  }

  @Test func oneGroupGetsTheGroupBitsAndTheGroup() {
    // The tests run as a user who is in its own primary group (root is, and may use any).
    let gid = UInt32(getegid())
    let least = self.permissions([AccessRule(.group(gid), .readOnly), AccessRule(.group(gid), .readWrite)])
    #expect(least.socketMode == 0o660 && least.group == gid && least.directoryMode == 0o710)
    #expect(least.reason?.hasPrefix("so that @") == true)
  }

  @Test func usersSeveralGroupsEveryoneAndHooksNeedEveryUserToReachIt() {
    for rules in [
      [AccessRule(.user(1001), .readOnly)],
      [AccessRule(.group(1), .readOnly), AccessRule(.group(2), .readOnly)],
      [AccessRule(.everyone, .readWrite)],
    ] {
      let least = self.permissions(rules)
      #expect(least.socketMode == 0o666 && least.group == nil && least.directoryMode == 0o711)
    }
    var configuration = HostConfiguration(socketPath: "/tmp/x.sock")
    configuration.access.decide = { _ in nil }
    #expect(SocketPermissions.least(for: configuration).socketMode == 0o666)
  }

  @Test func anExplicitModeWinsAndTheDirectoryFollowsIt() {
    #expect(self.permissions([AccessRule(.user(1001), .readOnly)], mode: 0o600).socketMode == 0o600)
    #expect(self.permissions([], mode: 0o660).directoryMode == 0o710)
    #expect(self.permissions([], mode: 0o606).directoryMode == 0o711)
    #expect(self.permissions([], mode: 0o600).directoryMode == 0o700)
  }
}
