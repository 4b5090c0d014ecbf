import Testing

@testable import Architecture

/// `LockIsolated` and `Task.never()`, as swift-dependencies has them.
@Suite struct ConcurrencySupportTests {
  @Test func lockIsolatedSerializesChangesFromManyTasks() async {
    let count = LockIsolated(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<100 {
        group.addTask {
          for _ in 0..<100 { count.withValue { $0 += 1 } }
        }
      }
    }
    #expect(count.value == 10_000)
  }

  @Test func lockIsolatedReadsSetsAndLooksUpMembers() {
    let names = LockIsolated<[String]>([])
    names.withValue { $0.append("Blob") }
    names.setValue(["Blob", "Blob Jr."])
    #expect(names.value == ["Blob", "Blob Jr."])
    #expect(names.count == 2)
    // The lock is recursive: a change may read the value again, and sees it as it was.
    let sizeBefore = names.withValue { value in
      value.append("Blob Sr.")
      return names.count
    }
    #expect(sizeBefore == 2)
    #expect(names.count == 3)
    #expect(LockIsolated(1) == LockIsolated(1))
    #expect(LockIsolated(1) != LockIsolated(2))
  }

  @Test func taskNeverWaitsUntilItsTaskIsCancelled() async {
    let started = LockIsolated(false)
    let ended = LockIsolated(false)
    let task = Task {
      defer { ended.setValue(true) }
      started.setValue(true)
      try await Task.never()
    }
    #expect(await eventually { started.value })
    // Still suspended after giving it plenty of turns.
    for _ in 0..<100 { await Task.yield() }
    #expect(!ended.value)
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(ended.value)
  }

  @Test func taskNeverThrowsAtOnceInACancelledTask() async {
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await Task.never()
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }
}
