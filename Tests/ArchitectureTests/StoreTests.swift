import Testing

@testable import Architecture

@Suite struct StoreTests {
  @Test func finishWaitsForTheEffectsAndTheActionsTheySend() async {
    let store = makeStore(Effects.State(), Effects())
    let task = await store.send(.runMany(50))
    #expect(await finishes(task))
    #expect(await store.state.log.count == 50)
    #expect(await store.effectsInFlight == 0)
    #expect(await store.send(.record("x")).isCancelled)  // no effects: nothing to await
  }

  @Test func cancellingTheStoreTaskCancelsItsEffects() async {
    let store = makeStore(Effects.State(), Effects())
    let task = await store.send(.runForever(id: "x"))
    #expect(await eventually { await store.state.log == ["start x"] })
    task.cancel()
    #expect(await finishes(task))
    #expect(task.isCancelled)
    #expect(await store.effectsInFlight == 0)
  }

  @Test func cancellingTheTaskAwaitingFinishCancelsTheEffects() async {
    let store = makeStore(Effects.State(), Effects())
    let task = await store.send(.runForever(id: "x"))
    let waiter = Task { await task.finish() }
    #expect(await eventually { await store.state.log == ["start x"] })
    waiter.cancel()
    await waiter.value
    #expect(await eventually { await store.effectsInFlight == 0 })
  }

  @Test func actionsSentWhileAnActionIsProcessedAreQueuedInOrder() async {
    let store = makeStore(Effects.State(), Effects())
    await store.observe { [store] state in
      guard state.log.last == "trigger" else { return }
      store.assumeIsolated { store in
        store.send(.record("queued 1"))
        store.send(.record("queued 2"))
        // Still processing "trigger": nothing reduced yet.
        #expect(store.state.log.last == "trigger")
      }
    }
    await store.send(.record("trigger"))
    #expect(await store.state.log == ["trigger", "queued 1", "queued 2"])
  }

  @Test func scopedStoresReadThroughAndSendThroughTheirParent() async {
    let store = makeStore(Parent.State(), Parent())
    let child = await store.scope(state: \.counter, action: \.counter)
    await child.send(.increment)
    #expect(await store.state.counter.count == 1)
    #expect(await store.state.log == ["parent"])  // the root reducer saw the embedded action
    await store.send(.counter(.set(41)))
    #expect(await child.state.count == 41)
    let grandchild = await child.scope(state: \.count, action: AnyCasePath(\.set))
    await grandchild.send(7)
    #expect(await grandchild.state == 7)
    #expect(await store.state.counter.count == 7)
  }

  @Test func scopedStoresShareTheRootsExecutor() async {
    let store = makeStore(Parent.State(), Parent())
    let child = await store.scope(state: \.counter, action: \.counter)
    func readChild(_ root: isolated StoreActor<Parent.State, Parent.Action>) -> Int {
      // Crashes unless the child runs on the same executor as its root.
      child.assumeIsolated { $0.state.count }
    }
    await store.send(.counter(.set(3)))
    #expect(await readChild(store) == 3)
  }

  @Test func stateChangesStartWithTheCurrentStateAndSkipEqualStates() async {
    let store = makeStore(Parent.State(), Parent())
    let child = await store.scope(state: \.counter, action: \.counter)
    let seen = Locked<[Int]>([])
    let observer = Task { () -> [Int] in
      for await state in child.stateChanges() {
        let count = seen.withLock {
          $0.append(state.count)
          return $0.count
        }
        if count == 2 { break }
      }
      return seen.value
    }
    #expect(await eventually { seen.value == [0] })
    // The parent's log changes but the child's state does not: no element for these.
    for _ in 0..<3 {
      await child.send(.noop)
      await _settle(5)
    }
    await child.send(.increment)
    #expect(await observer.value == [0, 1])
  }

