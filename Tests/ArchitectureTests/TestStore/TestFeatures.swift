import Architecture
import Foundation

/// A small feature exercising every kind of effect a test store has to follow.
struct TestStoreFeature: Reducer {
  struct Item: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      let id: UUID
      var isDone = false
    }

    enum Action: Equatable, Sendable {
      case toggle
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.isDone.toggle()
      return .none
    }
  }

  struct State: Equatable, Sendable {
    var count = 0
    var items: IdentifiedArrayOf<Item.State> = []
    var message: String?
  }

  enum Action: Equatable, Sendable, CasePathable {
    case addItem
    case decrement
    case fetch
    case fetched(String)
    case increment
    case item(IdentifiedActionOf<Item>)
    case neverEnding
    case noop
    case response(Int)
    case sendTwo
    case sleepOnClock
    case startTimer
    case stopTimer
    case throwUnhandled
    case tick

    struct AllCasePaths {
      var fetched: AnyCasePath<Action, String> {
        .init(Action.fetched) { if case .fetched(let v) = $0 { v } else { nil } }
      }
      var item: AnyCasePath<Action, IdentifiedActionOf<Item>> {
        .init(Action.item) { if case .item(let v) = $0 { v } else { nil } }
      }
      var response: AnyCasePath<Action, Int> {
        .init(Action.response) { if case .response(let v) = $0 { v } else { nil } }
      }
      var tick: AnyCasePath<Action, Void> {
        .init(.tick) { if case .tick = $0 { true } else { false } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum CancelID: Hashable, Sendable { case timer }

  @Dependency(\.clock) var clock
  @Dependency(\.uuid) var uuid
  @Dependency(\.fetchMessage) var fetchMessage

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addItem:
        state.items.append(Item.State(id: self.uuid()))
        return .none
      case .decrement:
        state.count -= 1
        return .none
      case .fetch:
        return .run { send in
          await send(.fetched(try await self.fetchMessage()))
        } catch: { error, send in
          await send(.fetched("error: \(error)"))
        }
      case .fetched(let message):
        state.message = message
        return .none
      case .increment:
        state.count += 1
        return .none
      case .item:
        return .none
      case .neverEnding:
        return .run { _ in
          try await Task.sleep(for: .seconds(60 * 60))
        }
      case .noop:
        return .none
      case .response(let value):
        state.count = value
        return .none
      case .sendTwo:
        return .merge(.send(.response(1)), .send(.response(2)))
      case .sleepOnClock:
        return .run { _ in try await self.clock.sleep(for: .milliseconds(1)) }
      case .startTimer:
        return .run { send in
          while true {
            try await self.clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer)
      case .stopTimer:
        return .cancel(id: CancelID.timer)
      case .throwUnhandled:
        return .run { _ in throw TestStoreFeatureError() }
      case .tick:
        state.count += 1
        return .none
      }
    }
    .forEach(\.items, action: \.item) { Item() }
  }
}

struct TestStoreFeatureError: Error, Equatable {}

private enum FetchMessageKey: DependencyKey {
  static let liveValue: @Sendable () async throws -> String = { "live" }
  static let testValue: @Sendable () async throws -> String = { "test" }
}

extension DependencyValues {
  var fetchMessage: @Sendable () async throws -> String {
    get { self[FetchMessageKey.self] }
    set { self[FetchMessageKey.self] = newValue }
  }
}
