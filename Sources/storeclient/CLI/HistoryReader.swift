import Remote
import Wire

/// The history requests `log`, `get --at` and `diff` make, in one place: a connection to a host
/// that keeps a history (PROTOCOL.md §8), past states, and the change an action made.
struct HistoryReader: Sendable {
  let client: HostClient

  /// Connects to the host at `socketPath` and checks that it keeps a history.
  ///
  /// - Throws: A ``CommandFailure``: exit 69 when no host listens, 1 when it keeps no history.
  static func connect(_ socketPath: String) async throws(CommandFailure) -> HistoryReader {
    let client: HostClient
    do {
      client = try await HostClient.connect(to: socketPath, client: CommonOptions.clientName)
    } catch {
      throw CommandFailure(error)
    }
    guard await client.keepsHistory else {
      await client.close()
      throw CommandFailure(
        "the host on \(socketPath) keeps no history (its welcome does not list \"history\"); "
          + "start it without --history 0")
    }
    return HistoryReader(client: client)
  }

  /// Connects, runs `body`, and closes the connection.
  static func with<T: Sendable>(
    _ socketPath: String, _ body: (HistoryReader) async throws(RemoteError) -> T
  ) async throws(CommandFailure) -> T {
    let reader = try await Self.connect(socketPath)
    do {
      let result = try await body(reader)
      await reader.client.close()
      return result
    } catch {
      await reader.client.close()
      throw CommandFailure(error)
    }
  }

  /// A scope's state at a past revision.
  func state(of scope: String, at revision: Revision) async throws(RemoteError) -> JSON {
    try await self.client.get(scope, at: revision).state
  }
}

/// Reads what each action changed in the scope it was sent to, for `log --changes`: the
/// scope's state just before the action and just after, diffed. States already read are kept
/// (the state after one action is the state before the next one to the same scope).
actor ChangeReader {
  private let reader: HistoryReader
  private var states: [String: [Revision: JSON]] = [:]

  init(_ reader: HistoryReader) {
    self.reader = reader
  }

  /// The change `entry` made, or `nil` for an action no client sent to a scope (an effect's or
  /// the host's).
  func change(of entry: HistoryEntry) async -> LogChange? {
    guard let scope = entry.scope else { return nil }
    do {
      let before = try await self.state(of: scope, at: entry.rev - 1)
      let after = try await self.state(of: scope, at: entry.rev)
      return .ops(JSONPatch.diff(from: before, to: after).map(\.json), before: before)
    } catch {
      return .unknown(error.description)
    }
  }

  private func state(of scope: String, at revision: Revision) async throws(RemoteError) -> JSON {
    if let known = self.states[scope]?[revision] { return known }
    let state = try await self.reader.state(of: scope, at: revision)
    // Only the last few are useful: entries come in revision order.
    if (self.states[scope]?.count ?? 0) > 8 { self.states[scope] = [:] }
    self.states[scope, default: [:]][revision] = state
    return state
  }
}
