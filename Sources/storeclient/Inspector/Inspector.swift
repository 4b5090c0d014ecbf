import HTTPServing
import Remote
import Wire

/// The inspector's model: one connection to the host (``HostLink``), shared by every browser
/// tab that watches it.
///
/// ```
///  host ──HostLink.events──▶ Inspector ──Server-Sent Events──▶ each tab (viewer)
///   ▲   subscriptions:       (an actor)   status, snapshot, patch, unavailable,
///   │   one per scope watched,            log, entry, gap, figures
///   │   the history tail; `_host` read once a second
///   └──────── requests of the JSON API (state, state at, change, history, send) ◀── tabs
/// ```
///
/// A scope is subscribed once however many tabs watch it; the inspector keeps its state, so
/// that a tab that opens later starts from a snapshot. Nothing a tab does can stall the host
/// connection: events are handed to the HTTP server's queue, whose backlog per tab is bounded.
actor Inspector {
  /// The socket path of the host.
  let socketPath: String
  let link: HostLink

  /// A tab's event stream and the scope it shows.
  private struct Viewer {
    var stream: HTTPEventStream
    var scope: String?
  }

  /// A subscription shared by the tabs that show one scope.
  private struct Watch {
    var viewers: Set<Int> = []
    var sub: Int64?
    var snapshot: Snapshot?
    /// Why the scope cannot be shown (`unknown_scope`, `scope_unavailable`, …).
    var failure: (code: String, message: String)?
  }

  private var host: HostInfo?
  private var generation = 0
  private var disconnection: String?
  private var viewers: [Int: Viewer] = [:]
  private var nextViewer = 1
  private var watches: [String: Watch] = [:]
  /// The last `_host` figures, for the charts of a tab that opens.
  private var figures: [JSON] = []
  /// The most recent history entries, for the log of a tab that opens.
  private var entries: [HistoryEntry] = []
  private var oldestRetained: Revision = 0
  private var log = LogState.pending

  /// Where the action log stands on the current connection.
  private enum LogState {
    /// Not known yet: the history is being read.
    case pending
    /// Following the tail; ``entries`` holds the latest.
    case following
    /// There is none to show, and why.
    case unavailable(String)
  }

  static let keptFigures = 60
  static let keptEntries = 500
  static let hostScope = "_host"

  init(socketPath: String, link: HostLink) {
    self.socketPath = socketPath
    self.link = link
  }

  /// Follows the host link's events until it stops, and samples the `_host` figures.
  func run() async {
    let sampler = Task { await self.sampleFigures() }
    for await event in self.link.events {
      self.handle(event)
    }
    sampler.cancel()
  }

  /// Reads the `_host` figures once a second, for the charts. (Read rather than subscribed to:
  /// a host pushes them only when its revision moves, and an idle host's charts must fall to
  /// zero too.)
  private func sampleFigures() async {
    while !Task.isCancelled {
      try? await Task.sleep(for: .seconds(1))
      guard self.host != nil, let snapshot = try? await self.link.state(of: Self.hostScope)
      else { continue }
      self.addFigures(snapshot.state)
    }
  }

  // MARK: - Tabs

  /// Starts sending events to a tab: where things stand, then every change.
  ///
  /// - Parameters:
  ///   - stream: The tab's event stream.
  ///   - scope: The scope the tab shows, if any.
  func addViewer(_ stream: HTTPEventStream, scope: String?) {
    let id = self.nextViewer
    self.nextViewer += 1
    self.viewers[id] = Viewer(stream: stream, scope: scope)
    stream.setRetry(milliseconds: 1000)
    self.send(.status, self.statusJSON, to: [id])
    self.send(.figuresHistory, .object(["samples": .array(self.figures)]), to: [id])
    self.send(.log, self.logJSON, to: [id])
    if let scope { self.watch(scope, for: id) }
    stream.onClose { Task { await self.removeViewer(id) } }
  }

  private func removeViewer(_ id: Int) {
    guard let viewer = self.viewers.removeValue(forKey: id), let scope = viewer.scope,
      var watch = self.watches[scope]
    else { return }
    watch.viewers.remove(id)
    if watch.viewers.isEmpty {
      self.watches[scope] = nil
      if let sub = watch.sub {
        let (link, generation) = (self.link, self.generation)
        Task { await link.unsubscribe(sub, generation: generation) }
      }
    } else {
      self.watches[scope] = watch
    }
  }

  private func watch(_ scope: String, for viewer: Int) {
    if var watch = self.watches[scope] {
      watch.viewers.insert(viewer)
      self.watches[scope] = watch
      if let snapshot = watch.snapshot {
        self.send(.snapshot, Self.snapshotJSON(scope, snapshot), to: [viewer])
      } else if let failure = watch.failure {
        self.send(.unavailable, Self.unavailableJSON(scope, failure), to: [viewer])
      }
      return
    }
    self.watches[scope] = Watch(viewers: [viewer])
    if self.host != nil { self.subscribe(scope) }
  }

  /// Subscribes to a watched scope on the current connection; the snapshot comes as an event.
  private func subscribe(_ scope: String) {
    let (link, generation) = (self.link, self.generation)
    Task {
      do throws(RemoteError) {
        _ = try await link.subscribe(scope)
      } catch {
        self.subscriptionFailed(scope, error, generation: generation)
      }
    }
  }

  private func subscriptionFailed(_ scope: String, _ error: RemoteError, generation: Int) {
    guard generation == self.generation, var watch = self.watches[scope] else { return }
    let failure = (code: error.code?.rawValue ?? "host_unreachable", message: error.description)
    watch.failure = failure
    watch.snapshot = nil
    self.watches[scope] = watch
    self.send(.unavailable, Self.unavailableJSON(scope, failure), to: watch.viewers)
  }

  // MARK: - The host link's events

  private func handle(_ event: HostLink.Event) {
    switch event {
    case .connected(let info, let generation):
      self.host = info
      self.generation = generation
      self.disconnection = nil
      self.broadcast(.status, self.statusJSON)
      for scope in self.watches.keys {
        self.watches[scope]?.sub = nil
        self.subscribe(scope)
      }
      self.startLog(info)
    case .disconnected(let error, _):
      let wasConnected = self.host != nil
      self.host = nil
      for scope in self.watches.keys { self.watches[scope]?.sub = nil }
      if wasConnected || self.disconnection != error.description {
        self.disconnection = error.description
        self.broadcast(.status, self.statusJSON)
      }
    case .scope(let scope, let event, let generation):
      guard generation == self.generation else { return }
      self.handle(event, of: scope)
    case .tail(let event, let generation):
      guard generation == self.generation else { return }
      switch event {
      case .entry(let entry):
        self.entries.append(entry)
        if self.entries.count > Self.keptEntries {
          self.entries.removeFirst(self.entries.count - Self.keptEntries)
        }
        self.broadcast(.entry, entry.json)
      case .gap(let from, let to):
        self.broadcast(.gap, .object(["from": .int(from), "to": .int(to)]))
      }
    }
  }

  private func handle(_ event: SubscriptionEvent, of scope: String) {
    guard var watch = self.watches[scope] else {
      // Nobody shows it any more: end a subscription that started meanwhile.
      if case .subscribed(let sub, _) = event {
        let (link, generation) = (self.link, self.generation)
        Task { await link.unsubscribe(sub, generation: generation) }
      }
      return
    }
    switch event {
    case .subscribed(let sub, let snapshot):
      if let old = watch.sub, old != sub {
        let (link, generation) = (self.link, self.generation)
        Task { await link.unsubscribe(old, generation: generation) }
      }
      watch.sub = sub
      watch.snapshot = snapshot
      watch.failure = nil
      self.watches[scope] = watch
      self.send(.snapshot, Self.snapshotJSON(scope, snapshot), to: watch.viewers)
    case .patch(let sub, let base, let rev, let ops):
      guard sub == watch.sub, let snapshot = watch.snapshot else { return }
      guard snapshot.revision == base,
        let operations = try? JSONPatch.operations(from: .array(ops)),
        let state = try? JSONPatch.apply(operations, to: snapshot.state)
      else {
        // Out of step (a host bug, but recoverable): start again from a snapshot.
        watch.snapshot = nil
        self.watches[scope] = watch
        return self.subscribe(scope)
      }
      watch.snapshot = Snapshot(revision: rev, state: state)
      self.watches[scope] = watch
      let patch: JSON = .object([
        "scope": .string(scope), "base": .int(base), "rev": .int(rev), "ops": .array(ops),
      ])
      self.send(.patch, patch, to: watch.viewers)
    case .unsubscribed(let sub, let reason):
      guard sub == watch.sub else { return }
      let failure = (
        code: reason, message: "the scope's state no longer exists (an element removed?)"
      )
      watch.sub = nil
      watch.snapshot = nil
      watch.failure = failure
      self.watches[scope] = watch
      self.send(.unavailable, Self.unavailableJSON(scope, failure), to: watch.viewers)
    }
  }

  private func addFigures(_ figures: JSON) {
    self.figures.append(figures)
    if self.figures.count > Self.keptFigures { self.figures.removeFirst() }
    self.broadcast(.figures, figures)
  }

  /// Reads the latest history and follows it, when the host keeps one.
  private func startLog(_ info: HostInfo) {
    self.entries = []
    guard info.features.contains(HostClient.historyFeature) else {
      self.log = .unavailable(
        "This host keeps no history (its welcome does not list \"history\"), so its actions "
          + "cannot be listed.")
      return self.broadcast(.log, self.logJSON)
    }
    self.log = .pending
    self.broadcast(.log, self.logJSON)
    let (link, generation) = (self.link, self.generation)
    Task {
      do throws(RemoteError) {
        let page = try await link.history(since: nil, limit: 200)
        try await link.tail(since: page.revision)
        self.logStarted(page, generation: generation)
      } catch {
        self.logFailed(error, generation: generation)
      }
    }
  }

  /// The tail is open: the page read first, then what the tail brought meanwhile.
  private func logStarted(_ page: HistoryPage, generation: Int) {
    guard generation == self.generation else { return }
    let later = self.entries.filter { $0.rev > page.revision }
    self.entries = Array((page.entries + later).suffix(Self.keptEntries))
    self.oldestRetained = page.oldest
    self.log = .following
    self.broadcast(.log, self.logJSON)
  }

  private func logFailed(_ error: RemoteError, generation: Int) {
    guard generation == self.generation, self.host != nil else { return }
    self.log = .unavailable("The history cannot be read: \(error)")
    self.broadcast(.log, self.logJSON)
  }

  // MARK: - Sending to tabs

  /// The kinds of event a tab receives (the `event:` names its script listens to).
  enum EventName: String {
    case status, snapshot, patch, unavailable, log, entry, gap, figures
    case figuresHistory = "figures-history"
  }

  private func send(_ name: EventName, _ data: JSON, to ids: some Sequence<Int>) {
    let text = data.compactString
    for id in ids { self.viewers[id]?.stream.send(event: name.rawValue, data: text) }
  }

  private func broadcast(_ name: EventName, _ data: JSON) {
    self.send(name, data, to: self.viewers.keys)
  }

  var statusJSON: JSON {
    var object: JSONObject = [
      "connected": .bool(self.host != nil), "socket": .string(self.socketPath),
    ]
    if let host = self.host {
      object["app"] = .string(host.app)
      object["host"] = .string(host.host)
      object["session"] = .string(host.session)
      object["features"] = .array(host.features.map(JSON.string))
    } else {
      object["message"] = .string(self.disconnection ?? "connecting")
    }
    return .object(object)
  }

  private var logJSON: JSON {
    switch self.log {
    case .pending:
      return .object([
        "available": .bool(false), "pending": .bool(true),
        "message": .string("Reading the host's history…"),
      ])
    case .unavailable(let message):
      return .object(["available": .bool(false), "message": .string(message)])
    case .following:
      return .object([
        "available": .bool(true), "oldest": .int(self.oldestRetained),
        "entries": .array(self.entries.map(\.json)),
      ])
    }
  }

  static func snapshotJSON(_ scope: String, _ snapshot: Snapshot) -> JSON {
    .object(["scope": .string(scope), "rev": .int(snapshot.revision), "state": snapshot.state])
  }

  static func unavailableJSON(_ scope: String, _ failure: (code: String, message: String)) -> JSON {
    .object([
      "scope": .string(scope), "code": .string(failure.code), "message": .string(failure.message),
    ])
  }
}
