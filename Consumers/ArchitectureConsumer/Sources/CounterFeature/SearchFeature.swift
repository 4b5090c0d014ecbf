import Architecture
import Foundation

/// A search field written as TCA apps wrote it with combine-schedulers: the query is debounced
/// on `\.mainQueue`, and each search is stamped with `\.mainRunLoop`'s date.
public struct SearchFeature: Reducer, Sendable {
  /// The search's state.
  public struct State: Equatable, Sendable {
    /// The text typed so far.
    public var query = ""
    /// The queries searched, with the date of each search.
    public var searches: [Search] = []

    /// An empty search.
    public init() {}
  }

  /// A search that ran.
  public struct Search: Equatable, Sendable {
    /// What was searched.
    public var query: String
    /// When.
    public var date: Date

    /// A search of `query` at `date`.
    public init(query: String, date: Date) {
      self.query = query
      self.date = date
    }
  }

  /// The search's actions.
  public enum Action: Equatable, Sendable, CasePathable {
    /// The user typed.
    case queryChanged(String)
    /// The debounced query is searched.
    case search(String)

    /// The case paths of ``SearchFeature/Action``.
    public struct AllCasePaths: Sendable {
      /// `.search`.
      public var search: AnyCasePath<Action, String> {
        .init(Action.search) { if case .search(let query) = $0 { query } else { nil } }
      }
    }

    /// The case paths of ``SearchFeature/Action``.
    public static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  enum CancelID: Hashable, Sendable { case search }

  @Dependency(\.mainQueue) var mainQueue
  @Dependency(\.mainRunLoop) var mainRunLoop

  /// Creates the feature.
  public init() {}

  /// The search's logic.
  public func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
    switch action {
    case .queryChanged(let query):
      state.query = query
      return .send(.search(query))
        .debounce(id: CancelID.search, for: .milliseconds(300), scheduler: self.mainQueue)
    case .search(let query):
      state.searches.append(Search(query: query, date: self.mainRunLoop.now.date))
      return .none
    }
  }
}
