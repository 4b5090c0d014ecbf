import ArgumentParsing
import Remote
import Testing
import Wire

@testable import storeclient

@Suite struct BenchStatisticsTests {
  @Test func percentilesUseTheNearestRank() {
    let values: [UInt64] = Array(1...100)
    #expect(BenchStatistics.percentile(50, of: values) == 50)
    #expect(BenchStatistics.percentile(90, of: values) == 90)
    #expect(BenchStatistics.percentile(99, of: values) == 99)
    #expect(BenchStatistics.percentile(100, of: values) == 100)
    #expect(BenchStatistics.percentile(50, of: [7]) == 7)
    #expect(BenchStatistics.percentile(99, of: [1, 2, 3]) == 3)
    #expect(BenchStatistics.percentile(0.1, of: [4, 5]) == 4)
    #expect(BenchStatistics.percentile(50, of: []) == nil)
  }

  @Test func patchLatencyIsFromEachSendToTheFirstPatchThatIncludesIt() {
    // Actions at revs 11, 12, 13 sent at t = 100, 110, 120; the watcher got a patch to 11 at
    // 150 and one coalescing 12 and 13 at 200.
    let latencies = BenchStatistics.patchLatencies(
      actions: [(rev: 13, sent: 120), (rev: 11, sent: 100), (rev: 12, sent: 110)],
      patches: [(rev: 11, received: 150), (rev: 13, received: 200)])
    #expect(latencies == [50, 90, 80])
    // Actions the watcher never saw (it stopped at 11) and those before its snapshot are left out.
    #expect(
      BenchStatistics.patchLatencies(
        actions: [(rev: 10, sent: 1), (rev: 11, sent: 100), (rev: 12, sent: 110)],
        patches: [(rev: 11, received: 150)], after: 10) == [50])
  }
}

@Suite struct BenchOptionsTests {
  private func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
    try BenchOptions(try BenchCommand.spec.parse(arguments), endpoint: .local("/tmp/x.sock"))
  }

  private func message(_ arguments: [String]) -> String? {
    do {
      _ = try self.parse(arguments)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func defaultsAreTheCounterIncrementWithAcks() throws {
    let options = try self.parse([])
    #expect(options.clients == 1)
    #expect(options.length == .actions(10_000))
    #expect(options.scope == "counter")
    #expect(options.action == J(#"{"incrementButtonTapped":{}}"#))
    #expect(options.ack == .every && options.watchers == 0 && options.rate == nil && !options.json)
    #expect(options.counterStep == 1)
  }

  @Test func readsEveryOption() throws {
    let options = try self.parse([
      "--clients", "16", "--duration", "2.5", "--scope", "counter", "--action", #"{"decrementButtonTapped":{}}"#,
      "--watchers", "3", "--ack", "end", "--pipeline", "32", "--rate", "1000", "--json",
    ])
    #expect(options.clients == 16 && options.length == .duration(2.5) && options.watchers == 3)
    #expect(options.ack == .end && options.pipeline == 32 && options.rate == 1000 && options.json)
    #expect(options.counterStep == -1)
    #expect(try self.parse(["--action", #"{"set":{"_0":1}}"#]).counterStep == nil)
    #expect(try self.parse(["--scope", "todos"]).counterStep == nil)
  }

  @Test func rejectsMistakesInArgumentParserWording() {
    #expect(message(["--actions", "5", "--duration", "1"]) == "Use either --actions or --duration, not both")
    #expect(message(["--ack", "sometimes"]) == "The value 'sometimes' is invalid for '--ack <mode>': expected 'every' or 'end'")
    #expect(message(["--clients", "0"]) == "The value '0' is invalid for '--clients': expected an integer from 1 to 10000")
    #expect(message(["--duration", "soon"]) == "The value 'soon' is invalid for '--duration': expected a number of seconds from 0.001 to 86400")
    #expect(message(["--pipeline", "8"]) == "--pipeline applies only with --ack end")
    #expect(message(["--rate", "0"]) == "The value '0' is invalid for '--rate': expected actions per second from 1 to 100000000")
    #expect(message(["--action", "{oops}"])?.hasPrefix("The value for '--action <json>' is not valid JSON") == true)
  }
}

@Suite struct BenchVerificationTests {
  let before = Snapshot(revision: 100, state: J(#"{"count":50,"isTimerRunning":false}"#))

  @Test func theCountMustMoveByExactlyTheAcknowledgedActions() {
    let ok = BenchVerification.check(
      before: self.before, after: Snapshot(revision: 1100, state: J(#"{"count":1050,"isTimerRunning":false}"#)),
      acknowledged: 1000, counterStep: 1)
    #expect(ok.verified && ok.lost == 0)
    #expect(ok.message == "verified: the count moved by 1,000, exactly the 1,000 actions acknowledged — nothing lost")
    let lost = BenchVerification.check(
      before: self.before, after: Snapshot(revision: 900, state: J(#"{"count":1030,"isTimerRunning":false}"#)),
      acknowledged: 1000, counterStep: 1)
    #expect(!lost.verified && lost.lost == 20)
    #expect(lost.message == "LOST: 1,000 actions were acknowledged but the count moved by 980 — 20 lost")
    let extra = BenchVerification.check(
      before: self.before, after: Snapshot(revision: 1200, state: J(#"{"count":1051,"isTimerRunning":false}"#)),
      acknowledged: 1000, counterStep: 1)
    #expect(!extra.verified && extra.lost == 0 && extra.message.hasPrefix("MISMATCH"))
    let down = BenchVerification.check(
      before: self.before, after: Snapshot(revision: 110, state: J(#"{"count":40,"isTimerRunning":false}"#)),
      acknowledged: 10, counterStep: -1)
    #expect(down.verified)
  }

  @Test func aRestartedHostIsALoss() {
    // The host was killed mid-run and restarted: its count started over from zero.
    let result = BenchVerification.check(
      before: self.before, after: Snapshot(revision: 3, state: J(#"{"count":3,"isTimerRunning":false}"#)),
      acknowledged: 500, counterStep: 1)
    #expect(!result.verified && result.lost == 547)
  }

  @Test func otherActionsAreCheckedByRevisionAndARunningTimerSkipsTheCount() {
    let ticking = BenchVerification.check(
      before: self.before, after: Snapshot(revision: 1110, state: J(#"{"count":2000,"isTimerRunning":true}"#)),
      acknowledged: 1000, counterStep: 1)
    #expect(ticking.verified)
    #expect(ticking.message.hasSuffix("(the counter's timer is running, so the count was not checked)"))
    let generic = BenchVerification.check(
      before: Snapshot(revision: 5, state: J("[]")), after: Snapshot(revision: 2, state: J("[]")),
      acknowledged: 10, counterStep: nil)
    #expect(!generic.verified && generic.lost == 10)
    #expect(generic.message.contains("did the host restart?"))
    let unknown = BenchVerification.check(
      before: self.before, after: nil, afterError: .noHost(path: "/tmp/h.sock"), acknowledged: 10, counterStep: 1)
    #expect(!unknown.verified && unknown.lost == nil)
    #expect(unknown.message == "could not verify: no host is listening on /tmp/h.sock — start one with `storehost --socket /tmp/h.sock`")
  }
}
