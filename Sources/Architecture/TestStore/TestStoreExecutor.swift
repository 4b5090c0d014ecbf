import Foundation

/// The serial executor a ``TestStore`` runs its feature and effects on, so that it can wait
/// *exactly* until they have done everything they can do, instead of yielding and hoping.
///
/// It is both the store's `SerialExecutor` (the store actor's isolation) and the
/// `TaskExecutor` preferred by every effect task the store spawns (SE-0417): the effects'
/// non-isolated code, the store's reduces, the actions effects send back, and the code of any
/// default actor an effect calls all run, one job at a time, on one thread that belongs to the
/// test store. A job is enqueued here synchronously by whatever makes it runnable (a spawn, a
/// resumed continuation, a `TestClock` advancing, a cancellation), so when the queue is empty
/// and no job is running — *idle* — every effect has run until it finished or suspended on
/// something outside the executor (a `TestClock` sleeper, a real timer, I/O, another actor's
/// executor). ``_TestStoreExecutorThread/waitUntilIdle()`` is what a test store awaits where
/// TCA yields on the main serial executor.
///
/// Why not TCA's way: TCA points the runtime's global enqueue hook at the main thread for the
/// lifetime of a test store. Swift Testing runs tests in parallel *in one process* (on Linux
/// every test target of the package is linked into that one process), so the hook would also
/// move every concurrently running test — the host's and the remote store's included — onto
/// the main thread, where one blocking test stalls all the others. A task executor preference
/// is per task: other tests never see this executor.
///
/// What it does not cover: unstructured tasks an effect creates itself (`Task {}` does not
/// inherit an executor preference), work on the main actor or on an actor with its own
/// executor, and real time. A test store waits for those by polling, up to its timeout, as
/// before.
final class _TestStoreExecutor: SerialExecutor, TaskExecutor {
  /// The thread that runs the jobs, and the queue it drains.
  let thread: _TestStoreExecutorThread

  init() {
    self.thread = _TestStoreExecutorThread()
    // The thread runs jobs isolated to this executor and with it as their task executor. These
    // handles are unowned: a job can only be enqueued here by a task that holds this executor
    // (a task created with an executor preference keeps its executor alive) or by an actor whose
    // store holds it, so the executor is alive whenever the thread runs a job.
    self.thread.start(
      serialExecutor: UnownedSerialExecutor(ordinary: self),
      taskExecutor: UnownedTaskExecutor(ordinary: self))
  }

  deinit {
    self.thread.shutDown()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    self.thread.enqueue(UnownedJob(job))
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  func asUnownedTaskExecutor() -> UnownedTaskExecutor {
    UnownedTaskExecutor(ordinary: self)
  }
}

/// The queue and thread of a ``_TestStoreExecutor``: runs jobs one at a time, in the order they
/// were enqueued, and tells waiters when it becomes idle.
///
/// A separate object from the executor so that the thread does not keep the executor alive (the
/// executor's `deinit` ends the thread), and so that a `TestClock` can remember which executor
/// a sleeper runs on without keeping a store's executor alive.
final class _TestStoreExecutorThread: @unchecked Sendable {
  // @unchecked: every mutable property is only touched while `condition` is locked, except
  // `executors`, written once by `start` before the thread exists and read only by the thread.

  /// How many jobs a waiter lets run before it resumes anyway: an effect that yields in a loop
  /// forever (`while true { await Task.yield() }`) never lets the executor become idle. A count,
  /// not a time, so that what a test observes does not depend on the machine's speed.
  static let jobBudget = 10_000

  private struct Waiter {
    let continuation: UnsafeContinuation<Bool, Never>
    var remainingJobs: Int
  }

  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var head = 0
  private var isRunningJob = false
  private var isShutDown = false
  private var waiters: [Waiter] = []
  private var executors: (serial: UnownedSerialExecutor, task: UnownedTaskExecutor)?

  /// The executor thread the caller runs on, if it runs on one.
  ///
  /// Set once by each executor thread for its whole life; the thread's closure holds the object,
  /// so the unretained pointer read here is alive whenever it is read on that thread.
  static var current: _TestStoreExecutorThread? {
    guard let pointer = pthread_getspecific(self.key) else { return nil }
    return Unmanaged<_TestStoreExecutorThread>.fromOpaque(pointer).takeUnretainedValue()
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let result = pthread_key_create(&key, nil)
    precondition(result == 0, "pthread_key_create failed: \(result)")
    return key
  }()

  fileprivate func start(serialExecutor: UnownedSerialExecutor, taskExecutor: UnownedTaskExecutor) {
    self.executors = (serialExecutor, taskExecutor)
    let thread = Thread { [self] in
      pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
      self.run()
    }
    thread.name = "TestStore executor"
    thread.start()
  }

  fileprivate func enqueue(_ job: UnownedJob) {
    self.condition.lock()
    self.jobs.append(job)
    self.condition.signal()
    self.condition.unlock()
  }

  fileprivate func shutDown() {
    self.condition.lock()
    self.isShutDown = true
    self.condition.signal()
    self.condition.unlock()
  }

  /// Suspends until no job is queued or running, and returns whether that was already so (no
  /// job ran meanwhile).
  ///
  /// Called from a job of this executor, it resumes once that job has suspended and the jobs it
  /// made runnable have run. It also resumes after ``jobBudget`` jobs without idling.
  @discardableResult
  func waitUntilIdle() async -> Bool {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
      self.condition.lock()
      if self.isIdle {
        self.condition.unlock()
        continuation.resume(returning: true)
        return
      }
      self.waiters.append(Waiter(continuation: continuation, remainingJobs: Self.jobBudget))
      self.condition.unlock()
    }
  }

  /// Whether no job is queued or running right now.
  var isIdleNow: Bool {
    self.condition.lock()
    defer { self.condition.unlock() }
    return self.isIdle
  }

  private var isIdle: Bool {
    !self.isRunningJob && self.head == self.jobs.count
  }

  private func run() {
    guard let (serialExecutor, taskExecutor) = self.executors else { return }
    while true {
      self.condition.lock()
      while self.head == self.jobs.count && !self.isShutDown {
        self.condition.wait()
      }
      if self.head == self.jobs.count {
        // Shut down with nothing left: no task or actor refers to the executor any more.
        let waiters = self.waiters
        self.waiters = []
        self.condition.unlock()
        for waiter in waiters { waiter.continuation.resume(returning: false) }
        return
      }
      let job = self.jobs[self.head]
      self.head += 1
      if self.head == self.jobs.count {
        self.jobs.removeAll(keepingCapacity: true)
        self.head = 0
      }
      self.isRunningJob = true
      self.condition.unlock()

      job.runSynchronously(isolatedTo: serialExecutor, taskExecutor: taskExecutor)

      self.condition.lock()
      self.isRunningJob = false
      var resumed: [UnsafeContinuation<Bool, Never>] = []
      if !self.waiters.isEmpty {
        let idle = self.isIdle
        var index = 0
        while index < self.waiters.count {
          self.waiters[index].remainingJobs -= 1
          if idle || self.waiters[index].remainingJobs <= 0 {
            resumed.append(self.waiters.remove(at: index).continuation)
          } else {
            index += 1
          }
        }
      }
      self.condition.unlock()
      // Outside the lock: resuming enqueues the waiting task on its own executor.
      for continuation in resumed { continuation.resume(returning: false) }
    }
  }
}
