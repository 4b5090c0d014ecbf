import Architecture
import Wire

/// Serves scopes of a root ``Store`` to other processes over a Unix-domain socket, following
/// the store protocol (docs/PROTOCOL.md).
///
/// ```swift
/// let host = try await StoreHost.start(
///   app: "examples",
///   initialState: AppFeature.State(),
///   reducer: { AppFeature() },
///   scopes: [
///     .scope("counter", state: \.counter, action: \.counter),
///     .element("todos/{id}", of: \.todos.todos, action: \.todos.todos),
///   ],
///   configuration: HostConfiguration(socketPath: "/tmp/app.sock")
/// )
/// await host.waitUntilStopped()
/// ```
///
/// ## Threading
///
/// The host runs one ``EventLoop`` thread. The root store, the host's bookkeeping and every
/// connection live on it: the store is created with the loop as its executor, so frames read
/// from a socket are decoded and reduced on the loop thread with no actor hop, and the replies
/// and patches for a whole batch leave in one write per connection. Effects run on the Swift
/// concurrency runtime like any other; the actions they send are enqueued on the loop.
public final class StoreHost<State: Sendable, Action: Sendable>: Sendable {
  /// The socket path the host listens on.
  public let socketPath: String
  @usableFromInline let loop: EventLoop
  @usableFromInline let core: HostCore<State, Action>

  @usableFromInline
  init(socketPath: String, loop: EventLoop, core: HostCore<State, Action>) {
    self.socketPath = socketPath
    self.loop = loop
    self.core = core
    // Once a second on the loop's own timer (not a task: see HostCore.startTicking()).
    loop.execute { [core, loop] in
      core.assumeIsolated(on: loop) { core in core.startTicking() }
    }
  }

  /// Starts a host that keeps its state in memory: creates the root store on a new event loop
  /// and listens on the socket. (To keep the state on disk, pass `persistence`: see
  /// ``start(app:initialState:reducer:scopes:configuration:persistence:withDependencies:)``.)
  ///
  /// - Parameters:
  ///   - app: The hosted app's name, sent to clients in `welcome`.
  ///   - initialState: The root state to start from.
  ///   - reducer: The root reducer.
  ///   - scopes: The scopes to serve (the built-in `_host` is always added).
  ///   - configuration: The socket path, limits and logging.
  ///   - prepare: Dependency overrides for the root store and its effects.
  /// - Throws: ``HostStartError`` when another host is listening on the path, the socket
  ///   cannot be created, or the configuration's limits contradict each other.
  @inlinable
  public static func start<R: Reducer>(
    app: String,
    initialState: State,
    reducer: @escaping @Sendable () -> R,
    scopes: sending [HostedScope<State, Action>],
    configuration: HostConfiguration,
    withDependencies prepare: sending ((inout DependencyValues) -> Void)? = nil
  ) async throws(HostStartError) -> StoreHost where R.State == State, R.Action == Action {
    try await self.launch(
      app: app, initialState: initialState, reducer: reducer, scopes: scopes,
      configuration: configuration, storage: nil, withDependencies: prepare)
  }

