import Testing

@testable import Hosting

/// The input budget closes only as many connections as it takes to get back under its limit.
@Suite struct InputBudgetTests {
  /// A channel that goes nowhere: the budget only reads sessions' counts.
  final class NullChannel: ClientChannel {
    var outboundBytes: Int { 0 }
    var isBackedUp: Bool { false }
    func write(_ bytes: [UInt8]) {}
    func flush() {}
    func setReadingPaused(_ paused: Bool) {}
    func close() {}
  }

  /// A session that has received the first `bytes` of a 1 MiB frame, counted by the budget.
  private func session(_ id: Int, holding bytes: Int, in budget: InputBudget) -> Session<Int, Int> {
    let session = Session<Int, Int>(
      id: id, channel: NullChannel(), processID: 0, userID: 0, maxFrameSize: 1 << 20)
    session.phase = .open
    let partial = [0, 0x10, 0, 0] + [UInt8](repeating: 0x20, count: bytes - 4)
    partial.withUnsafeBytes { session.decoder.append($0) }
    _ = budget.account(session)
    return session
  }

  @Test func aConnectionAlreadyClosingCountsAsGone() {
    // Six holders of 900 KB against 4 MiB: two must go (5.4 MB − 1.8 MB < 4.19 MB).
    let budget = InputBudget(limit: 4 << 20, frameTimeout: 30)
    let sessions = (1...6).map { self.session($0, holding: 900_000, in: budget) }
    let byID = Dictionary(uniqueKeysWithValues: sessions.map { ($0.id, $0) })
    let first = budget.evictions(byID.values)
    #expect(first.count == 2)
    // The host closes them; their close (and the release of their bytes) is delivered later,
    // after another connection's read has asked again: nobody else must go.
    for session in first { session.phase = .closing }
    #expect(budget.evictions(byID.values).isEmpty)
  }
}
