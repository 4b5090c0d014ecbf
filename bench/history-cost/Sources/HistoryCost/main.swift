// HistoryCost <history entries> <clients> <actions per client>
//
// Serves the example app with `historyLimit` set to the first argument (0: no history), and
// has `clients` connections each send `actions` counter increments, one in flight, each
// acknowledged (storeclient bench --ack every's load), in this one process. Run it under
// `valgrind --tool=callgrind --separate-threads=yes`: the host's event-loop thread
// ("storehost") does all the host's work for a client's send, so the difference between two
// action counts of that thread's instructions, divided by the difference in actions, is what
// one action costs the host; with and without history, that is the cost of the history.
//
// The main thread blocks on a semaphore rather than running an async main: valgrind 3.19
// crashes on the thread libdispatch parks in sigsuspend for an async main.
import Dispatch
import Examples
import Hosting
import Remote
import Wire

#if canImport(Glibc)
  import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
guard arguments.count == 3 else {
  print("usage: HistoryCost <history entries> <clients> <actions per client>")
  exit(64)
}
let (history, clients, actions) = (arguments[0], arguments[1], arguments[2])
let finished = DispatchSemaphore(value: 0)
Task.detached {
  do {
    var configuration = HostConfiguration(socketPath: "/tmp/history-cost-\(getpid()).sock")
    configuration.logLevel = .error
    configuration.historyLimit = history
    let host = try await StoreHost.start(
      app: "history-cost", initialState: AppFeature.State(), reducer: { AppFeature() },
      scopes: [.scope("counter", state: \.counter, action: \.counter)],
      configuration: configuration)
    var connections: [HostClient] = []
    for _ in 0..<clients {
      connections.append(try await HostClient.connect(to: host.socketPath, client: "cost"))
    }
    let increment = JSON.object(["incrementButtonTapped": .object([:])])
    try await withThrowingTaskGroup(of: Void.self) { group in
      for client in connections {
        group.addTask {
          for _ in 0..<actions { try await client.send(increment, to: "counter") }
        }
      }
      try await group.waitForAll()
    }
    for client in connections { await client.close() }
    print("history \(history): \(clients) × \(actions) actions, revision \(host.revision)")
    await host.shutdown()
  } catch {
    print("HistoryCost: \(error)")
  }
  finished.signal()
}
finished.wait()
