@testable import Architecture
import Dispatch
import Testing

/// Marks the main queue, which runs the main actor's jobs. (Not `Thread.isMainThread`: on Linux
/// the main queue is drained by a worker thread once the main thread has handed it over.)
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// Whether a task started on the global concurrent executor (not on the caller's actor) runs
/// on the main queue.
private func detachedTaskRunsOnTheMainQueue() async -> Bool {
  let key = mainQueueKey
  return await Task.detached { DispatchQueue.getSpecific(key: key) ?? false }.value
}

/// `withMainSerialExecutor` and `uncheckedUseMainSerialExecutor` move the tasks of the whole
/// process onto the main queue, so these tests run one at a time and keep the hook for as
/// short a time as they can.
@Suite(.serialized) struct MainSerialExecutorTests {
  @Test @MainActor func tasksStartedInsideRunOnTheMainQueueOneAtATime() async {
    #expect(await !detachedTaskRunsOnTheMainQueue())
    await withMainSerialExecutor {
      #expect(await detachedTaskRunsOnTheMainQueue())
      // One job at a time, in order: the caller's yield goes to the back of the queue.
      let log = LockIsolated<[Int]>([])
      for number in 0..<20 {
        Task.detached { log.withValue { $0.append(number) } }
      }
      await Task.yield()
      #expect(log.value == Array(0..<20))
    }
    #expect(await !detachedTaskRunsOnTheMainQueue())
  }

  @Test @MainActor func uncheckedSwitchHoldsTheHookUntilTurnedOff() async {
    #expect(!uncheckedUseMainSerialExecutor)
    uncheckedUseMainSerialExecutor = true
    uncheckedUseMainSerialExecutor = true
    #expect(uncheckedUseMainSerialExecutor)
    #expect(await detachedTaskRunsOnTheMainQueue())

    // A scoped use inside does not end the switch's hold, nor the switch the scoped one's.
    await withMainSerialExecutor {
      uncheckedUseMainSerialExecutor = false
      #expect(await detachedTaskRunsOnTheMainQueue())
    }
    #expect(!uncheckedUseMainSerialExecutor)
    #expect(await !detachedTaskRunsOnTheMainQueue())
  }
}
