@testable import Remote
import Testing
import Wire

@Suite struct ScopeMirrorTests {
  let start = Snapshot(revision: 41, state: J(#"{"count":3,"isTimerRunning":false}"#))

  @Test func appliesAPatchAndKeepsTheStateBefore() {
    var mirror = ScopeMirror(self.start)
    let outcome = mirror.apply(
      base: 41, rev: 42, ops: [J(#"{"op":"replace","path":"/count","value":4}"#)])
    #expect(outcome == .applied(before: self.start.state))
    #expect(mirror.revision == 42)
    #expect(mirror.state == J(#"{"count":4,"isTimerRunning":false}"#))
  }

  @Test func appliesPatchesInSequenceAndSkippedRevisions() {
    var mirror = ScopeMirror(self.start)
    _ = mirror.apply(base: 41, rev: 42, ops: [J(#"{"op":"replace","path":"/count","value":4}"#)])
    // A coalesced patch may skip revisions: base is the last one seen, rev jumps ahead.
    let outcome = mirror.apply(
      base: 42, rev: 50,
      ops: [
        J(#"{"op":"replace","path":"/count","value":9}"#),
        J(#"{"op":"add","path":"/label","value":"hi"}"#),
      ])
    guard case .applied = outcome else {
      Issue.record("expected applied, got \(outcome)")
      return
    }
    #expect(mirror.snapshot == Snapshot(revision: 50, state: J(#"{"count":9,"isTimerRunning":false,"label":"hi"}"#)))
  }

  @Test func detectsABaseThatIsNotTheLastRevision() {
    var mirror = ScopeMirror(self.start)
    let outcome = mirror.apply(
      base: 40, rev: 42, ops: [J(#"{"op":"replace","path":"/count","value":4}"#)])
    #expect(outcome == .baseMismatch(expected: 41, received: 40))
    #expect(mirror.snapshot == self.start, "a rejected patch leaves the mirror as it was")
  }

  @Test func rejectsPatchesThatDoNotApplyOrDoNotMoveForward() {
    var mirror = ScopeMirror(self.start)
    let missing = mirror.apply(base: 41, rev: 42, ops: [J(#"{"op":"remove","path":"/nope"}"#)])
    guard case .invalid(let reason) = missing else {
      Issue.record("expected invalid, got \(missing)")
      return
    }
    #expect(reason.contains("/nope"))
    let backwards = mirror.apply(
      base: 41, rev: 41, ops: [J(#"{"op":"replace","path":"/count","value":4}"#)])
    guard case .invalid = backwards else {
      Issue.record("a patch to the same revision was accepted")
      return
    }
    let malformed = mirror.apply(base: 41, rev: 42, ops: [J(#"{"op":"shuffle","path":""}"#)])
    guard case .invalid = malformed else {
      Issue.record("an unknown op was accepted")
      return
    }
    let empty = mirror.apply(base: 41, rev: 42, ops: [])
    guard case .invalid = empty else {
      Issue.record("an empty patch was accepted")
      return
    }
    // A failure in the middle of a patch leaves nothing half-applied.
    let partial = mirror.apply(
      base: 41, rev: 42,
      ops: [
        J(#"{"op":"replace","path":"/count","value":5}"#), J(#"{"op":"remove","path":"/x"}"#),
      ])
    guard case .invalid = partial else {
      Issue.record("a patch failing half-way was accepted")
      return
    }
    #expect(mirror.snapshot == self.start)
  }

  @Test func aWholeStateReplaceUsesTheEmptyPointer() {
    var mirror = ScopeMirror(self.start)
    _ = mirror.apply(base: 41, rev: 43, ops: [J(#"{"op":"replace","path":"","value":[1,2]}"#)])
    #expect(mirror.state == J("[1,2]"))
  }
}

@Suite struct BackoffTests {
  @Test func growsExponentiallyUpToTheCap() {
    let backoff = Backoff(initial: .milliseconds(100), multiplier: 2, maximum: .seconds(1))
    let delays = (1...7).map { backoff.delay(forAttempt: $0) }
    #expect(
      delays == [
        .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
        .seconds(1), .seconds(1), .seconds(1),
      ])
    #expect(backoff.delay(forAttempt: 0) == .milliseconds(100))
    #expect(backoff.delay(forAttempt: 10_000) == .seconds(1), "no overflow for large attempts")
  }

  @Test func theDefaultScheduleIsCapped() {
    let delays = (1...10).map { Backoff.default.delay(forAttempt: $0) }
    #expect(delays.first == .milliseconds(50))
    #expect(delays.last == .seconds(2))
    #expect(zip(delays, delays.dropFirst()).allSatisfy { $0 <= $1 })
  }

  @Test func jitterOnlyShortensAndStaysWithinItsFraction() {
    let backoff = Backoff(initial: .milliseconds(100), multiplier: 3, maximum: .seconds(2), jitter: 0.25)
    var generator = SplitMix64(seed: 7)
    var distinct = Set<Duration>()
    for attempt in 1...6 {
      let full = backoff.delay(forAttempt: attempt)
      for _ in 0..<50 {
        let delay = backoff.delay(forAttempt: attempt, using: &generator)
        #expect(delay <= full && delay >= full * 0.75 - .nanoseconds(1))
        distinct.insert(delay)
      }
    }
    #expect(distinct.count > 100, "jitter varies the delays")
    let none = Backoff(initial: .milliseconds(100), maximum: .seconds(1))
    #expect(none.delay(forAttempt: 2, using: &generator) == .milliseconds(200))
  }
}


@Suite struct RemoteErrorTests {
  @Test func mapsHostErrorCodesToCases() {
    #expect(RemoteError.host(code: .unknownScope, message: "unknown scope 'x'") == .unknownScope(message: "unknown scope 'x'"))
    #expect(RemoteError.host(code: .scopeUnavailable, message: "m") == .scopeUnavailable(message: "m"))
    #expect(RemoteError.host(code: .badAction, message: "m") == .rejected(code: .badAction, message: "m"))
    #expect(RemoteError.host(code: .badAction, message: "m").code == .badAction)
  }

  @Test func explainsWhatToDo() {
    #expect(RemoteError.noHost(path: "/tmp/h.sock").description == "no host is listening on /tmp/h.sock — start one with `storehost --socket /tmp/h.sock`")
    #expect(RemoteError.disconnected(reason: "shutdown").description == "the host closed the connection (shutdown)")
    #expect(RemoteError.unknownScope(message: "unknown scope 'countr'").description == "unknown scope 'countr'")
    #expect(RemoteError.noHost(path: "/x").isTransient)
    #expect(!RemoteError.scopeGone(scope: "a").isTransient)
    #expect(!RemoteError.unknownScope(message: "").isTransient)
  }
}
