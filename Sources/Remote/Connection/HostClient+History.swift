import Wire

/// What a tail delivers, in revision order, on its client's event loop (PROTOCOL.md §8).
public enum TailEvent: Sendable, Hashable {
  /// One reduced action.
  case entry(HistoryEntry)
  /// The entries after `from` up to and including `to` were not sent: the reader fell too far
  /// behind, or the host no longer keeps them.
  case gap(from: Revision, to: Revision)
}

/// One page of a host's history (the reply to `history`).
public struct HistoryPage: Sendable, Hashable {
  /// The first revision whose entry the host still keeps; older ones are gone.
  public var oldest: Revision
  /// The root revision when the host answered.
  public var revision: Revision
  /// The entries, oldest first.
  public var entries: [HistoryEntry]

  /// Creates a page.
  public init(oldest: Revision, revision: Revision, entries: [HistoryEntry]) {
    self.oldest = oldest
    self.revision = revision
    self.entries = entries
  }
}

// The history requests of PROTOCOL.md §8, for hosts whose `welcome` lists "history".
extension HostClient {
  /// The feature a host lists in `welcome` when it answers the history requests.
  public nonisolated static var historyFeature: String { "history" }

  /// Whether the host keeps a history (it lists ``historyFeature`` in `welcome`).
  public var keepsHistory: Bool { self.host.features.contains(Self.historyFeature) }

  /// Reads the host's history.
  ///
  /// ```swift
  /// let page = try await client.history(limit: 10, scope: "todos/{id}")
  /// for entry in page.entries { print(entry.rev, entry.action ?? .null) }
  /// ```
  ///
  /// - Parameters:
  ///   - since: Only entries after this revision (oldest first); `nil` for the newest ones.
  ///   - limit: The most entries (the host's default is 100; it gives at most 10,000).
  ///   - scope: Only entries sent to this scope, or to any scope matching it when it is a
  ///     pattern such as `todos/{id}`.
  /// - Returns: The entries, the oldest revision kept, and the root revision.
  /// - Throws: ``RemoteError/unknownScope(message:)`` for a scope no pattern matches, or
  ///   another ``RemoteError`` (`bad_message` from a host without the feature).
  public func history(
    since: Revision? = nil, limit: Int? = nil, scope: String? = nil
  ) async throws(RemoteError) -> HistoryPage {
    let id = self.makeID()
    let message = ClientMessage.history(
      id: id, since: since, limit: limit.map(Int64.init), scope: scope)
    switch try await self.request(message) {
    case .history(_, let oldest, let rev, let entries):
      return HistoryPage(oldest: oldest, revision: rev, entries: entries)
    case let other: throw Self.unexpected(other, for: "history")
    }
  }

  /// Follows the host's history: every action it reduces from now on (or after `since`), as
  /// it happens.
  ///
  /// `handler` is called on the client's loop, in revision order, with each entry — or with a
  /// ``TailEvent/gap(from:to:)`` for entries the host could not send. It is not called after
  /// ``unsubscribe(_:)`` or once the connection has closed (see ``onClose(_:)``).
  ///
  /// - Parameters:
  ///   - since: Start after this revision (the entries the host still keeps come first);
  ///     `nil` to start after the current revision.
  ///   - scope: Only entries sent to this scope or pattern.
  ///   - handler: Receives the tail's events.
  /// - Returns: The tail's `sub` (for ``unsubscribe(_:)``) and the root revision when it
  ///   started.
  /// - Throws: A ``RemoteError``: `overloaded` when the connection holds the most
  ///   subscriptions it may, ``RemoteError/unknownScope(message:)``, … .
  @discardableResult
  public func tail(
    since: Revision? = nil, scope: String? = nil,
    handler: @escaping @Sendable (TailEvent) -> Void
  ) async throws(RemoteError) -> (sub: Int64, revision: Revision) {
    let id = self.makeID()
    self.pendingTails[id] = handler
    defer { self.pendingTails[id] = nil }
    switch try await self.request(.tail(id: id, since: since, scope: scope)) {
    case .tailing(_, let sub, let rev): return (sub, rev)
    case let other: throw Self.unexpected(other, for: "tail")
    }
  }

  /// Reads a scope's state as it was at a past revision.
  ///
  /// - Parameters:
  ///   - scope: The scope.
  ///   - revision: The root revision.
  /// - Returns: The state at `revision`.
  /// - Throws: ``RemoteError/rejected(code:message:)`` with `revision_unavailable` (the
  ///   message names the oldest revision the host can rebuild),
  ///   ``RemoteError/scopeUnavailable(message:)`` when the scope did not exist then, or another
  ///   ``RemoteError``.
  public func get(_ scope: String, at revision: Revision) async throws(RemoteError) -> Snapshot {
    let id = self.makeID()
    switch try await self.request(.get(id: id, scope: scope, at: revision)) {
    case .state(_, _, let rev, let state): return Snapshot(revision: rev, state: state)
    case let other: throw Self.unexpected(other, for: "get")
    }
  }
}
