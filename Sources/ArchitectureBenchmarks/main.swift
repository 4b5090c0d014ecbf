// Release benchmark of the Architecture core: `swift run -c release ArchitectureBenchmarks`.
//
// Each figure is ns per action, the median of 5 runs. Sends are measured from inside the
// store's isolation: `Store` (TCA's shape, on the main actor) from the main actor, as a view
// sends; `StoreActor` (the host's) through an `isolated` parameter, the cost a caller already
// on the store's executor pays, as the host's I/O thread does with `assumeIsolated`. Both run
// the same core.
import Architecture

/// `ArchitectureBenchmarks a` (or b, c) runs only the benchmarks whose label starts with it.
let only = CommandLine.arguments.dropFirst().first

/// Times `body(iterations)` and returns ns per iteration.
func sample(iterations: Int, _ body: (Int) async -> Void) async -> Double {
  let start = ContinuousClock.now
  await body(iterations)
  let elapsed = ContinuousClock.now - start
  let ns = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
  return ns / Double(iterations)
}

func report(_ label: String, _ median: Double) {
  let padded = label + String(repeating: " ", count: max(0, 60 - label.count))
  print("\(padded) \(format(median)) ns/action")
}

/// Measures two variants alternately (5 samples each, medians), so that the noise of a shared
/// machine hits both alike: the ratio of the two is what (b) compares.
func measurePair(
  _ labels: (String, String), iterations: Int,
  _ first: (Int) async -> Void, _ second: (Int) async -> Void
) async -> (Double, Double) {
  if let only, !labels.0.hasPrefix("(\(only)") { return (.nan, .nan) }
  await first(iterations / 10)
  await second(iterations / 10)
  var firstSamples: [Double] = []
  var secondSamples: [Double] = []
  for _ in 0..<5 {
    firstSamples.append(await sample(iterations: iterations, first))
    secondSamples.append(await sample(iterations: iterations, second))
  }
  let medians = (firstSamples.sorted()[2], secondSamples.sorted()[2])
  report(labels.0, medians.0)
  report(labels.1, medians.1)
  return medians
}

func measure(_ label: String, iterations: Int, _ body: (Int) async -> Void) async -> Double {
  if let only, !label.hasPrefix("(\(only)") { return .nan }
  var samples: [Double] = []
  await body(iterations / 10)  // warm-up
  for _ in 0..<5 {
    let start = ContinuousClock.now
    await body(iterations)
    let elapsed = ContinuousClock.now - start
    let ns = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    samples.append(ns / Double(iterations))
  }
  let median = samples.sorted()[2]
  let padded = label + String(repeating: " ", count: max(0, 60 - label.count))
  print("\(padded) \(format(median)) ns/action")
  return median
}

@MainActor
func sendIncrements(_ store: Store<Counter.State, Counter.Action>, _ n: Int) {
  for _ in 0..<n { store.send(.increment) }
}

func sendIncrements(_ store: isolated StoreActor<Counter.State, Counter.Action>, _ n: Int) {
  for _ in 0..<n { store.send(.increment) }
}

/// Sends element actions to ids `start, start + s, start + 2s, … (mod count)`. Stride 0 sends
/// to one element (the issue's "an action to one element": the algorithmic cost, which an O(n)
/// copy would blow up); stride 7919 (prime) spreads the actions over the whole collection, which
/// adds the cache and TLB misses of touching a random element of a 4 MB array and its index.
@MainActor
func sendElementActions(
  _ store: Store<Root.State, Root.Action>, _ n: Int, count: Int, stride: Int
) {
  var id = count / 2
  for _ in 0..<n {
    store.send(.list(.items(.element(id: id, action: .leaf(.increment)))))
    id = (id &+ stride) % count
  }
}

func sendElementActions(
  _ store: isolated StoreActor<Root.State, Root.Action>, _ n: Int, count: Int, stride: Int
) {
  var id = count / 2
  for _ in 0..<n {
    store.send(.list(.items(.element(id: id, action: .leaf(.increment)))))
    id = (id &+ stride) % count
  }
}

func format(_ value: Double) -> String {
  guard value.isFinite else { return "     n/a" }
  let tenths = Int((value * 10).rounded())
  let text = "\(tenths / 10).\(tenths % 10)"
  return String(repeating: " ", count: max(0, 8 - text.count)) + text
}

@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

print("Architecture benchmarks (release), ns/action, median of 5 runs")

