// Release benchmark of the two ways to journal a host's state, on the example app's to-dos:
// `swift run -c release DurabilityBenchmarks [sizes…]` (default sizes: 1000 10000 100000).
//
// - Ours, an action journal: each reduced action is one small record (its scope, its JSON as
//   sent, the values its reducer drew). Measured end to end: a host toggles to-dos through
//   `StoreHost.send` in memory and with a data directory (fsync everysec), alternately; the
//   difference is what journaling costs per action — an upper bound, since each `send` here
//   is its own loop iteration and so its own write(2), where clients' batches share one.
// - The alternative, a state journal: what changed in the root state after each action would
//   have to be found by encoding the state and diffing it against the previous encoding
//   (the state has no record of which parts an action touched). Measured: one
//   `JSONValueEncoder` encode of the root state plus one `JSONPatch.diff` per toggle.
//
// Each figure is the median of 5 runs (wall time: the host's work happens on its own thread).
import Architecture
import Examples
import Foundation
import Hosting
import Wire

/// Nanoseconds per action of `body(count)`: the median of `runs` runs.
func median(runs: Int = 5, count: Int, _ body: (Int) async throws -> Void) async rethrows -> Double {
  var samples: [Double] = []
  for _ in 0..<runs {
    let start = ContinuousClock.now
    try await body(count)
    let elapsed = ContinuousClock.now - start
    let ns = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    samples.append(ns / Double(count))
  }
  return samples.sorted()[runs / 2]
}

/// A to-do list of `count` items with fixed ids.
func todos(_ count: Int) -> Todos.State {
  var list = IdentifiedArrayOf<Todo.State>()
  for index in 0..<count {
    let id = UUID(uuidString: String(format: "00000000-0000-0000-0000-%012X", index))!
    list.append(Todo.State(description: "To-do \(index)", id: id))
  }
  return Todos.State(todos: list)
}

func format(_ ns: Double) -> String {
  if ns >= 1_000_000 { return String(format: "%.1f ms", ns / 1_000_000) }
  if ns >= 1_000 { return String(format: "%.2f µs", ns / 1_000) }
  return String(format: "%.0f ns", ns)
}

/// The alternative: encode the root state and diff it against the previous encoding, per toggle.
func stateDiff(size: Int) -> (ns: Double, bytes: Double) {
  var state = AppFeature.State(todos: todos(size))
  let ids = Array(state.todos.todos.ids)
  let encoder = JSONValueEncoder()
  var previous = try! encoder.encode(state)
  var bytes = 0
  var index = 0
  let iterations = max(5, min(2_000, 2_000_000 / size))
  var samples: [Double] = []
  for _ in 0..<5 {
    let start = ContinuousClock.now
    for _ in 0..<iterations {
      state.todos.todos[id: ids[index % ids.count]]?.isComplete.toggle()
      index += 1
      let current = try! encoder.encode(state)
      let ops = JSONPatch.diff(from: previous, to: current)
      bytes += JSON.array(ops.map(\.json)).serialized().count
      previous = current
    }
    let elapsed = ContinuousClock.now - start
    samples.append(
      (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9)
        / Double(iterations))
  }
  return (samples.sorted()[2], Double(bytes) / Double(iterations * 5))
}

/// Ours: toggles through a host in memory and with a data directory, alternately.
func actionJournal(size: Int) async throws -> (memory: Double, durable: Double, bytes: Double) {
  let directory = NSTemporaryDirectory() + "durability-bench-\(getpid())-\(size)"
  try? FileManager.default.removeItem(atPath: directory)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  func start(_ name: String, _ persistence: Persistence) async throws
    -> StoreHost<AppFeature.State, AppFeature.Action>
  {
    var configuration = HostConfiguration(socketPath: directory + "-\(name).sock")
    configuration.logLevel = .error
    return try await StoreHost.start(
      app: "bench", initialState: AppFeature.State(todos: todos(size)),
      reducer: { AppFeature() },
      scopes: [.element("todos/{id}", of: \.todos.todos, action: \.todos.todos)],
      configuration: configuration,
      persistence: persistence)
  }
  let memory = try await start("memory", .inMemory)
  let durable = try await start("durable", .directory(directory, fsync: .everySecond))
  let ids = Array(await memory.state.todos.todos.ids)
  let count = 20_000
  func toggles(_ host: StoreHost<AppFeature.State, AppFeature.Action>) -> (Int) async -> Void {
    { count in
      for index in 0..<count {
        await host.send(.todos(.todos(.element(id: ids[index % ids.count], action: .toggleCompleted))))
      }
    }
  }
  var memorySamples: [Double] = []
  var durableSamples: [Double] = []
  for _ in 0..<5 {
    memorySamples.append(await median(runs: 1, count: count, toggles(memory)))
    durableSamples.append(await median(runs: 1, count: count, toggles(durable)))
  }
  let journal = try FileManager.default.contentsOfDirectory(atPath: directory)
    .filter { $0.hasPrefix("journal-") }
    .reduce(0) { total, name in
      total + ((try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.size] as? Int) ?? 0)
    }
  await memory.shutdown()
  await durable.shutdown()
  return (memorySamples.sorted()[2], durableSamples.sorted()[2], Double(journal) / Double(count * 5))
}

/// Runs the comparison for each size.
func compare(sizes: [Int]) async throws {
  print(
    "to-dos    state journal: encode + diff   action journal: in memory → durable (Δ)"
      + "      bytes/action (state / action)")
  for size in sizes {
    let diff = stateDiff(size: size)
    let ours = try await actionJournal(size: size)
    let label = String(size).padding(toLength: 9, withPad: " ", startingAt: 0)
    print(
      "\(label) \(format(diff.ns).padding(toLength: 30, withPad: " ", startingAt: 0))"
        + "\(format(ours.memory)) → \(format(ours.durable)) (\(format(ours.durable - ours.memory)))"
        .padding(toLength: 45, withPad: " ", startingAt: 0)
        + "\(Int(diff.bytes.rounded())) / \(Int(ours.bytes.rounded()))")
  }
}

// `DurabilityBenchmarks loop <ephemeral|everysec|always|no> <actions>` serves `actions`
// counter increments from a client in this process (one in flight), for instruction counts
// under callgrind; anything else runs the comparison. The main thread blocks on a semaphore
// rather than running an async main (valgrind cannot follow libdispatch's main queue).
let arguments = Array(CommandLine.arguments.dropFirst())
let finished = DispatchSemaphore(value: 0)
Task.detached {
  do {
    if arguments.first == "loop", arguments.count == 3, let actions = Int(arguments[2]) {
      try await HostLoop.run(storage: arguments[1], actions: actions)
    } else {
      let sizes = arguments.compactMap { Int($0) }
      try await compare(sizes: sizes.isEmpty ? [1_000, 10_000, 100_000] : sizes)
    }
  } catch {
    print("DurabilityBenchmarks: \(error)")
  }
  finished.signal()
}
finished.wait()
