import Examples
import Foundation
import Synchronization
import Testing

@testable import Hosting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The host's once-a-second duties (hello and frame timeouts, retrying a failed journal,
/// `_host` figures) run on its event loop, whatever Swift's cooperative threads are doing.
@Suite struct HostTickTests {
  @Test func theHostKeepsTimeWhileEveryCooperativeThreadIsBlocked() async throws {
    let directory = TemporaryDirectory()
    var configuration = HostConfiguration(socketPath: directory.file("host.sock"))
    configuration.logLevel = .error
    configuration.helloTimeout = 1
    let host = try await StoreHost.start(
      app: "examples", initialState: AppFeature.State(), reducer: { AppFeature() },
      scopes: DurableFixture.scopes, configuration: configuration)
    let silent = try WireClient(path: host.socketPath)

    // Every cooperative thread is taken: one by this test, the others by tasks that block
    // until it lets them go (an app doing heavy synchronous work, or a test reading a socket).
    let released = ReleaseFlag()
    let width = ProcessInfo.processInfo.activeProcessorCount
    for _ in 0..<width {
      Task.detached {
        while !released.value.load(ordering: .acquiring) { usleep(1_000) }
      }
    }
    // The host still drops the connection that never said hello, about a second after it
    // connected. (This thread blocks too, on purpose.)
    let closed = silent.waitForClose(timeout: 15)
    released.value.store(true, ordering: .releasing)
    #expect(closed, "the host did not drop a silent connection while the pool was blocked")
    await host.shutdown()
  }
}

/// A flag the blocking tasks poll.
private final class ReleaseFlag: Sendable {
  let value = Atomic<Bool>(false)
}