  /// Starts a host: recovers the state from `storage` (when given), creates the root store on
  /// a new event loop and listens on the socket.
  ///
  /// Inlinable, as ``start(app:initialState:reducer:scopes:configuration:withDependencies:)``
  /// is: release builds specialize the host for the app's `State` and `Action`.
  @inlinable
  static func launch<R: Reducer>(
    app: String,
    initialState: State,
    reducer: @escaping @Sendable () -> R,
    scopes: sending [HostedScope<State, Action>],
    configuration: HostConfiguration,
    storage: DurableStorage<State, Action>?,
    withDependencies prepare: sending ((inout DependencyValues) -> Void)?
  ) async throws(HostStartError) -> StoreHost where R.State == State, R.Action == Action {
    guard configuration.maxBufferedBytes >= configuration.maxFrameSize else {
      throw HostStartError(
        message: "maxBufferedBytes (\(configuration.maxBufferedBytes)) is below maxFrameSize "
          + "(\(configuration.maxFrameSize)): no frame of the largest size could ever arrive; "
          + "raise maxBufferedBytes or lower maxFrameSize")
    }
    Platform.tuneAllocator()
    let loop = EventLoop(name: "storehost")
    let registry = ScopeRegistry(scopes)
    var dependencies = DependencyValues._effective
    prepare?(&dependencies)
    // Draws from uuid, date and random numbers inside a reduce are recorded with the action,
    // so that it can be reduced again exactly (journal recovery, past states).
    RecordingDependencies.install(into: &dependencies)
    var state = initialState
    var durability: Durability<State, Action>?
    if let storage {
      do {
        let opened = try storage.open(
          initialState: initialState, registry: registry, dependencies: dependencies,
          loop: loop, log: HostLogger(level: configuration.logLevel))
        state = opened.state
        durability = opened.durability
      } catch {
        loop.shutdownGracefully()
        throw HostStartError(message: error.message)
      }
    }
    let counter = RevisionCounter(startingAt: durability?.journal.startRevision ?? 0)
    let recorder = ReductionRecorder<Action>()
    if let durability {
      // Every reduced action goes into the journal (the fields taken out here, where the
      // app's Action is known, so the journal's own work is plain code).
      let journal = durability.journal
      let encodeRoot = durability.encodeRoot
      recorder.add { reduction in
        journal.append(
          revision: reduction.revision, time: reduction.time, origin: reduction.origin,
          scope: reduction.scope,
          action: reduction.scopeAction ?? encodeRoot(reduction.action), draws: reduction.draws)
      }
    }
    let storeDependencies = dependencies
    let store = StoreActor(
      initialState: state,
      reducer: { HostReducer(base: reducer(), counter: counter, recorder: recorder) },
      withDependencies: { $0 = storeDependencies },
      executor: loop)
    // The history: every reduced action is recorded, and past states are rebuilt by replaying
    // records with the same reducer and dependencies, on a thread of their own.
    let history = HistoryParts.make(
      configuration: configuration, initialState: state, revision: counter.value,
      loop: loop, recorder: recorder, reducer: reducer, dependencies: storeDependencies)
    let core = HostCore(
      loop: loop, store: store, revision: counter, recorder: recorder,
      scopes: registry, configuration: configuration, appName: app, durability: durability,
      history: history)
    counter.setObserver(core)
    await core.connectHistory()
    do {
      try await core.startListening()
    } catch {
      durability?.abandon()
      loop.shutdownGracefully()
      throw error
    }
    return StoreHost(socketPath: configuration.socketPath, loop: loop, core: core)
  }

  /// Sends an action to the root store from the host process itself (for example to load
  /// data at start); it is reduced and pushed like any client's.
  public func send(_ action: Action) async {
    await core.sendFromHost(action)
  }

  /// The root state right now.
  public var state: State {
    get async { await core.rootState }
  }

  /// The root revision right now.
  public var revision: Int64 { core.revision.value }

  /// What the host recovered from its data directory when it started: `nil` in memory, or
  /// when the directory was new. Effects that were running when the previous host stopped
  /// are gone; read this after `start` to send what resumes them (see ``Recovery``).
  public var recovery: Recovery? { core.durability?.recovery }

  /// The data directory, when the host keeps its state on disk.
  public var dataDirectory: String? { core.durability?.directory.path }

  /// Says `bye{reason}` to every client, stops listening, removes the socket file and stops
  /// the event loop. Idempotent.
  public func shutdown(reason: String = "shutdown") async {
    // Only the first call reaches the core: after it, the loop the core runs on is gone and a
    // call into the core would never return. The others wait for the first to finish.
    guard core.stopLatch.claim() else { return await core.waitUntilStopped() }
    await core.stop(reason: reason)
    loop.shutdownGracefully()
  }

  /// Suspends until ``shutdown(reason:)`` has completed.
  public func waitUntilStopped() async {
    await core.waitUntilStopped()
  }
}

/// Why a host could not start, phrased for the person starting it.
public struct HostStartError: Error, Sendable, CustomStringConvertible {
  /// What went wrong and what to do about it.
  public var message: String

  /// Describes a failure to start.
  public init(message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}
