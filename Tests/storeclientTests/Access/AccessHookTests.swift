import Examples
import Foundation
import Hosting
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The Hosting API's access hook, deciding about real connections of a second, real Unix
/// user from the uid, gid, groups and pid the kernel reports for the socket.
@Suite(
  .serialized, .timeLimit(.minutes(3)),
  .enabled(if: Binaries.available, "storeclient must be built next to the tests"),
  .enabled("needs root, to create a second Unix user (see the printed reason)") {
    TemporaryUser.isAvailable
  })
struct AccessHookTests {
  /// A host of the examples' app feature (its counter scope) on a socket the second user can reach, with `decide`.
  private func startHost(
    _ decide: @escaping @Sendable (ConnectingClient) -> AccessDecision?
  ) async throws -> StoreHost<AppFeature.State, AppFeature.Action> {
    var configuration = HostConfiguration(socketPath: makeReachableDirectory() + "/host.sock")
    configuration.access.decide = decide
    return try await StoreHost.start(
      app: "hook-tests", initialState: AppFeature.State(), reducer: { AppFeature() },
      scopes: [.scope("counter", state: \.counter, action: \.counter)],
      configuration: configuration)
  }

  private func run(as user: TemporaryUser, _ arguments: [String]) async throws -> (
    status: Int32, output: String, errors: String, pid: Int32
  ) {
    let process = try SpawnedProcess(Binaries.storeclient!, arguments, as: user)
    let status = try await process.wait()
    return (status, process.output.text, process.errors.text, process.processID)
  }

  @Test func theHookSeesEachConnectionsCredentialsAndItsRoleHolds() async throws {
    let user = try TemporaryUser.get()
    let seen = Mutex<[ConnectingClient]>([])
    let host = try await self.startHost { client in
      seen.withLock { $0.append(client) }
      return client.userID == user.uid ? .allow(.readOnly) : nil
    }
    do {
      let get = try await self.run(as: user, ["get", "--socket", host.socketPath, "counter"])
      #expect(get.status == 0 && get.output.contains(#""count":0"#), "\(get.errors)")
      let client = try #require(seen.withLock { $0.last })
      #expect(client.userID == user.uid && client.groupID == user.gid)
      #expect(client.isMember(ofGroup: user.groupID), "supplementary groups: \(client.groups)")
      #expect(client.processID == get.pid)
      // The role the hook gave holds: the user may read, not send.
      let send = try await self.run(
        as: user, ["send", "--socket", host.socketPath, "counter", #"{"incrementButtonTapped":{}}"#])
      #expect(send.status == 1)
      #expect(send.errors.contains("this connection's role is ro (read-only)"), "\(send.errors)")
      #expect(await host.state.counter.count == 0)
    } catch {
      await host.shutdown()
      throw error
    }
    await host.shutdown()
  }

  @Test func aRefusalFromTheHookReachesTheClientWithItsReason() async throws {
    let user = try TemporaryUser.get()
    let host = try await self.startHost { client in
      client.userID == user.uid ? .refuse(reason: "uid \(client.userID) is off duty") : nil
    }
    do {
      let get = try await self.run(as: user, ["get", "--socket", host.socketPath, "counter"])
      #expect(get.status == 1)
      #expect(get.errors.contains("uid \(user.uid) is off duty"), "\(get.errors)")
    } catch {
      await host.shutdown()
      throw error
    }
    await host.shutdown()
  }
}
