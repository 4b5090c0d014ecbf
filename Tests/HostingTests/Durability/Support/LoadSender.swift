import Foundation
import Synchronization
import Wire

/// A client on its own thread that sends one action at a time until told to stop or until the
/// host dies, counting what it sent and what was acknowledged — for killing a host under load.
///
/// A to-do sender also subscribes to `todos` and keeps a mirror of it: the patch that precedes
/// `ack{rev:R}` brings the mirror to revision R (read your writes), where the to-do its action
/// added is the first one, so it learns the id of every to-do acknowledged to it.
final class LoadSender: @unchecked Sendable {
  // `@unchecked Sendable`: the counters are only written by the sender's thread and read after
  // `finished` was signalled (the semaphore orders the two); `stop` is atomic.
  enum Kind { case increments, todos }

  let kind: Kind
  private let path: String
  private let stopping = Atomic<Bool>(false)
  private let finished = DispatchSemaphore(value: 0)
  private(set) var sent = 0
  private(set) var acknowledged = 0
  private(set) var highestRevision: Int64 = 0
  /// Ids of the to-dos whose `addTodoButtonTapped` was acknowledged.
  private(set) var acknowledgedIDs: [String] = []
  private(set) var failure: String?
  /// Acks counted so far, readable while it runs.
  let progress = Atomic<Int>(0)

  init(kind: Kind, path: String) {
    self.kind = kind
    self.path = path
    let thread = Thread { [self] in
      self.run()
      self.finished.signal()
    }
    thread.start()
  }

  /// Asks the sender to stop after its current request.
  func stop() { self.stopping.store(true, ordering: .releasing) }

  /// Waits until the thread ended (the host died, or `stop()`).
  func join() { self.finished.wait() }

  private func run() {
    do {
      let client = try WireClient.greeted(path: self.path)
      var mirror: (rev: Int64, state: JSON)?
      if self.kind == .todos {
        let subscribed = try client.request(#"{"type":"subscribe","id":1,"scope":"todos"}"#)
        guard let rev = subscribed["rev"]?.int, let state = subscribed["state"] else {
          self.failure = "subscribe: \(subscribed.compactString)"
          return
        }
        mirror = (rev, state)
      }
      var id: Int64 = 10
      while !self.stopping.load(ordering: .acquiring) {
        id += 1
        let (scope, action) =
          self.kind == .increments
          ? ("counter", #"{"incrementButtonTapped":{}}"#)
          : ("todos", #"{"addTodoButtonTapped":{}}"#)
        try client.send(#"{"type":"send","id":\#(id),"scope":"\#(scope)","action":\#(action)}"#)
        self.sent += 1
        while true {
          let message = try client.next(timeout: 60)
          switch message["type"]?.string {
          case "patch":
            guard let current = mirror, let ops = message["ops"]?.array,
              let rev = message["rev"]?.int
            else { continue }
            let state = try JSONPatch.apply(
              ops.map { try JSONPatchOperation(json: $0) }, to: current.state)
            mirror = (rev, state)
            continue
          case "ack":
            let rev = message["rev"]?.int ?? 0
            self.acknowledged += 1
            self.highestRevision = max(self.highestRevision, rev)
            if let mirror, mirror.rev == rev,
              let first = mirror.state["todos"]?[0]?["id"]?.string
            {
              self.acknowledgedIDs.append(first)
            }
            self.progress.add(1, ordering: .relaxed)
          default:
            self.failure = "unexpected reply: \(message.compactString)"
            return
          }
          break
        }
      }
    } catch {
      // The host was killed: the connection closed under a request. Expected.
    }
  }
}
