extension AsyncStream {
  /// A stream of the elements of any async sequence, as in swift-concurrency-extras (which TCA
  /// exports): the way a dependency hands out a system sequence as a plain `AsyncStream`.
  ///
  /// ```swift
  /// static let liveValue: @Sendable () async -> AsyncStream<Void> = {
  ///   AsyncStream(NotificationCenter.default.notifications(named: name).map { _ in })
  /// }
  /// ```
  ///
  /// The sequence is iterated lazily, one element per `next()`; the stream ends when the
  /// sequence does (or throws: the error is dropped).
  ///
  /// - Parameter sequence: The sequence.
  public init<S: AsyncSequence>(_ sequence: S) where S.Element == Element {
    let iterator: any _ElementProducer<Element> = _UnfoldingIterator(sequence.makeAsyncIterator())
    self.init(unfolding: { try? await iterator.next() })
  }

  /// A stream that never produces an element and ends only when its consumer is cancelled.
  public static var never: Self {
    Self { _ in }
  }

  /// A stream that has already ended.
  public static var finished: Self {
    Self { $0.finish() }
  }
}

extension AsyncThrowingStream where Failure == any Error {
  /// A stream of the elements of any async sequence, rethrowing its error (see
  /// `AsyncStream.init(_:)`).
  ///
  /// - Parameter sequence: The sequence.
  public init<S: AsyncSequence>(_ sequence: S) where S.Element == Element {
    let iterator: any _ElementProducer<Element> = _UnfoldingIterator(sequence.makeAsyncIterator())
    self.init(unfolding: { try await iterator.next() })
  }

  /// A stream that never produces an element and ends only when its consumer is cancelled.
  public static var never: Self {
    Self { _ in }
  }

  /// A stream that has already ended, with `error` if one is given.
  ///
  /// - Parameter error: The error the stream ends with, or `nil` to end normally.
  /// - Returns: The stream.
  public static func finished(throwing error: Failure? = nil) -> Self {
    Self { $0.finish(throwing: error) }
  }
}

extension AsyncSequence {
  /// This sequence as an `AsyncStream` (its error, if any, ends the stream).
  public func eraseToStream() -> AsyncStream<Element> {
    AsyncStream(self)
  }

  /// This sequence as an `AsyncThrowingStream`.
  public func eraseToThrowingStream() -> AsyncThrowingStream<Element, any Error> {
    AsyncThrowingStream(self)
  }
}

/// Produces the elements of a wrapped sequence (its type erased, so that the stream's closure
/// captures no metatype of the sequence).
protocol _ElementProducer<Element>: Sendable {
  associatedtype Element
  func next() async throws -> Element?
}

/// The iterator of a sequence wrapped by `AsyncStream(_:)`.
///
/// `@unchecked Sendable`: `AsyncStream(unfolding:)` calls its closure for one `next()` at a time
/// (calling `next()` on one stream from several tasks at once is a programmer error that the
/// standard library traps on), so the iterator is never used by two tasks at once; it moves
/// between tasks only across those awaited calls.
final class _UnfoldingIterator<Base: AsyncIteratorProtocol>: _ElementProducer, @unchecked Sendable {
  private var base: Base

  init(_ base: Base) {
    self.base = base
  }

  func next() async throws -> Base.Element? {
    try await self.base.next()
  }
}
