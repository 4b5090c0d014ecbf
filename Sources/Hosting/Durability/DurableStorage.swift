import Architecture
import Wire

/// What a durable host needs to open its data directory: where it is, how its state and root
/// actions become JSON and back (from their `Codable` conformances), and the journal's flush
/// policy.
@usableFromInline
struct DurableStorage<State: Sendable, Action>: Sendable {
  let path: String
  let persistence: Persistence
  let codec: StateCodec<State>
  let encodeRoot: @Sendable (Action) -> JSON?
  let decodeRoot: @Sendable (JSON) throws(ActionResolver<Action>.ResolutionFailure) -> Action
  /// A replayer of the app's reducer with the host's dependencies.
  let makeReplayer: @Sendable (DependencyValues) -> Replayer<State, Action>

  @usableFromInline
  init(
    path: String, persistence: Persistence, codec: StateCodec<State>,
    encodeRoot: @escaping @Sendable (Action) -> JSON?,
    decodeRoot: @escaping @Sendable (JSON) throws(ActionResolver<Action>.ResolutionFailure) -> Action,
    makeReplayer: @escaping @Sendable (DependencyValues) -> Replayer<State, Action>
  ) {
    self.path = path
    self.persistence = persistence
    self.codec = codec
    self.encodeRoot = encodeRoot
    self.decodeRoot = decodeRoot
    self.makeReplayer = makeReplayer
  }

  /// The directory opened: the recovered state, and the durability that keeps it from now on.
  @usableFromInline
  struct Opened {
    @usableFromInline var state: State
    @usableFromInline var durability: Durability<State, Action>
  }

  /// Locks the directory, recovers the state (or writes `initialState` as the first snapshot of
  /// a new directory), opens the journal after the recovered revision, and logs the startup
  /// line: the directory, the revision recovered, how long it took.
  @usableFromInline
  func open(
    initialState: State, registry: ScopeRegistry<State, Action>, dependencies: DependencyValues,
    loop: EventLoop, log: HostLogger
  ) throws(DurabilityFailure) -> Opened {
    let factory = self.makeReplayer
    let makeReplayer: @Sendable () -> Replayer<State, Action> = { factory(dependencies) }
    let started = ContinuousClock.now
    let directory = try DataDirectory(path: self.path, reset: self.persistence.reset)
    if let movedAside = directory.movedAside {
      log(.warning, "--reset: moved the previous data directory aside to \(movedAside)")
    }
    let resolver = ActionResolver(registry: registry, decodeRoot: self.decodeRoot)
    let outcome: StateRecovery<State, Action>.Outcome
    let journal: Journal
    do throws(DurabilityFailure) {
      outcome = try StateRecovery(
        directory: directory, codec: self.codec, resolver: resolver, replayer: makeReplayer()
      ).run(initialState: initialState)
      do {
        journal = try Journal(
          directory: directory.path, startingAfter: outcome.revision,
          policy: self.persistence.fsync, loop: loop, log: log,
          makeWriter: self.persistence.makeWriter)
      } catch {
        throw DurabilityFailure("cannot open the journal in \(directory.path): \(error)")
      }
    } catch {
      directory.unlock()
      throw error
    }
    let duration = ContinuousClock.now - started
    let recovery =
      outcome.isFresh
      ? nil
      : Recovery(
        directory: directory.path, revision: outcome.revision,
        snapshotRevision: outcome.snapshotRevision, replayedActions: outcome.replayed,
        duration: duration, setAsideFile: outcome.setAside)
    if let setAside = outcome.setAside {
      log(
        .warning,
        "the journal ended with a torn record (a write cut short by a crash; nothing after it "
          + "was acknowledged): moved those bytes aside to \(setAside)")
    }
    let milliseconds =
      Double(duration.components.attoseconds) / 1e15
      + Double(duration.components.seconds) * 1000
    let took =
      milliseconds < 10 ? String(format1: milliseconds) : String(Int(milliseconds.rounded()))
    if outcome.isFresh {
      log(
        .info,
        "data in \(directory.path) (new directory): revision 0, fsync \(self.persistence.fsync.name)"
          + " (\(took) ms)")
    } else {
      log(
        .info,
        "recovered revision \(outcome.revision) from \(directory.path) in \(took) ms (snapshot "
          + "of revision \(outcome.snapshotRevision), \(outcome.replayed) journaled actions "
          + "replayed); fsync \(self.persistence.fsync.name)")
    }
    let durability = Durability(
      directory: directory, journal: journal, encodeRoot: self.encodeRoot, codec: self.codec,
      policy: self.persistence.snapshots, recovery: recovery,
      snapshotRevision: outcome.snapshotRevision, snapshotBytes: outcome.snapshotBytes,
      pastStates: PastStates(
        archive: JournalArchive(directory: directory.path), codec: self.codec,
        resolver: resolver, makeReplayer: makeReplayer),
      loop: loop, log: log)
    return Opened(state: outcome.state, durability: durability)
  }
}