  @Test func stateChangesWithoutEquatableStateEmitEveryChange() async {
    struct Box: Sendable { var value = 0 }
    struct Feature: Reducer {
      func reduce(into state: inout Box, action: Int) -> Effect<Int> {
        state.value = action
        return .none
      }
    }
    let store = StoreActor(initialState: Box()) { Feature() }
    let seen = Locked<[Int]>([])
    let observer = Task { () -> [Int] in
      for await state in store.stateChanges() {
        let count = seen.withLock {
          $0.append(state.value)
          return $0.count
        }
        if count == 2 { break }
      }
      return seen.value
    }
    #expect(await eventually { seen.value == [0] })
    await store.send(0)
    #expect(await observer.value == [0, 0])
  }

  @Test func stateChangesEndWhenTheObserverIsCancelled() async {
    let store = makeStore(Parent.State(), Parent())
    let observer = Task {
      var count = 0
      for await _ in store.stateChanges() { count += 1 }
      return count
    }
    await store.send(.counter(.increment))
    observer.cancel()
    let count = await observer.value
    #expect(count >= 1)
  }

  @Test func stateChangesKeepUpWithConcurrentSendsAndEndOnTheLatestState() async {
    let store = makeStore(Parent.State(), Parent())
    let observer = Task { () -> Int in
      var last = -1
      for await state in store.stateChanges() {
        #expect(state.counter.count > last)  // deduplicated and in order
        last = state.counter.count
        if last == 2_000 { break }
      }
      return last
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<500 { await store.send(.counter(.increment)) }
        }
      }
    }
    #expect(await observer.value == 2_000)
  }

  @Test func manyConcurrentSendersReachTheStoreWithoutLoss() async {
    let store = makeStore(Parent.State(), Parent())
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<50 {
        group.addTask {
          for _ in 0..<200 { await store.send(.counter(.increment)) }
        }
      }
    }
    #expect(await store.state.counter.count == 10_000)
    #expect(await store.state.log.count == 10_000)
  }

  @Test func aStoreOnACustomExecutorReducesOnItWithNoHop() async {
    let executor = QueueExecutor(label: "io")
    let seen = Collector()
    struct Feature: Reducer {
      let seen: Collector
      func reduce(into state: inout Int, action: Int) -> Effect<Int> {
        self.seen.append(QueueExecutor.currentLabel ?? "elsewhere")
        state += action
        return .none
      }
    }
    let store = StoreActor(initialState: 0, reducer: { Feature(seen: seen) }, executor: executor)
    await store.send(1)
    // A plain callback on the executor's thread (no task), as a socket read.
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      executor.execute {
        _ = store.assumeIsolated { $0.send(2) }
        done.resume()
      }
    }
    #expect(await store.state == 3)
    #expect(seen.values == ["io", "io"])
  }

  @Test func synchronousObserversSeeEveryActionIncludingEffectActions() async {
    let store = makeStore(Effects.State(), Effects())
    let counts = Locked<[Int]>([])
    let id = await store.observe { state in counts.withLock { $0.append(state.log.count) } }
    await store.send(.runMany(3)).finish()
    #expect(counts.value == [0, 1, 2, 3])
    await store.removeObserver(id)
    await store.send(.record("x"))
    #expect(counts.value.count == 4)
  }
}

@Suite struct StoreTestSupportTests {
  @Test func receivedActionsAreReportedWithTheirStateAndTasksKnowWhenTheyFinish() async {
    let store = makeStore(Effects.State(), Effects())
    let received = Locked<[String]>([])
    await store._observeReceivedActions { action, state in
      let entry = "\(action) -> \(state.log.count)"
      received.withLock { $0.append(entry) }
    }
    let task = await store.send(.runMany(2))
    #expect(await finishes(task))
    #expect(task._isFinished)
    await store.send(.record("direct"))
    #expect(received.value == ["record(\"1\") -> 1", "record(\"2\") -> 2"])
    let forever = await store.send(.runForever(id: "f"))
    #expect(!forever._isFinished)
    forever.cancel()
    #expect(await finishes(forever))
  }
}
