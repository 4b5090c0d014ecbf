import Foundation
import Testing

@testable import Architecture

private struct Greeting: DependencyKey {
  static let liveValue = "live"
  static let testValue = "test"
}

private struct Untested: DependencyKey {
  static let liveValue = 42
}

extension DependencyValues {
  fileprivate var greeting: String {
    get { self[Greeting.self] }
    set { self[Greeting.self] = newValue }
  }
  fileprivate var untested: Int {
    get { self[Untested.self] }
    set { self[Untested.self] = newValue }
  }
}

private struct Greeter: Reducer {
  @Dependency(\.greeting) var greeting
  func reduce(into state: inout [String], action: Void) -> Effect<Void> {
    state.append(self.greeting)
    return .none
  }
}

@Suite struct DependencyTests {
  @Test func aTestProcessIsATestContext() {
    #expect(DependencyContext.default == .test)
    #expect(DependencyValues().greeting == "test")
    var live = DependencyValues()
    live.context = .live
    #expect(live.greeting == "live")
  }

  @Test func eachStoreUsesItsOwnOverrides() async {
    let one = StoreActor(initialState: [String]()) {
      Greeter()
    } withDependencies: {
      $0.greeting = "one"
    }
    let two = StoreActor(initialState: [String]()) {
      Greeter()
    } withDependencies: {
      $0.greeting = "two"
    }
    let plain = StoreActor(initialState: [String]()) { Greeter() }
    await one.send(())
    await two.send(())
    await plain.send(())
    #expect(await one.state == ["one"])
    #expect(await two.state == ["two"])
    #expect(await plain.state == ["test"])
  }

  @Test func aStoreKeepsTheDependenciesItWasCreatedWith() async {
    let store = withDependencies {
      $0.greeting = "captured"
    } operation: {
      StoreActor(initialState: [String]()) { Greeter() }
    }
    await withDependencies {
      $0.greeting = "caller"
    } operation: {
      await store.send(())
    }
    #expect(await store.state == ["captured"])
  }

  @Test func effectsInheritTheStoresDependencies() async {
    let date = Date(timeIntervalSince1970: 1_234)
    let store = StoreActor(initialState: Effects.State()) {
      Effects()
    } withDependencies: {
      $0.date = .constant(date)
    }
    await store.send(.readDate).finish()
    #expect(await store.state.log == ["date 1234.0", "effect date 1234.0"])
  }

  @Test func reducersCalledOffAnyTaskSeeTheStoresDependencies() async {
    let executor = QueueExecutor(label: "deps")
    let store = StoreActor(
      initialState: [String](), reducer: { Greeter() },
      withDependencies: { $0.greeting = "from store" }, executor: executor)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      executor.execute {
        #expect(withUnsafeCurrentTask { $0 == nil })
        _ = store.assumeIsolated { $0.send(()) }
        done.resume()
      }
    }
    #expect(await store.state == ["from store"])
  }

  @Test func uuidsIncrementPerStoreInATestContext() async {
    let one = StoreActor(initialState: Effects.State()) { Effects() }
    let two = StoreActor(initialState: Effects.State()) { Effects() }
    await one.send(.readUUID)
    await one.send(.readUUID)
    await two.send(.readUUID)
    #expect(
      await one.state.log == [
        "00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000001",
      ])
    #expect(await two.state.log == ["00000000-0000-0000-0000-000000000000"])
  }

  @Test func withDependenciesScopesOverridesSyncAndAsync() async {
    @Dependency(\.greeting) var greeting
    #expect(greeting == "test")
    withDependencies {
      $0.greeting = "sync"
    } operation: {
      #expect(greeting == "sync")
    }
    await withDependencies {
      $0.greeting = "async"
    } operation: {
      await Task.yield()
      #expect(greeting == "async")
      let child = Task { () -> String in
        @Dependency(\.greeting) var inherited
        return inherited
      }
      #expect(await child.value == "async")
    }
    #expect(greeting == "test")
  }

  @Test func aMissingTestValueIsReportedAndFallsBackToTheLiveValue() {
    let warnings = Collector()
    withDependencies {
      $0.runtimeWarnings = warnings.reporter
    } operation: {
      var values = DependencyValues.current
      values.prepareForStore()  // a fresh cache, as a store has
      #expect(values.untested == 42)
    }
    #expect(warnings.values.count == 1)
    #expect(warnings.values.first?.contains("has no test implementation") == true)
  }

  @Test func builtInGenerators() {
    let uuid = UUIDGenerator.incrementing
    #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000001")
    let date = Date(timeIntervalSince1970: 5)
    #expect(DateGenerator.constant(date).now == date)
    #expect(UUIDGenerator.constant(UUID(counting: 7))().uuidString.hasSuffix("000000000007"))
  }
}
