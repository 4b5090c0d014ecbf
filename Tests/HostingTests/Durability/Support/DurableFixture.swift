import Architecture
import Examples
import Foundation
import Wire

@testable import Hosting

/// The example app hosted in this process on a temporary socket, with its state in a
/// temporary data directory: for tests that look inside the host (its recovery, its journal
/// writer) while clients still talk to it over a real socket.
enum DurableFixture {
  typealias Host = StoreHost<AppFeature.State, AppFeature.Action>

  /// The scopes the tests send to.
  static var scopes: [HostedScope<AppFeature.State, AppFeature.Action>] {
    [
      .scope("counter", state: \.counter, action: \.counter),
      .scope("todos", state: \.todos, action: \.todos),
      .element("todos/{id}", of: \.todos.todos, action: \.todos.todos),
    ]
  }

  /// Live ids and dates (recorded with each action, so replay must not draw new ones).
  static func prepare(_ values: inout DependencyValues) {
    values.uuid = UUIDGenerator { UUID() }
    values.date = DateGenerator { Date() }
  }

  /// Starts a durable host on `directory/data`, listening on `directory/host.sock`.
  static func start(
    in directory: TemporaryDirectory, persistence: Persistence? = nil
  ) async throws -> Host {
    var configuration = HostConfiguration(socketPath: directory.file("host.sock"))
    configuration.logLevel = .error
    return try await StoreHost.start(
      app: "examples", initialState: AppFeature.State(), reducer: { AppFeature() },
      scopes: self.scopes, configuration: configuration,
      persistence: persistence ?? .directory(directory.file("data")),
      withDependencies: { self.prepare(&$0) })
  }

  /// Recovers the state of a data directory the way a starting host does.
  static func recover(
    _ path: String
  ) throws(DurabilityFailure) -> StateRecovery<AppFeature.State, AppFeature.Action>.Outcome {
    var dependencies = DependencyValues()
    self.prepare(&dependencies)
    RecordingDependencies.install(into: &dependencies)
    let directory = try DataDirectory(path: path, reset: false)
    defer { directory.unlock() }
    return try StateRecovery(
      directory: directory, codec: .json,
      resolver: ActionResolver(
        registry: ScopeRegistry(self.scopes),
        decodeRoot: ActionResolver<AppFeature.Action>.decodingRoot),
      replayer: Replayer(reducer: { AppFeature() }, dependencies: dependencies)
    ).run(initialState: AppFeature.State())
  }

  /// The JSON text of a state: what "exactly the same state" is compared on.
  static func json(_ state: AppFeature.State) throws -> String {
    try JSONValueEncoder().encode(state).compactString
  }

  /// Sends `action` to `scope` and returns the acknowledged revision.
  @discardableResult
  static func send(_ client: WireClient, _ scope: String, _ action: String, id: Int64) throws
    -> Int64
  {
    let reply = try client.request(
      #"{"type":"send","id":\#(id),"scope":"\#(scope)","action":\#(action)}"#)
    guard reply["type"] == .string("ack"), let revision = reply["rev"]?.int else {
      throw HarnessError("send to \(scope) was not acknowledged: \(reply.compactString)")
    }
    return revision
  }
}
