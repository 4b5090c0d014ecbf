import Synchronization

/// The frames a ``FrameConnection`` receives, in order, as an `AsyncSequence`.
///
/// ```swift
/// for try await payload in connection.frames {
///   let message = try HostMessage(json: JSON(parsing: payload))
/// }
/// ```
///
/// The sequence ends (`nil`) when the host closes the connection cleanly or the connection is
/// closed locally, and throws a ``SocketError`` when it fails: the peer vanished, closed in the
/// middle of a frame (``SocketError/Code/truncatedFrame``), or sent a bad frame. Cancelling the
/// iterating task ends the iteration with `nil`.
///
/// Buffering is bounded: when the consumer falls behind by 8 MiB or 8,192 frames, the
/// connection stops reading from the socket (the host then sees a slow reader) and resumes
/// once the consumer has caught up by half.
///
/// > Important: Iterate from one task at a time.
public struct IncomingFrames: AsyncSequence, Sendable {
  /// A frame's payload.
  public typealias Element = [UInt8]
  /// The error that ends the sequence abnormally.
  public typealias Failure = SocketError

  let inbox: FrameInbox
  /// Keeps the connection alive while someone iterates its frames.
  let owner: FrameConnection

  /// Creates an iterator over the frames.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(inbox: self.inbox, owner: self.owner)
  }

  /// Iterates the frames of a connection.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let inbox: FrameInbox
    let owner: FrameConnection

    /// The next frame's payload, or `nil` at the end.
    ///
    /// - Throws: ``SocketError`` if the connection failed.
    public mutating func next() async throws(SocketError) -> [UInt8]? {
      try await self.inbox.next().get()
    }

    /// The next frame's payload, or `nil` at the end.
    ///
    /// - Parameter actor: The caller's isolation (unused; the inbox is thread-safe).
    /// - Throws: ``SocketError`` if the connection failed.
    public mutating func next(
      isolation actor: isolated (any Actor)?
    ) async throws(SocketError) -> [UInt8]? {
      try await self.inbox.next().get()
    }
  }
}

/// The queue between a connection's read callback (on its loop) and the task iterating
/// ``IncomingFrames``: all state is inside a `Locked` (a pthread mutex).
final class FrameInbox: Sendable {
  private typealias Waiter = UnsafeContinuation<Result<[UInt8]?, SocketError>, Never>

  private struct State {
    var frames: [[UInt8]] = []
    var head = 0
    var bufferedBytes = 0
    var finished = false
    var failure: SocketError?
    var waiter: Waiter?
    var paused = false
    var onResume: (@Sendable () -> Void)?

    var bufferedFrames: Int { self.frames.count - self.head }

    mutating func pop() -> [UInt8]? {
      guard self.head < self.frames.count else { return nil }
      let frame = self.frames[self.head]
      self.frames[self.head] = []
      self.head += 1
      self.bufferedBytes -= frame.count
      if self.head == self.frames.count {
        self.frames.removeAll(keepingCapacity: true)
        self.head = 0
      } else if self.head >= 1024 && self.head * 2 >= self.frames.count {
        self.frames.removeSubrange(..<self.head)
        self.head = 0
      }
      return frame
    }

    /// Unpauses the producer once the consumer has caught up by half; returns the resume action.
    mutating func resumeIfCaughtUp() -> (@Sendable () -> Void)? {
      guard self.paused, self.bufferedBytes <= FrameInbox.highWaterBytes / 2,
        self.bufferedFrames <= FrameInbox.highWaterFrames / 2
      else { return nil }
      self.paused = false
      return self.onResume
    }

    /// The result to hand a consumer when nothing is buffered and the inbox is finished.
    mutating func terminal() -> Result<[UInt8]?, SocketError> {
      if let failure = self.failure {
        self.failure = nil  // thrown once; later calls return nil
        return .failure(failure)
      }
      return .success(nil)
    }
  }

  static let highWaterBytes = 8 << 20
  static let highWaterFrames = 8192

  private let state = Locked(State())

  /// Sets what resumes reading once a paused consumer has caught up.
  func setOnResume(_ onResume: @escaping @Sendable () -> Void) {
    self.state.withLock { $0.onResume = onResume }
  }

  /// Adds frames; returns `true` when the producer should stop reading for now.
  func push(_ newFrames: [[UInt8]]) -> Bool {
    guard !newFrames.isEmpty else { return false }
    let (waiter, first, pause) = self.state.withLock {
      state -> (Waiter?, [UInt8]?, Bool) in
      guard !state.finished else { return (nil, nil, false) }
      var rest = newFrames[...]
      var handed: (Waiter, [UInt8])?
      if let waiter = state.waiter, state.bufferedFrames == 0 {
        state.waiter = nil
        handed = (waiter, rest.removeFirst())
      }
      for frame in rest {
        state.frames.append(frame)
        state.bufferedBytes += frame.count
      }
      if state.bufferedBytes > Self.highWaterBytes || state.bufferedFrames > Self.highWaterFrames {
        state.paused = true
      }
      return (handed?.0, handed?.1, state.paused)
    }
    if let waiter { waiter.resume(returning: .success(first)) }
    return pause
  }

  /// Ends the sequence: with `nil` after the buffered frames, or with `error` after them.
  func finish(_ error: SocketError?) {
    let waiter = self.state.withLock { state -> Waiter? in
      guard !state.finished else { return nil }
      state.finished = true
      state.failure = error
      guard state.bufferedFrames == 0, let waiter = state.waiter else { return nil }
      state.waiter = nil
      return waiter
    }
    if let waiter { waiter.resume(returning: self.state.withLock { $0.terminal() }) }
  }

  /// The next frame, waiting for one if needed.
  func next() async -> Result<[UInt8]?, SocketError> {
    let (immediate, resume) = self.state.withLock {
      state -> (Result<[UInt8]?, SocketError>?, (@Sendable () -> Void)?) in
      if let frame = state.pop() { return (.success(frame), state.resumeIfCaughtUp()) }
      if state.finished { return (state.terminal(), nil) }
      return (nil, nil)
    }
    resume?()
    if let immediate { return immediate }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: Waiter) in
        let (immediate, resume) = self.state.withLock {
          state -> (Result<[UInt8]?, SocketError>?, (@Sendable () -> Void)?) in
          if let frame = state.pop() { return (.success(frame), state.resumeIfCaughtUp()) }
          if state.finished { return (state.terminal(), nil) }
          if Task.isCancelled { return (.success(nil), nil) }
          precondition(state.waiter == nil, "IncomingFrames iterated from two tasks at once")
          state.waiter = continuation
          return (nil, nil)
        }
        resume?()
        if let immediate { continuation.resume(returning: immediate) }
      }
    } onCancel: {
      let waiter = self.state.withLock { state -> Waiter? in
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(returning: .success(nil))
    }
  }
}
