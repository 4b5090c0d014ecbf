import Wire

/// A value that belongs to an event loop's thread, carried through a `@Sendable` closure that
/// will run there (work handed to another thread that comes back with `loop.execute`).
///
/// `@unchecked Sendable` is safe because the value is only reachable through ``value``, which
/// traps unless called on `loop`'s thread: it is never touched by two threads.
struct LoopConfined<Value>: @unchecked Sendable {
  let loop: EventLoop
  private let wrapped: Value

  init(_ value: Value, loop: EventLoop) {
    self.loop = loop
    self.wrapped = value
  }

  /// The value; only on the loop's thread.
  var value: Value {
    self.loop.checkIsolated()
    return self.wrapped
  }
}