extension String {
  /// `value` with one decimal, e.g. `3.2`.
  fileprivate init(format1 value: Double) {
    let tenths = Int((value * 10).rounded())
    self = "\(tenths / 10).\(tenths % 10)"
  }
}

extension StoreHost where State: Codable & SendableMetatype, Action: Codable & SendableMetatype {
  /// Starts a host whose state is kept on disk (or in memory, with ``Persistence/inMemory``):
  /// recovers the state from the data directory, creates the root store on a new event loop,
  /// and listens on the socket.
  ///
  /// ```swift
  /// let host = try await StoreHost.start(
  ///   app: "my-app",
  ///   initialState: AppFeature.State(),
  ///   reducer: { AppFeature() },
  ///   scopes: scopes,
  ///   configuration: HostConfiguration(socketPath: "/tmp/my-app.sock"),
  ///   persistence: .directory("/var/lib/my-app")
  /// )
  /// if host.recovery != nil { /* resume what the recovered state says is running */ }
  /// ```
  ///
  /// Every reduced action is journaled (with what its reducer drew from `uuid`, `date` and
  /// random numbers), acknowledged once its record is written, and replayed exactly after a
  /// restart; snapshots bound the journal. The root state and action are written as JSON
  /// through their `Codable` conformances.
  ///
  /// - Parameters:
  ///   - app: The hosted app's name, sent to clients in `welcome`.
  ///   - initialState: The root state of a new data directory (a directory with state ignores
  ///     it: the recovered state wins).
  ///   - reducer: The root reducer.
  ///   - scopes: The scopes to serve (the built-in `_host` is always added).
  ///   - configuration: The socket path, limits and logging.
  ///   - persistence: Where the state is kept.
  ///   - prepare: Dependency overrides for the root store and its effects.
  /// - Throws: ``HostStartError`` when the directory is in use by another host, cannot be
  ///   recovered (damage, a state that no longer decodes: the message says which file, where,
  ///   and what to do), or the socket cannot be created.
  @inlinable
  public static func start<R: Reducer>(
    app: String,
    initialState: State,
    reducer: @escaping @Sendable () -> R,
    scopes: sending [HostedScope<State, Action>],
    configuration: HostConfiguration,
    persistence: Persistence,
    withDependencies prepare: sending ((inout DependencyValues) -> Void)? = nil
  ) async throws(HostStartError) -> StoreHost
  where R.State == State, R.Action == Action, R: SendableMetatype {
    var storage: DurableStorage<State, Action>?
    if let path = persistence.directory {
      storage = DurableStorage(
        path: path, persistence: persistence, codec: .json,
        encodeRoot: { try? JSONValueEncoder().encode($0) },
        decodeRoot: ActionResolver<Action>.decodingRoot,
        makeReplayer: { Replayer(reducer: reducer, dependencies: $0) })
    }
    return try await self.launch(
      app: app, initialState: initialState, reducer: reducer, scopes: scopes,
      configuration: configuration, storage: storage, withDependencies: prepare)
  }
}
