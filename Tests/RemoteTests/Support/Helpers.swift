import Remote
import Testing
import Wire

/// Starts a ``FakeHost`` with the counter scope, runs `body`, and stops it.
func withFakeHost<R>(
  count: Int64 = 0, revision: Revision = 0,
  _ body: (FakeHost) async throws -> R
) async throws -> R {
  let host = FakeHost.counter(path: temporarySocketPath(), count: count, revision: revision)
  try await host.start()
  do {
    let result = try await body(host)
    await host.stop()
    return result
  } catch {
    await host.stop()
    throw error
  }
}

/// Polls `condition` until it holds or `timeout` passes; records an issue on timeout.
func eventually(
  _ what: String, timeout: Duration = .seconds(30),
  sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () async -> Bool
) async {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if await condition() { return }
    try? await Task.sleep(for: .milliseconds(5))
  }
  Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
}

/// A configuration for tests: a quick backoff so that reconnection tests run fast.
func testConfiguration(
  _ path: String, reconnects: Bool = true, maxAttempts: Int? = nil
) -> RemoteStoreConfiguration {
  RemoteStoreConfiguration(
    socketPath: path, clientName: "remote-tests/1",
    reconnects: reconnects,
    backoff: Backoff(initial: .milliseconds(10), multiplier: 2, maximum: .milliseconds(80)),
    maxReconnectAttempts: maxAttempts, connectTimeout: .seconds(2))
}

/// Collects events from a stream in the background.
actor EventLog<Element: Sendable> {
  private(set) var items: [Element] = []
  private var task: Task<Void, Never>?

  init() {}

  func follow(_ stream: AsyncStream<Element>) {
    self.task = Task {
      for await item in stream { self.append(item) }
    }
  }

  private func append(_ item: Element) { self.items.append(item) }

  func cancel() { self.task?.cancel() }
}
