import Remote
import Wire

/// The end-of-run check that no acknowledged action was lost.
struct BenchVerification: Sendable, Equatable {
  /// Whether the check passed.
  var verified: Bool
  /// Acknowledged actions missing from the host's state; `nil` when it could not be checked.
  var lost: Int?
  /// What was checked and what was found, for people.
  var message: String

  /// Compares the host's state before and after the run with the actions acknowledged.
  ///
  /// For the counter's increment or decrement (`counterStep` ±1) the count must move by
  /// exactly the number of acknowledged actions. Otherwise — or when the counter's timer is
  /// running and moves the count on its own — the root revision must have advanced by at least
  /// that many (it grows by one per reduced action; a restarted host starts over).
  ///
  /// - Parameters:
  ///   - before: The scope's state before the run.
  ///   - after: The state after it, or `nil` if it could not be read.
  ///   - afterError: Why it could not be read.
  ///   - acknowledged: Actions the host acknowledged.
  ///   - counterStep: The count's change per action, when the counter check applies.
  static func check(
    before: Snapshot, after: Snapshot?, afterError: RemoteError? = nil, acknowledged: Int,
    counterStep: Int64?
  ) -> BenchVerification {
    guard let after else {
      return BenchVerification(
        verified: false, lost: nil,
        message: "could not verify: \(afterError.map(\.description) ?? "the state could not be read")")
    }
    let actions = Durations.grouped(acknowledged)
    var timerNote = ""
    if let step = counterStep, let start = Self.count(before.state), let end = Self.count(after.state) {
      if Self.timerRunning(before.state) || Self.timerRunning(after.state) {
        timerNote = " (the counter's timer is running, so the count was not checked)"
      } else {
        let moved = (end - start) * step
        let movedText = Durations.grouped(Int(moved))
        if moved == Int64(acknowledged) {
          return BenchVerification(
            verified: true, lost: 0,
            message: "verified: the count moved by \(movedText), exactly the \(actions) actions acknowledged — nothing lost")
        }
        if moved < Int64(acknowledged) {
          let lost = acknowledged - Int(moved)
          return BenchVerification(
            verified: false, lost: lost,
            message: "LOST: \(actions) actions were acknowledged but the count moved by \(movedText) — \(Durations.grouped(lost)) lost")
        }
        return BenchVerification(
          verified: false, lost: 0,
          message: "MISMATCH: the count moved by \(movedText) but only \(actions) actions were acknowledged (did another client change it?)")
      }
    }
    let advanced = after.revision - before.revision
    if advanced >= Int64(acknowledged) {
      return BenchVerification(
        verified: true, lost: 0,
        message: "verified: the root revision advanced by \(Durations.grouped(Int(advanced))), at least the \(actions) actions acknowledged — nothing lost\(timerNote)")
    }
    let lost = acknowledged - Int(max(0, advanced))
    return BenchVerification(
      verified: false, lost: lost,
      message: "LOST: \(actions) actions were acknowledged but the root revision advanced by only \(Durations.grouped(Int(advanced))) (did the host restart?) — \(Durations.grouped(lost)) lost\(timerNote)")
  }

  private static func count(_ state: JSON) -> Int64? {
    if case .object(let object) = state, case .int(let count) = object["count"] { count } else { nil }
  }

  private static func timerRunning(_ state: JSON) -> Bool {
    if case .object(let object) = state, case .bool(true) = object["isTimerRunning"] { true } else { false }
  }
}
