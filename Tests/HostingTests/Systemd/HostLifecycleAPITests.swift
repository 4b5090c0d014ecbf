import Examples
import Foundation
import Testing

@testable import Hosting

/// The host's lifecycle API called the ways a program calls it: twice, late, from several
/// tasks. A stopped host's event loop is gone, so any of these that reached into the core
/// after the stop would never return (the time limit fails the test then).
@Suite(.timeLimit(.minutes(1)))
struct HostLifecycleAPITests {
  private func start() async throws -> (StoreHost<AppFeature.State, AppFeature.Action>, TemporaryDirectory) {
    let directory = TemporaryDirectory()
    var configuration = HostConfiguration(socketPath: directory.file("host.sock"))
    configuration.logLevel = .error
    let host = try await StoreHost.start(
      app: "examples", initialState: AppFeature.State(), reducer: { AppFeature() },
      scopes: DurableFixture.scopes, configuration: configuration)
    return (host, directory)
  }

  @Test func shutdownTwiceAndWaitingAfterwardsReturn() async throws {
    let (host, directory) = try await self.start()
    await host.shutdown()
    await host.shutdown()
    await host.waitUntilStopped()
    #expect(!FileManager.default.fileExists(atPath: directory.file("host.sock")))
  }

  @Test func concurrentShutdownsAllReturnAfterTheStop() async throws {
    let (host, directory) = try await self.start()
    let socket = directory.file("host.sock")
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          await host.shutdown()
          #expect(!FileManager.default.fileExists(atPath: socket))
        }
      }
      group.addTask { await host.waitUntilStopped() }
    }
  }

  @Test func runUntilTerminatedReturnsWhenTheHostIsShutDownElsewhere() async throws {
    let (host, _) = try await self.start()
    let signals = TerminationSignals()
    async let served: Void = host.runUntilTerminated(signals)
    await host.shutdown()
    await served
  }
}
