import Testing

@testable import Hosting

/// Who a host serves, and with which role: decided from the socket's peer credentials.
@Suite struct AccessPolicyTests {
  private let host: UInt32 = 1000

  private func client(
    uid: UInt32, gid: UInt32 = 500, groups: [UInt32] = [], pid: Int32 = 42
  ) -> ConnectingClient {
    ConnectingClient(processID: pid, userID: uid, groupID: gid, groups: groups)
  }

  @Test func onlyTheHostsOwnUserIsServedByDefault() {
    let policy = AccessPolicy()
    #expect(policy.decision(for: self.client(uid: 1000), hostUserID: self.host) == .allow(.readWrite))
    guard case .refuse(let reason) = policy.decision(for: self.client(uid: 1001), hostUserID: self.host)
    else {
      Issue.record("another user was admitted by the default policy")
      return
    }
    #expect(reason.contains("uid 1001") && reason.contains("serves uid 1000 only"))
    #expect(!policy.admitsOthers)
  }

  @Test func rulesGrantUsersGroupsAndEveryoneAndTheGreatestRoleWins() {
    let policy = AccessPolicy(rules: [
      AccessRule(.group(20), .readOnly),
      AccessRule(.user(1002), .readWrite),
    ])
    // A supplementary group counts as much as the effective one.
    #expect(policy.decision(for: self.client(uid: 1001, gid: 20), hostUserID: self.host) == .allow(.readOnly))
    #expect(
      policy.decision(for: self.client(uid: 1001, groups: [7, 20]), hostUserID: self.host)
        == .allow(.readOnly))
    // In the group and named: the greater role.
    #expect(
      policy.decision(for: self.client(uid: 1002, groups: [20]), hostUserID: self.host)
        == .allow(.readWrite))
    guard case .refuse = policy.decision(for: self.client(uid: 1003, groups: [21]), hostUserID: self.host)
    else {
      Issue.record("a client no rule names was admitted")
      return
    }
    let everyone = AccessPolicy(rules: [AccessRule(.everyone, .readOnly)])
    #expect(everyone.decision(for: self.client(uid: 4242), hostUserID: self.host) == .allow(.readOnly))
    #expect(!everyone.letsEveryoneWrite)
  }

  @Test func theHookDecidesBeforeTheRulesAndNilLeavesItToThem() {
    let policy = AccessPolicy(rules: [AccessRule(.user(1001), .readWrite)]) { client in
      if client.processID == 7 { return .refuse(reason: "pid 7 is not welcome") }
      if client.userID == 1005 { return .allow(.readOnly) }
      return nil
    }
    #expect(
      policy.decision(for: self.client(uid: 1001, pid: 7), hostUserID: self.host)
        == .refuse(reason: "pid 7 is not welcome"))
    #expect(policy.decision(for: self.client(uid: 1005), hostUserID: self.host) == .allow(.readOnly))
    #expect(policy.decision(for: self.client(uid: 1001), hostUserID: self.host) == .allow(.readWrite))
    // The host's own user stays read-write whatever the hook says.
    #expect(
      policy.decision(for: self.client(uid: 1000, pid: 7), hostUserID: self.host)
        == .allow(.readWrite))
  }

  @Test func allowOtherUsersIsEveryoneReadWrite() {
    var configuration = HostConfiguration(socketPath: "/tmp/x.sock")
    #expect(!configuration.allowOtherUsers)
    configuration.allowOtherUsers = true
    #expect(configuration.access.rules == [AccessRule(.everyone, .readWrite)])
    #expect(configuration.access.letsEveryoneWrite)
    configuration.allowOtherUsers = false
    #expect(configuration.access.rules.isEmpty)
  }
}
