/// How long to wait before each reconnection attempt: exponential growth from ``initial`` by
/// ``multiplier``, capped at ``maximum``, with up to ``jitter`` of each delay removed at
/// random so that many clients of a restarted host do not reconnect in lockstep.
///
/// ```swift
/// let backoff = Backoff(initial: .milliseconds(100), multiplier: 2, maximum: .seconds(5))
/// backoff.delay(forAttempt: 1)   // 0.1 s, then 0.2, 0.4, 0.8, 1.6, 3.2, 5, 5, …
/// ```
public struct Backoff: Sendable, Hashable {
  /// The delay before the first attempt.
  public var initial: Duration
  /// The factor between consecutive delays (at least 1).
  public var multiplier: Double
  /// The largest delay.
  public var maximum: Duration
  /// The fraction of each delay (0…1) that may be removed at random.
  public var jitter: Double

  /// The schedule `RemoteStore` uses by default: 50 ms, doubling, capped at 2 s, 20 % jitter.
  public static let `default` = Backoff(
    initial: .milliseconds(50), multiplier: 2, maximum: .seconds(2), jitter: 0.2)

  /// Describes a schedule.
  ///
  /// - Parameters:
  ///   - initial: The delay before the first attempt.
  ///   - multiplier: The growth factor (values below 1 count as 1).
  ///   - maximum: The cap.
  ///   - jitter: The fraction of each delay that may be removed at random (clamped to 0…1).
  public init(initial: Duration, multiplier: Double = 2, maximum: Duration, jitter: Double = 0) {
    self.initial = initial
    self.multiplier = max(1, multiplier)
    self.maximum = maximum
    self.jitter = min(1, max(0, jitter))
  }

  /// The delay before attempt `attempt` (1-based), without jitter.
  ///
  /// - Parameter attempt: The attempt number; values below 1 count as 1.
  /// - Returns: `min(initial × multiplier^(attempt − 1), maximum)`.
  public func delay(forAttempt attempt: Int) -> Duration {
    let cap = Self.seconds(self.maximum)
    var seconds = Self.seconds(self.initial)
    var step = 1
    while step < attempt && seconds < cap {
      seconds *= self.multiplier
      step += 1
    }
    return seconds >= cap ? self.maximum : .nanoseconds(Int64((seconds * 1e9).rounded()))
  }

  /// The delay before attempt `attempt`, with jitter drawn from `generator`.
  ///
  /// - Parameters:
  ///   - attempt: The attempt number (1-based).
  ///   - generator: The source of randomness.
  /// - Returns: A delay between `(1 − jitter) ×` and `1 ×` ``delay(forAttempt:)``.
  public func delay(
    forAttempt attempt: Int, using generator: inout some RandomNumberGenerator
  ) -> Duration {
    let full = self.delay(forAttempt: attempt)
    guard self.jitter > 0 else { return full }
    let factor = 1 - Double.random(in: 0...self.jitter, using: &generator)
    return .nanoseconds(Int64((Self.seconds(full) * factor * 1e9).rounded()))
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) * 1e-18
  }
}
