import Remote
import Wire

// What the page's JSON API asks of the host, through the inspector's one connection. Each
// failure is already the answer for the page (``RouteError``).
extension Inspector {
  /// The scope list, with the ids of collection scopes.
  func scopeList() async throws(RouteError) -> JSON {
    let scopes: [ScopeInfo]
    do {
      scopes = try await self.link.scopes()
    } catch {
      throw RouteError(error)
    }
    let link = self.link
    return await ScopeCatalog.list(scopes) { scope in
      try? await link.state(of: scope).state
    }
  }

  /// A scope's state now, or at a past revision.
  func state(of scope: String, at revision: Revision?) async throws(RouteError) -> Snapshot {
    do {
      return try await self.link.state(of: scope, at: revision)
    } catch {
      throw RouteError(error)
    }
  }

  /// What the action that produced `revision` changed in `scope`: the operations from the
  /// state at `revision − 1` to the state at `revision`, each with the value it replaced or
  /// removed (`old`). A scope that did not exist on one side counts as `null` there.
  func change(in scope: String, at revision: Revision) async throws(RouteError) -> JSON {
    let before = try await self.optionalState(of: scope, at: revision - 1)
    let after = try await self.optionalState(of: scope, at: revision)
    var ops: [JSON] = []
    for operation in JSONPatch.diff(from: before, to: after) {
      var object = operation.json.objectValue
      switch operation {
      case .replace(let path, _), .remove(let path):
        if let old = Self.value(at: path, in: before) { object["old"] = old }
      default:
        break
      }
      ops.append(.object(object))
    }
    return .object(["scope": .string(scope), "rev": .int(revision), "ops": .array(ops)])
  }

  private func optionalState(of scope: String, at revision: Revision) async throws(RouteError)
    -> JSON
  {
    do {
      return try await self.link.state(of: scope, at: revision).state
    } catch .scopeUnavailable {
      return .null
    } catch {
      throw RouteError(error)
    }
  }

  /// The value at `pointer` in `document`, if there is one.
  static func value(at pointer: JSONPointer, in document: JSON) -> JSON? {
    var current = document
    for token in pointer.tokens {
      switch current {
      case .object(let object):
        guard let member = object[token] else { return nil }
        current = member
      case .array(let elements):
        guard let index = Int(token), elements.indices.contains(index) else { return nil }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }

  /// A page of the host's history.
  func history(since: Revision?, limit: Int) async throws(RouteError) -> JSON {
    let page: HistoryPage
    do {
      page = try await self.link.history(since: since, limit: limit)
    } catch {
      throw RouteError(error)
    }
    return .object([
      "oldest": .int(page.oldest), "rev": .int(page.revision),
      "entries": .array(page.entries.map(\.json)),
    ])
  }

  /// Sends an action; returns the revision it produced.
  func send(_ action: JSON, to scope: String) async throws(RouteError) -> Revision {
    do {
      return try await self.link.send(action, to: scope)
    } catch {
      throw RouteError(error)
    }
  }
}