// (a) Store.send of a counter increment from the main actor, one stateChanges() observer
// attached.
let counterStore = Store(initialState: Counter.State()) { Counter() }
let observer = Task {
  var seen = 0
  for await _ in counterStore.stateChanges() { seen += 1 }
  return seen
}
try? await Task.sleep(for: .milliseconds(50))
let a = await measure("(a) Store.send counter, 1 stateChanges observer", iterations: 2_000_000) {
  sendIncrements(counterStore, $0)
}
observer.cancel()

// (a') the same with a synchronous observer called after every action.
let observedStore = Store(initialState: Counter.State()) { Counter() }
observedStore.observe { state in blackHole(state) }
_ = await measure(
  "(a') Store.send counter, 1 synchronous observe() observer", iterations: 2_000_000
) {
  sendIncrements(observedStore, $0)
}

// (a'') StoreActor.send of a counter increment from its isolation, one stateChanges() observer.
let counterActor = StoreActor(initialState: Counter.State()) { Counter() }
let actorObserver = Task {
  var seen = 0
  for await _ in counterActor.stateChanges() { seen += 1 }
  return seen
}
try? await Task.sleep(for: .milliseconds(50))
_ = await measure(
  "(a'') StoreActor.send counter, 1 stateChanges observer", iterations: 2_000_000
) {
  await sendIncrements(counterActor, $0)
}
actorObserver.cancel()

// (b) An element action 3 levels deep: Scope → forEach → Scope.
@MainActor
func elementStore(count: Int) -> Store<Root.State, Root.Action> {
  let items = IdentifiedArrayOf<Item.State>(
    uniqueElements: (0..<count).map { Item.State(id: $0, title: "Item \($0)") })
  return Store(initialState: Root.State(list: List.State(items: items))) { Root() }
}
let small = elementStore(count: 1_000)
let large = elementStore(count: 100_000)
let (b1k, b100k) = await measurePair(
  (
    "(b) element action 3 levels deep, 1,000 elements",
    "(b) element action 3 levels deep, 100,000 elements"
  ),
  iterations: 1_000_000,
  { sendElementActions(small, $0, count: 1_000, stride: 0) },
  { sendElementActions(large, $0, count: 100_000, stride: 0) }
)
let (b1kSpread, b100kSpread) = await measurePair(
  (
    "(b') the same, actions spread over all 1,000 elements",
    "(b') the same, actions spread over all 100,000 elements"
  ),
  iterations: 1_000_000,
  { sendElementActions(small, $0, count: 1_000, stride: 7919) },
  { sendElementActions(large, $0, count: 100_000, stride: 7919) }
)

// (b'') The same as (b) in a StoreActor.
func elementActor(count: Int) -> StoreActor<Root.State, Root.Action> {
  let items = IdentifiedArrayOf<Item.State>(
    uniqueElements: (0..<count).map { Item.State(id: $0, title: "Item \($0)") })
  return StoreActor(initialState: Root.State(list: List.State(items: items))) { Root() }
}
let smallActor = elementActor(count: 1_000)
let largeActor = elementActor(count: 100_000)
_ = await measurePair(
  (
    "(b'') StoreActor: element action 3 levels deep, 1,000 elements",
    "(b'') StoreActor: element action 3 levels deep, 100,000 elements"
  ),
  iterations: 1_000_000,
  { await sendElementActions(smallActor, $0, count: 1_000, stride: 0) },
  { await sendElementActions(largeActor, $0, count: 100_000, stride: 0) }
)

// (c) The bare reducer call, the floor.
@inline(never)
func reduceCounter(_ n: Int) {
  let counter = Counter()
  var state = Counter.State()
  for _ in 0..<n { blackHole(counter.reduce(into: &state, action: .increment)) }
  blackHole(state)
}
let c = await measure("(c) bare Counter.reduce(into:action:)", iterations: 20_000_000) {
  reduceCounter($0)
}

print("")
print("targets: (a) <= 150 ns: \(a <= 150 ? "met" : "MISSED")")
print(
  "         (b) <= 500 ns: \(max(b1k, b100k) <= 500 ? "met" : "MISSED");"
    + " 100k/1k = \(format(b100k / b1k)) (<= 1.5: \(b100k / b1k <= 1.5 ? "met" : "MISSED"))")
print(
  "         (b') spread (cache/TLB misses): 100k/1k = \(format(b100kSpread / b1kSpread)),"
    + " <= 500 ns: \(max(b1kSpread, b100kSpread) <= 500 ? "met" : "MISSED")")
print("         (c) floor: \(format(c)) ns")
