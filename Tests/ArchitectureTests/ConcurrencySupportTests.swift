import Synchronization
import Testing

@testable import Architecture

/// Counts the changes in progress, and the times one started while another was.
private final class Occupancy: Sendable {
  let inside = Atomic<Int>(0)
  let overlaps = Atomic<Int>(0)
}

/// Keeps the optimizer from removing a loop's work.
@inline(never)
private func blackHole(_ value: Int) -> Int { value }

/// `LockIsolated` and `Task.never()`, as swift-dependencies has them.
@Suite struct ConcurrencySupportTests {
  @Test func lockIsolatedSerializesChangesFromManyTasks() async {
    let count = LockIsolated(0)
    // How many changes are in progress at once, seen from inside each change: always 1.
    let occupancy = Occupancy()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<100 {
        group.addTask {
          for _ in 0..<100 {
            count.withValue { value in
              if occupancy.inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                occupancy.overlaps.add(1, ordering: .relaxed)
              }
              for _ in 0..<200 { value = blackHole(value) }
              value += 1
              occupancy.inside.subtract(1, ordering: .sequentiallyConsistent)
            }
          }
        }
      }
    }
    #expect(count.value == 10_000)
    #expect(occupancy.overlaps.load(ordering: .relaxed) == 0)
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
    #expect(await eventually { ended.value })
    guard ended.value else { return }  // never awaits a task that never ends
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func taskNeverThrowsAtOnceInACancelledTask() async {
    let ended = LockIsolated(false)
    let task = Task {
      defer { ended.setValue(true) }
      withUnsafeCurrentTask { $0?.cancel() }
      try await Task.never()
    }
    #expect(await eventually { ended.value })
    guard ended.value else { return }  // never awaits a task that never ends
    await #expect(throws: CancellationError.self) { try await task.value }
  }
}
