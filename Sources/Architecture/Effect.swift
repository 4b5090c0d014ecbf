/// The side effects a reducer returns: work the store runs after reducing an action, which may
/// feed more actions back into the store.
///
/// ```swift
/// case .factButtonTapped:
///   state.isLoading = true
///   return .run { [count = state.count] send in
///     try await send(.factResponse(self.factClient.fetch(count)))
///   } catch: { error, send in
///     await send(.factFailed(error.localizedDescription))
///   }
/// ```
///
/// An effect is a value (a small tree of operations) until the store starts it: `.send`
/// actions are reduced right after the current action, in order; `.run` work runs in a new task
/// on the Swift concurrency runtime with the store's dependencies; cancellation operators act
/// on the store's in-flight effects.
///
/// ## Publishers
///
/// TCA's `Effect.publisher` exists only where Combine does (Apple platforms), and this library
/// runs everywhere, so it has none; an effect from a publisher becomes one line over its async
/// values: `.publisher { p.map(Action.x) }` is
/// `.run { send in for await value in p.values { await send(.x(value)) } }`, and any other
/// `AsyncSequence` is iterated the same way.
public struct Effect<Action>: Sendable {
  /// The effect's operations, as the store runs them (``operation`` is TCA's view of them).
  @usableFromInline
  let _operation: _Operation<Action>

  @usableFromInline
  init(operation: _Operation<Action>) {
    self._operation = operation
  }

  /// An effect that does nothing.
  @inlinable
  public static var none: Self { Self(operation: .none) }

  /// An effect that sends an action back into the store right after the current one.
  ///
  /// - Parameter action: The action.
  public static func send(_ action: Action) -> Self {
    Self(operation: .send(_UncheckedSendable(action)))
  }

  /// An effect that runs async work, which may send actions back into the store.
  ///
  /// ```swift
  /// return .run { send in
  ///   try await self.clock.sleep(for: .seconds(1))
  ///   await send(.timerTick)
  /// } catch: { error, send in
  ///   await send(.failed("\(error)"))
  /// }
  /// ```
  ///
  /// The work runs with the dependencies in force where the effect was created: those of the
  /// store, with the overrides of any `withDependencies` or ``Reducer/dependency(_:_:)`` around
  /// the reducer that returned it (as in TCA, a child's effects see its overridden values).
  ///
  /// - Parameters:
  ///   - priority: The priority of the task running the work.
  ///   - operation: The work.
  ///   - handler: Called with errors the work throws, except a `CancellationError` and errors
  ///     thrown once the effect is cancelled, which end it quietly. Without it a thrown error
  ///     is reported as a runtime warning.
  ///   - fileID: The source file, for the runtime warning.
  ///   - filePath: The source file's path, where a test failure is shown.
  ///   - line: The source line, for the runtime warning.
  ///   - column: The source column, where a test failure is shown.
  /// - Returns: The effect.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    // The location is formatted only if it is needed (formatting it costs more than the rest
    // of creating the effect).
    return Self(
      operation: .run(
        priority,
        _ReduceContext.current,
        { send in
          do {
            try await operation(send)
          } catch is CancellationError {
            // Cancellation ends the work quietly, as in TCA: the effect's own, and that of work
            // it awaited (a `withTaskCancellation` block cancelled by id, a cancelled child task).
          } catch {
            // What a cancelled effect throws on its way out (a cancelled request's error) is not
            // reported either, as in TCA.
            guard !Task.isCancelled else { return }
            if let handler {
              await handler(error, send)
            } else {
              @Dependency(\.runtimeWarnings) var runtimeWarnings
              runtimeWarnings(
                _ReducerIssues.unhandledEffectError(fileID: fileID, line: line, error: error),
                fileID: fileID, filePath: filePath, line: line, column: column)
            }
          }
        }
      )
    )
  }

  // MARK: - Composing Effects

  /// Runs effects at the same time.
  ///
  /// - Parameter effects: The effects.
  /// - Returns: One effect that runs them all.
  public static func merge(_ effects: Self...) -> Self {
    Self.merge(effects)
  }

  /// Runs a sequence of effects at the same time.
  public static func merge<S: Sequence>(_ effects: S) -> Self where S.Element == Self {
    effects.reduce(.none) { $0.merge(with: $1) }
  }

  /// Runs this effect and another at the same time.
  @inlinable
  public func merge(with other: Self) -> Self {
    if other.isNone { return self }
    if self.isNone { return other }
    return self._merge(with: other)
  }

  @usableFromInline
  func _merge(with other: Self) -> Self {
    switch (self._operation, other._operation) {
    case (.none, _): return other
    case (_, .none): return self
    case (.merge(let lhs), .merge(let rhs)): return Self(operation: .merge(lhs + rhs))
    case (.merge(let lhs), let rhs): return Self(operation: .merge(lhs + [rhs]))
    case (let lhs, .merge(let rhs)): return Self(operation: .merge([lhs] + rhs))
    case (let lhs, let rhs): return Self(operation: .merge([lhs, rhs]))
    }
  }

  /// Runs effects one after another: each starts when the previous one has finished.
  ///
  /// - Parameter effects: The effects.
  /// - Returns: One effect that runs them in order.
  public static func concatenate(_ effects: Self...) -> Self {
    Self.concatenate(effects)
  }

  /// Runs a sequence of effects one after another.
  public static func concatenate<S: Sequence>(_ effects: S) -> Self where S.Element == Self {
    effects.reduce(.none) { $0.concatenate(with: $1) }
  }

  /// Runs this effect, then another.
  public func concatenate(with other: Self) -> Self {
    switch (self._operation, other._operation) {
    case (.none, _): return other
    case (_, .none): return self
    case (.concatenate(let lhs), .concatenate(let rhs)):
      return Self(operation: .concatenate(lhs + rhs))
    case (.concatenate(let lhs), let rhs): return Self(operation: .concatenate(lhs + [rhs]))
    case (let lhs, let rhs): return Self(operation: .concatenate([lhs, rhs]))
    }
  }

  /// Transforms the actions this effect sends.
  ///
  /// `transform` runs with the dependencies in force where `map` is called, as in TCA: a
  /// `withDependencies` around it applies to the actions of `.run` work too.
  ///
  /// - Parameter transform: Maps each action.
  /// - Returns: An effect of the transformed actions.
  @inlinable
  public func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    if self.isNone { return .none }
    return self._map(transform)
  }

  @usableFromInline
  func _map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    // Inside a reduce, `.run` work already runs with the dependencies of the reducer that
    // created it, which are those in force here (the scoping reducers that map their children's
    // effects read none): no need to pay for a task-local per action.
    guard _ReduceContext.current == nil else {
      return Effect<T>(operation: self._operation.map(transform))
    }
    let dependencies = DependencyValues.current
    return Effect<T>(
      operation: self._operation.map { action in
        DependencyValues.$current.withValue(dependencies) { transform(action) }
      })
  }

  /// Whether this is `.none` (used to skip work on the send path).
  @inlinable
  var isNone: Bool {
    if case .none = self._operation { return true }
    return false
  }
}

