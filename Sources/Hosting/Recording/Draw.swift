#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One value a reducer drew from a non-deterministic dependency while it reduced an action.
///
/// Reducers are pure given their dependencies, so an action can be reduced again — when a
/// durable host recovers from its journal, or when a past state is reconstructed for `get` with
/// `at` — and give exactly the same state, provided each value the reducer drew from `uuid`,
/// `date` or `withRandomNumberGenerator` is given back in the same order. The host records them
/// with each action (see ``DrawTape``).
public enum Draw: Sendable, Equatable {
  /// A UUID from `@Dependency(\.uuid)`.
  case uuid(UUID)
  /// A date from `@Dependency(\.date)`, as its `timeIntervalSinceReferenceDate` (the `Double`
  /// a `Date` stores: converting through seconds since 1970 would round it).
  case date(Double)
  /// 64 random bits from `@Dependency(\.withRandomNumberGenerator)`.
  case random(UInt64)
}
