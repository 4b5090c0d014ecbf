import Foundation
import Synchronization
import Testing

@testable import Wire

/// An actor that lives on an event loop, as the host's store and server do.
actor LoopActor {
  let loop: EventLoop
  nonisolated var unownedExecutor: UnownedSerialExecutor { self.loop.asUnownedSerialExecutor() }
  var hits = 0

  init(loop: EventLoop) { self.loop = loop }

  func isOnLoopThread() -> Bool { self.loop.inEventLoop }

  func hit() { self.hits += 1 }
}

/// Calls `assumeIsolated` on a loop actor from a thread that is not the loop's: must trap.
func enterLoopActorFromAnotherThread() {
  let loop = EventLoop(name: "trap-loop")
  let actor = LoopActor(loop: loop)
  actor.assumeIsolated { $0.hit() }
}

@Suite struct EventLoopTests {
  @Test func runsAnActorsJobsOnTheLoopThread() async throws {
    let loop = EventLoop(name: "actor-loop")
    defer { loop.shutdownGracefully() }
    let actor = LoopActor(loop: loop)
    #expect(await actor.isOnLoopThread())
    #expect(!loop.inEventLoop)
    // Many concurrent callers: the actor stays serial on the loop.
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<1000 { group.addTask { await actor.hit() } }
    }
    #expect(await actor.hits == 1000)
  }

  @Test func letsLoopCallbacksEnterTheActorSynchronously() async throws {
    let loop = EventLoop(name: "assume-loop")
    defer { loop.shutdownGracefully() }
    let actor = LoopActor(loop: loop)
    // Outside of any job, on the loop thread: assumeIsolated succeeds (checkIsolated).
    let hits = try await loop.submit {
      actor.assumeIsolated { actor in
        actor.hit()
        actor.hit()
        return actor.hits
      }
    }
    #expect(hits == 2)
    // From a socket's read callback, set up outside the actor (a nonisolated closure).
    let path = try temporarySocketPath()
    let ready = Mutex(false)
    try await loop.submit {
      let listener = try UnixListener.listen(path: path, loop: loop) { connection in
        connection.onRead = { _ in actor.assumeIsolated { $0.hit() } }
      }
      _ = listener  // kept alive by the loop while registered
      ready.withLock { $0 = true }
    }
    let client = try await TestClient.connect(path: path)
    try await client.send(Array("{}".utf8))
    #expect(await eventually { await actor.hits == 3 })
  }

  @Test func assumingIsolationOffTheLoopTraps() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      enterLoopActorFromAnotherThread()
    }
    let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(stderr.contains("not on the thread of event loop 'trap-loop'"))
  }

  @Test func runsClosuresInOrderOnTheLoop() async throws {
    let loop = EventLoop(name: "order-loop")
    defer { loop.shutdownGracefully() }
    let log = Mutex<[Int]>([])
    for n in 0..<500 {
      loop.execute {
        precondition(loop.inEventLoop)
        log.withLock { $0.append(n) }
      }
    }
    let onLoop = try await loop.submit { loop.inEventLoop }
    #expect(onLoop)
    #expect(log.withLock { $0 } == Array(0..<500))
  }

  @Test func doesNotSpinWhileIdle() async throws {
    let loop = EventLoop(name: "idle-loop")
    defer { loop.shutdownGracefully() }
    let path = try temporarySocketPath()
    let host = LoopActor(loop: loop)
    try await loop.submit {
      _ = try UnixListener.listen(path: path, loop: loop) { _ in }
    }
    let client = try await TestClient.connect(path: path)
    try await client.send(Array("{}".utf8))
    _ = await host.hits
    try await Task.sleep(for: .milliseconds(50))
    let before = loop.iterations
    try await Task.sleep(for: .milliseconds(300))
    // An idle loop sleeps in poll(2): no iterations without events.
    #expect(loop.iterations - before <= 2)
  }

  @Test func runsTimersOnTheLoop() async throws {
    let loop = EventLoop(name: "timer-loop")
    defer { loop.shutdownGracefully() }
    let fired = Mutex<[String]>([])
    let start = ContinuousClock.now
    try await loop.submit {
      loop.scheduleTimer(after: .milliseconds(40)) { fired.withLock { $0.append("b") } }
      loop.scheduleTimer(after: .milliseconds(20)) { fired.withLock { $0.append("a") } }
      let cancelled = loop.scheduleTimer(after: .milliseconds(30)) {
        fired.withLock { $0.append("x") }
      }
      loop.cancelTimer(cancelled)
    }
    #expect(await eventually { fired.withLock { $0.count } == 2 })
    #expect(fired.withLock { $0 } == ["a", "b"])
    #expect(ContinuousClock.now - start >= .milliseconds(40))
  }

  @Test func shutdownClosesConnectionsAndRefusesLaterWork() async throws {
    let path = try temporarySocketPath()
    let host = TestHost()
    try await host.start(path: path)
    let client = try await TestClient.connect(path: path)
    try await client.send(Array("{}".utf8))
    #expect(await eventually { await host.totalFrames == 1 })
    host.shutdown()
    // The host's connection was closed: the client sees the end of the stream.
    let frames = try await collect(1, from: client)
    #expect(frames.isEmpty)
    await #expect(throws: SocketError(code: .eventLoopShutDown, operation: "submit")) {
      try await host.loop.submit { 1 }
    }
    host.loop.shutdownGracefully()  // idempotent
  }
}
