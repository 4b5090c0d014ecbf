import Testing

@testable import Architecture

/// A sequence that is not `Sendable`, as system sequences often are.
private struct Countdown: AsyncSequence {
  typealias Element = Int
  let from: Int
  var failsAtZero = false

  struct AsyncIterator: AsyncIteratorProtocol {
    var current: Int
    let failsAtZero: Bool
    mutating func next() async throws -> Int? {
      guard self.current >= 0 else { return nil }
      defer { self.current -= 1 }
      if self.current == 0 && self.failsAtZero { throw CountdownError() }
      return self.current
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(current: self.from, failsAtZero: self.failsAtZero)
  }
}

private struct CountdownError: Error, Equatable {}

private func collect<S: AsyncSequence>(_ sequence: S) async throws -> [S.Element] {
  var elements: [S.Element] = []
  for try await element in sequence { elements.append(element) }
  return elements
}

/// `AnyHashableSendable`, the `AsyncStream` helpers, `UncheckedSendable`, `ActorIsolated` and
/// `megaYield`, as swift-concurrency-extras (exported by TCA) has them.
@Suite struct ConcurrencyExtrasTests {
  @Test func anyHashableSendableComparesTheWrappedValues() {
    let one: AnyHashableSendable = 1
    #expect(one == AnyHashableSendable(1))
    #expect(one != AnyHashableSendable(2))
    #expect(AnyHashableSendable("a") == "a")
    #expect(AnyHashableSendable(true) == true)
    #expect(AnyHashableSendable(1.5) == 1.5)
    #expect(AnyHashableSendable(1) != AnyHashableSendable("1"))
    #expect(AnyHashableSendable(AnyHashableSendable(3)) == 3)
    #expect(Set([one, 1, 2]).count == 2)
    #expect(one.base as? Int == 1)
    #expect("\(one)" == "1")
  }

  @Test func aStreamWrapsAnySequence() async throws {
    #expect(try await collect(AsyncStream(Countdown(from: 3))) == [3, 2, 1, 0])
    #expect(try await collect(AsyncThrowingStream(Countdown(from: 2))) == [2, 1, 0])
    #expect(try await collect(Countdown(from: 1).eraseToStream()) == [1, 0])
    // A thrown error ends a plain stream and is rethrown by a throwing one.
    #expect(try await collect(AsyncStream(Countdown(from: 2, failsAtZero: true))) == [2, 1])
    await #expect(throws: CountdownError.self) {
      _ = try await collect(Countdown(from: 2, failsAtZero: true).eraseToThrowingStream())
    }
  }

  @Test func finishedStreamsEndAtOnce() async throws {
    #expect(try await collect(AsyncStream<Int>.finished).isEmpty)
    #expect(try await collect(AsyncThrowingStream<Int, any Error>.finished()).isEmpty)
    await #expect(throws: CountdownError.self) {
      _ = try await collect(
        AsyncThrowingStream<Int, any Error>.finished(throwing: CountdownError()))
    }
  }

  @Test func aNeverStreamEndsOnlyWhenItsConsumerIsCancelled() async {
    let ended = LockIsolated(false)
    let task = Task {
      for await _ in AsyncStream<Int>.never {}
      ended.setValue(true)
    }
    await Task.megaYield()
    #expect(!ended.value)
    task.cancel()
    await task.value
    #expect(ended.value)
  }

  @Test func uncheckedSendableCarriesAValue() async {
    final class Box { var value = 1 }
    let box = UncheckedSendable(Box())
    let read = await Task { box.value.value }.value
    #expect(read == 1)
    var counter = UncheckedSendable(0)
    counter.wrappedValue += 2
    #expect(counter.value == 2)
  }

  @Test func actorIsolatedSerializesChanges() async {
    let count = ActorIsolated(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<100 { group.addTask { await count.withValue { $0 += 1 } } }
    }
    #expect(await count.value == 100)
    await count.setValue(7)
    #expect(await count.value == 7)
  }
}
