/// The texts of test-store failures, worded as TCA words them (tests match on them, TCA's own
/// among them): a headline, then the details (a diff marked `−` for expected and `+` for actual),
/// then what to do about it.
enum _TestStoreMessages {
  static let stateMismatch = "A state change does not match expectation"
  static let unexpectedStateChange = "State was not expected to change, but a change occurred"

  static let sendToDismissedStore = "Can't send action to dismissed test store."

  static let noStateChange = """
    Expected state to change, but no change occurred.

    The trailing closure made no observable modifications to state. If no change to state is \
    expected, omit the trailing closure.
    """

  static let toFixReceivedActions = """
    To fix, explicitly assert against these actions using "store.receive", skip these actions \
    by performing "await store.skipReceivedActions()", or consider using a non-exhaustive test \
    store: "store.exhaustivity = .off".
    """

  static let effectStillRunning = """
    An effect returned for this action is still running. It must complete before the end of \
    the test.

    To fix, inspect any effects the reducer returns for this action and ensure that all of \
    them complete by the end of the test. There are a few reasons why an effect may not have \
    completed:

    If using async/await in your effect, it may need a little bit of time to properly \
    finish. To fix you can simply perform "await store.finish()" at the end of your test.

    If an effect uses a clock (or scheduler, via "receive(on:)", "delay", "debounce", etc.), \
    make sure that you wait enough time for it to perform the effect. If you are using a test \
    clock/scheduler, advance it so that the effects may complete, or consider using an \
    immediate clock/scheduler to immediately perform the effect instead.

    If you are returning a long-living effect (timers, notifications, subjects, etc.), then \
    make sure those effects are torn down by marking the effect ".cancellable" and returning a \
    corresponding cancellation effect ("Effect.cancel") from another action, or, if your \
    effect is driven by a Combine subject, send it a completion.

    If you do not wish to assert on these effects, perform "await \
    store.skipInFlightEffects()", or consider using a non-exhaustive test store: \
    "store.exhaustivity = .off".
    """

  /// The advice when waiting timed out while effects are still running.
  static func effectsInFlight(timeoutWasExplicit: Bool) -> String {
    """
    There are effects in-flight. If the effect that delivers this action uses a \
    clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
    enough time for it to perform the effect. If you are using a test \
    clock/scheduler, advance it so that the effects may complete, or consider using \
    an immediate clock/scheduler to immediately perform the effect instead.

    If you are not yet using a clock/scheduler, or can not use a clock/scheduler, \
    \(Self.timeoutAdvice(explicit: timeoutWasExplicit)).
    """
  }

  /// The advice when a `receive` waited in vain with no effect left to deliver the action.
  static let noEffectsToDeliver = """
    There are no in-flight effects that could deliver this action. Could the effect you \
    expected to deliver this action have been cancelled?
    """

  /// The advice when a test store task did not finish in time.
  static func taskInFlight(timeoutWasExplicit: Bool) -> String {
    """
    If this task delivers its action using a clock/scheduler (via "sleep(for:)", \
    "timer(interval:)", etc.), make sure that you wait enough time for it to \
    perform its work. If you are using a test clock/scheduler, advance the scheduler so that \
    the effects may complete, or consider using an immediate clock/scheduler to immediately \
    perform the effect instead.

    If you are not yet using a clock/scheduler, or cannot use a clock/scheduler, \
    \(Self.timeoutAdvice(explicit: timeoutWasExplicit)).
    """
  }

  private static func timeoutAdvice(explicit: Bool) -> String {
    explicit
      ? #"try increasing the duration of this assertion's "timeout""#
      : #"configure this assertion with an explicit "timeout""#
  }

  /// Actions received but not asserted when a `send` comes.
  static func mustHandle(_ actions: [Any]) -> String {
    """
    Must handle \(Self.count(actions.count, "received action")) before sending an action.

    Unhandled actions: \(Self.dump(actions))
    """
  }

  /// Actions received but never asserted, when the test ends (or `finish` is called).
  static func receivedUnexpected(_ actions: [Any]) -> String {
    """
    The store received \(Self.count(actions.count, "unexpected action")).

      Unhandled actions:
    \(actions.map { "    " + _debugCaseOutput($0, abbreviated: true) }.joined(separator: "\n"))

    \(Self.toFixReceivedActions)
    """
  }

  /// The note of a test store that skipped received actions.
  static func skipped(_ actions: [Any]) -> String {
    """
    \(actions.count) received action\(actions.count == 1 ? " was" : "s were") skipped.

    \(actions.count == 1 ? Self.dump(actions[0]) : Self.dump(actions))
    """
  }

  /// The note of a test store that cancelled effects it was asked to skip.
  static func skippedEffects(_ origins: [Any]) -> String {
    """
    \(origins.count) in-flight effect\(origins.count == 1 ? " was" : "s were") cancelled, \
    originating from:

    \(origins.count == 1 ? Self.dump(origins[0]) : Self.dump(origins))
    """
  }

  /// A change to shared state that no assertion covered, reported when the test store ends.
  static func unassertedSharedChange(_ name: String, before: Any, after: Any) -> String {
    """
    Test store finished before asserting against changes to shared state.

    \(Self.diff(before, after))

    Invoke "TestStore.assert" at the end of this test to assert against changes to shared \
    state.
    """
  }

  /// "1 action" / "2 actions".
  static func count(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  /// " after 1.0 seconds", or nothing for a zero timeout.
  static func after(_ timeout: Duration) -> String {
    timeout > .zero ? " after \(timeout)" : ""
  }

  /// A dump of a value, indented.
  static func dump(_ value: Any, indent: Int = 0) -> String {
    let padding = String(repeating: " ", count: indent)
    return _dumpLines(value).map { padding + $0 }.joined(separator: "\n")
  }

  /// A line diff of two values, TCA style, or both values in full when their dumps are equal.
  ///
  /// ```
  ///       Counter.State(
  ///     −   count: 2,
  ///     +   count: 1,
  ///         isLoading: false
  ///       )
  ///
  /// (Expected: −, Actual: +)
  /// ```
  ///
  /// - Parameters:
  ///   - expected: The expected value (`−`).
  ///   - actual: The actual value (`+`).
  ///   - actualLabel: What the `+` side is called.
  ///   - expectedLabel: What the `−` side is called.
  ///   - indent: How far the diff is indented.
  static func diff(
    _ expected: Any, _ actual: Any, actualLabel: String = "Actual",
    expectedLabel: String = "Expected", indent: Int = 4
  ) -> String {
    // During an assertion, shared values on the actual side are read as they actually are.
    let expectedLines = _dumpLines(expected)
    let actualLines = _SharedTesting.actualSide { _dumpLines(actual) }
    guard let diff = _lineDiff(expectedLines, actualLines) else {
      return """
        \(expectedLabel):
        \(expectedLines.map { "  " + $0 }.joined(separator: "\n"))

        \(actualLabel):
        \(actualLines.map { "  " + $0 }.joined(separator: "\n"))
        """
    }
    let padding = String(repeating: " ", count: indent)
    // `_lineDiff` lines are a marker ("-", "+" or " "), a space, then the dumped line.
    let lines = diff.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let content = line.dropFirst(2)
      switch line.first {
      case "-": return padding + "− " + content
      case "+": return padding + "+ " + content
      default: return padding + "  " + content
      }
    }
    return lines.joined(separator: "\n") + "\n\n(\(expectedLabel): −, \(actualLabel): +)"
  }
}
