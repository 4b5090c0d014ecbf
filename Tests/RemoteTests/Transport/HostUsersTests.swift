import Remote
import Testing
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whose host a client accepts: its own user's, root's, and those it names.
@Suite struct HostUsersTests {
  @Test func acceptsItsOwnUserRootAndTheUsersItNames() throws {
    let standard = HostUsers.standard
    #expect(standard.accepts(getuid()) && standard.accepts(0))
    let other: UInt32 = getuid() == 4242 ? 4243 : 4242
    #expect(!standard.accepts(other))
    #expect(try HostUsers(named: [String(other)]).accepts(other))
    #expect(try HostUsers(named: ["root"]).userIDs == [0])
    #expect(throws: HostUsersError(name: "no-such-user-here")) {
      try HostUsers(named: ["no-such-user-here"])
    }
  }

  @Test func refusingAHostSaysWhoseSocketItIsAndWhatToDo() {
    let other: UInt32 = getuid() == 4242 ? 4243 : 4242
    let peer = PeerCredentials(pid: 99, uid: other, gid: other)
    #expect(throws: RemoteError.untrustedHost(path: "/tmp/h.sock", uid: other, user: nil)) {
      try HostUsers.standard.check(peer, path: "/tmp/h.sock")
    }
    let message = RemoteError.untrustedHost(path: "/tmp/h.sock", uid: other, user: "mallory")
      .description
    #expect(message.hasPrefix("refusing the host at /tmp/h.sock: it runs as mallory (uid \(other)), not as you"))
    #expect(message.contains("storeclient --host-user mallory"))
    #expect(!RemoteError.untrustedHost(path: "/p", uid: other, user: nil).isTransient)
    // Unknown credentials: the host cannot be vouched for.
    #expect(throws: RemoteError.untrustedHost(path: "/p", uid: nil, user: nil)) {
      try HostUsers.standard.check(nil, path: "/p")
    }
    #expect(throws: Never.self) {
      try HostUsers.standard.check(PeerCredentials(pid: 1, uid: 0, gid: 0), path: "/p")
    }
  }
}
