#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs an operation with every task of the process enqueued on the main serial executor, so
/// that asynchronous code runs one job at a time and `await Task.yield()` lets every other ready
/// job run first: TCA's (swift-concurrency-extras') tool for testing async code that is not a
/// feature in a ``TestStore``.
///
/// ```swift
/// @Test func loadsOnAppear() async {
///   await withMainSerialExecutor {
///     let model = FeatureModel()
///     let task = Task { await model.onAppear() }
///     await Task.yield()
///     #expect(model.isLoading)
///     await task.value
///   }
/// }
/// ```
///
/// A ``TestStore`` does not need it: it runs its feature on a serial executor of its own (see
/// ``TestStore/useMainSerialExecutor``).
///
/// > Warning: Only for tests. It works through a process-wide hook of the Swift runtime (the
/// > global executor's enqueue hook), so while any operation runs inside it, *every* task in the
/// > process that is enqueued on the global concurrent executor runs on the main thread instead,
/// > including other tests that Swift Testing runs in parallel. A test that blocks a thread
/// > then blocks them all. Mark suites that use it `.serialized` and keep blocking work out of
/// > tests that run alongside them. Nested and concurrent uses are counted: the hook stays until
/// > the last one ends, and then the hook that was there before is restored.
///
/// - Parameter operation: The operation, on the main actor.
/// - Returns: What `operation` returns.
@MainActor
public func withMainSerialExecutor<R>(
  operation: @MainActor () async throws -> R
) async rethrows -> R {
  _MainSerialExecutorHook.acquire()
  defer { _MainSerialExecutorHook.release() }
  return try await operation()
}

/// Runs a synchronous operation with every task of the process enqueued on the main serial
/// executor; for XCTest, around a test case's whole run:
///
/// ```swift
/// final class FeatureTests: XCTestCase {
///   override func invokeTest() {
///     withMainSerialExecutor {
///       super.invokeTest()
///     }
///   }
/// }
/// ```
///
/// See ``withMainSerialExecutor(operation:)-(()->R)`` for what it does, and its warning.
///
/// - Parameter operation: The operation.
/// - Returns: What `operation` returns.
public func withMainSerialExecutor<R>(operation: () throws -> R) rethrows -> R {
  _MainSerialExecutorHook.acquire()
  defer { _MainSerialExecutorHook.release() }
  return try operation()
}

/// Whether every task of the process that would run on the global concurrent executor runs on
/// the main serial executor instead: swift-concurrency-extras' switch (re-exported by TCA), for
/// test suites that turn it on once for all their tests.
///
/// ```swift
/// @MainActor
/// struct FeatureTests {
///   init() { uncheckedUseMainSerialExecutor = true }
///   …
/// }
/// ```
///
/// Setting it to `true` holds the hook that ``withMainSerialExecutor(operation:)-(()->R)`` uses,
/// until it is set to `false` (setting it twice to the same value does nothing). Reading it says
/// whether the hook is in force, for this switch or for a running `withMainSerialExecutor`.
///
/// > Warning: "Unchecked" because nothing ends it: the hook stays for the rest of the process,
/// > and moves the tasks of every other test onto the main thread too. Prefer
/// > ``withMainSerialExecutor(operation:)-(()->R)``, and see its warning.
public var uncheckedUseMainSerialExecutor: Bool {
  get { _MainSerialExecutorHook.isInstalled }
  set { _MainSerialExecutorHook.setUnchecked(newValue) }
}

/// The Swift runtime's global enqueue hook, pointed at the main actor while any
/// `withMainSerialExecutor` operation runs or ``uncheckedUseMainSerialExecutor`` is on.
enum _MainSerialExecutorHook {
  typealias Original = @convention(thin) (UnownedJob) -> Void
  typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

  private struct State {
    var users = 0
    /// Whether ``uncheckedUseMainSerialExecutor`` holds one of the `users`.
    var isUnchecked = false
    /// The hook that was installed before the first user, restored after the last.
    var previous: Hook?
  }

  private static let state = _Lock(State())

  /// The runtime's `swift_task_enqueueGlobal_hook` variable: a pointer to an optional C function
  /// pointer, exported by libswift_Concurrency (checked on Linux with `nm -D`), that
  /// `swift_task_enqueueGlobal` calls instead of enqueuing when it is set. `nil` if the runtime
  /// does not export it; the operations then run without the hook.
  ///
  /// Unsafe: the variable is written without the runtime's synchronization. It is only written
  /// under `state`'s lock, and the runtime reads it once per enqueue, so a job enqueued while it
  /// changes goes either to the main actor or to the global executor — both run it.
  nonisolated(unsafe) private static let pointer: UnsafeMutablePointer<Hook?>? = {
    guard let symbol = _TestPlatform.symbol(named: "swift_task_enqueueGlobal_hook") else {
      return nil
    }
    // The symbol is the variable's address; its type is `Hook?` (a nullable thin function
    // pointer), as declared in the runtime's ConcurrencyHooks.def.
    return symbol.assumingMemoryBound(to: Hook?.self)
  }()

  static func acquire() {
    self.state.withLock { self.acquire(&$0) }
  }

  static func release() {
    self.state.withLock { self.release(&$0) }
  }

  /// Takes or gives back ``uncheckedUseMainSerialExecutor``'s hold on the hook.
  static func setUnchecked(_ isOn: Bool) {
    self.state.withLock { state in
      guard state.isUnchecked != isOn else { return }
      state.isUnchecked = isOn
      if isOn { self.acquire(&state) } else { self.release(&state) }
    }
  }

  private static func acquire(_ state: inout State) {
    guard let pointer = self.pointer else { return }
    if state.users == 0 {
      state.previous = pointer.pointee
      pointer.pointee = { job, _ in MainActor.shared.enqueue(job) }
    }
    state.users += 1
  }

  private static func release(_ state: inout State) {
    guard let pointer = self.pointer else { return }
    state.users -= 1
    if state.users == 0 {
      pointer.pointee = state.previous
      state.previous = nil
    }
  }

  /// Whether the hook is installed (false where the runtime has none).
  static var isInstalled: Bool {
    self.state.withLock { $0.users > 0 && self.pointer != nil }
  }
}
