import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The features whose `body` is being evaluated on this thread: how `_makeReduce()` notices a
/// feature that contains itself.
///
/// A store builds its reduce function once, evaluating every `body` in the tree. A feature that
/// contains itself — a `forEach` of rows that are the feature again, as in TCA's recursion case
/// study, or an `ifLet` of a nested copy — would make that build endless. So while a feature's
/// `body` is evaluated its type is recorded here, and an occurrence of the same type inside it is
/// built lazily instead (``_LazyReduce``), when the first action reaches it. Everything else is
/// built eagerly, so the send path of an ordinary feature runs only prebuilt closures.
///
/// The record is a linked list whose nodes live in the stack frames of the `_makeReduce()` calls
/// under way, with its head in a thread-local: building is synchronous, so the list is exactly
/// the chain of bodies being evaluated by this thread.
@usableFromInline
enum _ReducerBuild {
  private struct Node {
    let type: ObjectIdentifier
    let next: UnsafeRawPointer?
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let result = pthread_key_create(&key, nil)
    precondition(result == 0, "pthread_key_create failed: \(result)")
    return key
  }()

  /// Runs `build` with `type` recorded as being built and returns `true`, unless a `body` of
  /// that type is already being evaluated further up this thread's stack: then returns `false`
  /// without running it. (Not generic, so that the reduce function `build` produces reaches the
  /// caller as it is, with no reabstraction thunk around it.)
  @usableFromInline
  static func unlessBuilding(_ type: Any.Type, _ build: () -> Void) -> Bool {
    let id = ObjectIdentifier(type)
    let head = pthread_getspecific(self.key).map { UnsafeRawPointer($0) }
    var cursor = head
    while let node = cursor?.assumingMemoryBound(to: Node.self) {
      if node.pointee.type == id { return false }
      cursor = node.pointee.next
    }
    var node = Node(type: id, next: head)
    // The node's address is published only for the duration of `build`: the previous head is
    // restored before `withUnsafeMutablePointer` returns, so no pointer to it outlives it, and
    // only this thread ever reads the list.
    withUnsafeMutablePointer(to: &node) { pointer in
      pthread_setspecific(self.key, UnsafeRawPointer(pointer))
      defer { pthread_setspecific(self.key, head) }
      build()
    }
    return true
  }
}

/// A feature's reduce function, built the first time an action reaches it: the inner
/// occurrence of a feature that contains itself (see ``_ReducerBuild``). Building it evaluates
/// one more level of the feature's `body`, whose own inner occurrence is lazy again, so a
/// recursive tree is built level by level as actions reach deeper levels.
///
/// The built function is published through an atomic lazy reference: reducer values are not
/// `Sendable`, but nothing stops a program from giving one built value to two stores running on
/// different executors, and a reduce function must then stay race-free as the prebuilt ones are
/// (each store may build the child; the first function published wins, and both are equivalent).
/// Only recursion points pay for it: one atomic load per action that reaches them.
@usableFromInline
final class _LazyReduce<Child: Reducer> {
  /// The child's reduce function, boxed so that it can be published atomically.
  @usableFromInline
  final class Built {
    @usableFromInline let reduce: _ReduceFunction<Child.State, Child.Action>

    @usableFromInline
    init(_ reduce: @escaping _ReduceFunction<Child.State, Child.Action>) {
      self.reduce = reduce
    }
  }

  @usableFromInline let built = AtomicLazyReference<Built>()
  @usableFromInline let child: Child

  @usableFromInline
  init(_ child: Child) {
    self.child = child
  }

  /// Runs the child, building its reduce function first if no action has reached it yet.
  @usableFromInline
  func reduce(_ state: inout Child.State, _ action: Child.Action) -> Effect<Child.Action> {
    if let built = self.built.load() { return built.reduce(&state, action) }
    return self.built.storeIfNil(Built(self.child._makeReduce())).reduce(&state, action)
  }
}