/// The operations an ``Effect`` is made of. A tree, so that scoping reducers can rewrite the
/// cancellation ids inside a child's effects (see `_CancelID.path`).
@usableFromInline
indirect enum _Operation<Action>: Sendable {
  case none
  case send(_UncheckedSendable<Action>)
  /// Async work: its priority, the dependencies in force where it was created (`nil` outside a
  /// reduce: then the store's), and the work.
  case run(TaskPriority?, _DependencyBox?, @Sendable (Send<Action>) async -> Void)
  case merge([_Operation])
  case concatenate([_Operation])
  case cancellable(_CancelID, cancelInFlight: Bool, _Operation)
  case cancel(_CancelID)
  case debounce(_CancelID, Duration, any Clock<Duration>, _Operation)

  func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> _Operation<T> {
    switch self {
    case .none:
      return .none
    case .send(let action):
      return .send(_UncheckedSendable(transform(action.value)))
    case .run(let priority, let dependencies, let operation):
      return .run(priority, dependencies) { send in
        await operation(Send(_isolated: { action in await send(transform(action)) }))
      }
    case .merge(let operations):
      return .merge(operations.map { $0.map(transform) })
    case .concatenate(let operations):
      return .concatenate(operations.map { $0.map(transform) })
    case .cancellable(let id, let cancelInFlight, let operation):
      return .cancellable(id, cancelInFlight: cancelInFlight, operation.map(transform))
    case .cancel(let id):
      return .cancel(id)
    case .debounce(let id, let duration, let clock, let operation):
      return .debounce(id, duration, clock, operation.map(transform))
    }
  }

  /// Rewrites every cancellation id in the tree as seen from one navigation level out.
  func scoped(in navigationID: _CancelID) -> _Operation {
    switch self {
    case .none, .send, .run:
      return self
    case .merge(let operations):
      return .merge(operations.map { $0.scoped(in: navigationID) })
    case .concatenate(let operations):
      return .concatenate(operations.map { $0.scoped(in: navigationID) })
    case .cancellable(let id, let cancelInFlight, let operation):
      return .cancellable(
        id.scoped(in: navigationID), cancelInFlight: cancelInFlight,
        operation.scoped(in: navigationID))
    case .cancel(let id):
      return .cancel(id.scoped(in: navigationID))
    case .debounce(let id, let duration, let clock, let operation):
      return .debounce(
        id.scoped(in: navigationID), duration, clock, operation.scoped(in: navigationID))
    }
  }

  /// Whether starting this operation needs no task (only sends, cancels and nothing).
  var isSynchronous: Bool {
    switch self {
    case .none, .send, .cancel: return true
    case .run, .debounce: return false
    case .merge(let operations), .concatenate(let operations):
      return operations.allSatisfy(\.isSynchronous)
    case .cancellable(_, _, let operation): return operation.isSynchronous
    }
  }
}

/// Wraps a value that is only handed over, never shared, as `Sendable`.
///
/// The `.send` payload of an effect is created by the reducer on the store's executor and
/// consumed on that same executor when the store starts the effect (as TCA's `.send` is a
/// synchronous `Just`); it is never read concurrently.
@usableFromInline
struct _UncheckedSendable<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}
