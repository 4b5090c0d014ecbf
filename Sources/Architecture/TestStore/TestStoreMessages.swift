/// The texts of test-store failures, in TCA's words: a headline, then the details (a diff marked
/// `−` for expected and `+` for actual), then what to do about it.
enum _TestStoreMessages {
  static let stateMismatch = "A state change does not match expectation"
  static let unexpectedStateChange = "State was not expected to change, but a change occurred"

  static let sendToDismissedStore = """
    Can't send an action to a dismissed test store.

    The feature dismissed itself (with "@Dependency(\\.dismiss)") earlier in this test. Assert \
    "store.isDismissed" instead of sending more actions.
    """

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
    the test. …

    To fix, inspect any effects the reducer returns for this action and ensure that all of them \
    complete by the end of the test. There are a few reasons why an effect may not have \
    completed:

    • If using async/await in your effect, it may need a little bit of time to properly \
    finish. To fix you can simply perform "await store.finish()" at the end of your test.

    • If an effect uses a clock (via "debounce", or "clock.sleep" in a "run" effect), make sure \
    that you wait enough time for it to perform the effect. If you are using a "TestClock", \
    advance it so that the effects may complete.

    • If you are returning a long-living effect (timers, notifications, streams, etc.), then \
    make sure those effects are torn down by marking the effect ".cancellable" and returning a \
    corresponding cancellation effect ("Effect.cancel") from another action.

    • If you do not wish to assert on these effects, perform "await \
    store.skipInFlightEffects()", or consider using a non-exhaustive test store: \
    "store.exhaustivity = .off".
    """

  /// The advice when waiting timed out while effects are still running.
  static func effectsInFlight(timeoutWasExplicit: Bool) -> String {
    let timeoutMessage =
      timeoutWasExplicit
      ? #"try increasing the duration of this assertion's "timeout""#
      : #"configure this assertion with an explicit "timeout""#
    return """
      There are effects in-flight. If the effect that delivers this action uses a clock (via \
      "debounce", or "clock.sleep" in a "run" effect), make sure that you wait enough time for \
      it to perform the effect. If you are using a "TestClock", advance it so that the effects \
      may complete.

      If you are not yet using a clock, or can not use a clock, \(timeoutMessage).
      """
  }

  /// Actions received but not asserted, with TCA's advice.
  ///
  /// - Parameters:
  ///   - actions: The actions.
  ///   - headline: What went wrong, without the trailing ": …".
  static func unhandledActions(_ actions: [Any], headline: String) -> String {
    """
    \(headline): …

    Unhandled actions: \(Self.dump(actions))

    \(Self.toFixReceivedActions)
    """
  }

  /// The note of a non-exhaustive test store that skipped received actions.
  static func skipped(_ actions: [Any]) -> String {
    """
    \(Self.count(actions.count, "received action")) \(actions.count == 1 ? "was" : "were") \
    skipped: \(Self.dump(actions))
    """
  }

  /// A change to shared state that no assertion covered, reported when the test store ends.
  static func unassertedSharedChange(_ name: String, before: Any, after: Any) -> String {
    """
    Tracked changes to '\(name)' but failed to assert: …

    \(Self.diff(before, after, actualLabel: "After", expectedLabel: "Before"))

    To fix, assert these changes in the "send" or "receive" whose action made them, or with \
    "store.assert { … }" when an effect made them.
    """
  }

  /// "1 action" / "2 actions".
  static func count(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  /// " after 1.0 seconds", or nothing for a zero timeout.
  static func after(_ timeout: Duration) -> String {
    guard timeout > .zero else { return "" }
    let (seconds, attoseconds) = timeout.components
    let value = Double(seconds) + Double(attoseconds) / 1e18
    return " after \(value) seconds"
  }

  /// A multi-line dump of a value, indented.
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
  static func diff(
    _ expected: Any, _ actual: Any, actualLabel: String = "Actual",
    expectedLabel: String = "Expected"
  ) -> String {
    // During an assertion, shared values on the actual side are read as they actually are.
    let expectedLines = _dumpLines(expected)
    let actualLines = _SharedTesting.actualSide { _dumpLines(actual) }
    let padding = "  "
    guard let diff = _lineDiff(expectedLines, actualLines) else {
      return """
        \(expectedLabel):
        \(expectedLines.map { padding + $0 }.joined(separator: "\n"))

        \(actualLabel):
        \(actualLines.map { padding + $0 }.joined(separator: "\n"))
        """
    }
    // `_lineDiff` lines are a marker ("-", "+" or " "), a space, then the dumped line.
    let lines = diff.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let content = line.dropFirst(2)
      switch line.first {
      case "-": return "    − " + content
      case "+": return "    + " + content
      default: return "      " + content
      }
    }
    return lines.joined(separator: "\n") + "\n\n(\(expectedLabel): −, \(actualLabel): +)"
  }
}
