#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The dependencies of the store whose reducer is running on this thread.
///
/// A store re-establishes its dependencies around every reduce. Pushing a task-local value
/// (`DependencyValues.$current.withValue`) costs over 100 ns inside a task (the runtime takes
/// the task's status-record lock and allocates), more than all the rest of a send, so around
/// the *synchronous* reduce the store instead sets this thread-local pointer (two
/// `pthread_setspecific` calls). It is only ever set for the duration of a synchronous reduce,
/// so it cannot leak across a suspension into another task. `@Dependency` and
/// `withDependencies` read it first and fall back to the task-local `DependencyValues.current`;
/// effects, which are tasks, get the store's values as a task-local.
@usableFromInline
enum _ReduceContext {
  @usableFromInline
  static let key: pthread_key_t = {
    var key = pthread_key_t()
    let result = pthread_key_create(&key, nil)
    precondition(result == 0, "pthread_key_create failed: \(result)")
    return key
  }()

  /// The box of the reducing store on this thread, if a reduce is running.
  @inlinable
  static var current: _DependencyBox? {
    guard let pointer = pthread_getspecific(self.key) else { return nil }
    return Unmanaged<_DependencyBox>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Runs `body` with `box` as the current reduce context (the caller keeps `box` alive).
  @inlinable
  static func with<R>(_ box: _DependencyBox, _ body: () throws -> R) rethrows -> R {
    let key = self.key
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(box).toOpaque())
    defer { pthread_setspecific(key, previous) }
    return try body()
  }
}

/// A store's dependency values, boxed once so the reduce context is a single pointer.
@usableFromInline
final class _DependencyBox: Sendable {
  @usableFromInline let values: DependencyValues

  @usableFromInline
  init(_ values: DependencyValues) {
    self.values = values
  }
}

extension DependencyValues {
  /// The dependencies in effect here: those of the reducing store inside a reduce (or of a
  /// `withDependencies` inside it), otherwise the task-local ``current``.
  @inlinable
  public static var _effective: DependencyValues {
    _ReduceContext.current?.values ?? DependencyValues.current
  }
}
