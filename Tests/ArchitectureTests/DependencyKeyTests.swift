import Foundation
import Testing

@testable import Architecture

/// The interface half of a dependency: a test value only.
private struct Speller: TestDependencyKey, Sendable {
  var spell: @Sendable (String) -> String
  static let testValue = Speller { $0.uppercased() }
}

/// A key with both halves, the live one refining the test one.
private struct Counting: DependencyKey, Sendable {
  var next: @Sendable () -> Int
  static let liveValue = Counting { 42 }
  static let testValue = Counting { 0 }
}

extension DependencyValues {
  fileprivate var speller: Speller {
    get { self[Speller.self] }
    set { self[Speller.self] = newValue }
  }
  fileprivate var counting: Counting {
    get { self[Counting.self] }
    set { self[Counting.self] = newValue }
  }
}

/// `TestDependencyKey` and `UUID(0)`-style test UUIDs, as in swift-dependencies.
@Suite struct DependencyKeyTests {
  @Test func aTestOnlyKeyResolvesInATestContext() {
    @Dependency(\.speller) var speller
    #expect(speller.spell("blob") == "BLOB")
  }

  @Test func aTestOnlyKeyFallsBackToItsTestValueLiveAndSaysSo() {
    let warnings = Collector()
    var values = DependencyValues()
    values.context = .live
    values.runtimeWarnings = warnings.reporter
    let speller = withDependencies {
      $0 = values
    } operation: {
      DependencyValues._effective.speller
    }
    #expect(speller.spell("blob") == "BLOB")
    #expect(warnings.values.count == 1)
    #expect(warnings.values.first?.contains("has no live implementation") == true)
  }

  @Test func aKeyWithBothHalvesResolvesEachInItsContext() {
    var live = DependencyValues()
    live.context = .live
    #expect(live.counting.next() == 42)
    var test = DependencyValues()
    test.context = .test
    #expect(test.counting.next() == 0)
  }

  @Test func integerUUIDsAreTheIncrementingGeneratorsValues() {
    #expect(UUID(0) == UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
    #expect(UUID(1) == UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
    #expect(UUID(0xDEAD_BEEF) == UUID(uuidString: "00000000-0000-0000-0000-0000DEADBEEF"))
    let generate = UUIDGenerator.incrementing
    #expect([generate(), generate(), generate()] == [UUID(0), UUID(1), UUID(2)])
  }
}
