import Architecture
import Foundation

/// A parent and a child that both share an in-memory count, as in TCA's sharing article.
struct CountingParent: Reducer {
  struct State: Equatable {
    @Shared(.inMemory("count")) var count = 0
    var child = CountingChild.State()
  }

  enum Action: Equatable, CasePathable {
    case child(CountingChild.Action)
    case incrementButtonTapped
    case incrementInEffectTapped
    case incrementTwiceTapped
    case tick

    struct AllCasePaths {
      var child: AnyCasePath<Action, CountingChild.Action> {
        .init(Action.child) { if case .child(let v) = $0 { v } else { nil } }
      }
      var tick: AnyCasePath<Action, Void> {
        .init(.tick) { if case .tick = $0 { true } else { false } }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { CountingChild() }
    Reduce { state, action in
      switch action {
      case .child:
        return .none
      case .incrementButtonTapped, .tick:
        state.$count.withLock { $0 += 1 }
        return .none
      case .incrementInEffectTapped:
        return .run { [count = state.$count] _ in
          count.withLock { $0 += 1 }
        }
      case .incrementTwiceTapped:
        return .merge(.send(.tick), .send(.tick))
      }
    }
  }
}

struct CountingChild: Reducer {
  struct State: Equatable {
    @Shared(.inMemory("count")) var count = 0
  }

  enum Action: Equatable {
    case incrementButtonTapped
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.$count.withLock { $0 += 1 }
    return .none
  }
}

/// A list of meetings persisted to a file, as TCA's SyncUps keeps its sync-ups.
struct Meeting: Codable, Equatable, Identifiable, Sendable {
  var id: Int
  var title: String
}

extension URL {
  /// Never written: tests keep `.fileStorage` files in memory.
  static let meetings = FileManager.default.temporaryDirectory
    .appending(path: "architecture-tests-in-memory-only/meetings.json")
}

extension SharedKey where Self == FileStorageKey<IdentifiedArrayOf<Meeting>>.Default {
  static var meetings: Self {
    Self[.fileStorage(.meetings), default: []]
  }
}

struct MeetingList: Reducer {
  struct State: Equatable {
    @Shared(.meetings) var meetings
  }

  enum Action: Equatable {
    case add(Meeting)
    case delete(id: Int)
    case rename(id: Int, String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let meeting):
      state.$meetings.withLock { _ = $0.append(meeting) }
      return .none
    case .delete(let id):
      state.$meetings.withLock { $0.remove(id: id) }
      return .none
    case .rename(let id, let title):
      guard let meeting = Shared(state.$meetings[id: id]) else { return .none }
      meeting.title.withLock { $0 = title }
      return .none
    }
  }
}
