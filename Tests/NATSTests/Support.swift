import Synchronization

/// Values appended by concurrent tasks (subscribers), read by the test.
final class Collected<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])

  func append(_ value: Value) { self.storage.withLock { $0.append(value) } }

  var values: [Value] { self.storage.withLock { $0 } }

  var count: Int { self.storage.withLock { $0.count } }
}
