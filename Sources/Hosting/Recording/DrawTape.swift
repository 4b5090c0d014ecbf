import Architecture

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The values drawn from non-deterministic dependencies during one reduce: recorded while the
/// host reduces an action live, given back in order when the action is reduced again.
///
/// The tape is found through a thread-local pointer (``ThreadLocalTape``) that is set only for
/// the duration of one synchronous reduce, so the dependency wrappers
/// (``RecordingDependencies``) see it exactly when a reducer draws, and never when an effect —
/// which runs in its own task — draws: effects are not re-run on replay, so their draws need no
/// record.
///
/// Its properties are `@exclusivity(unchecked)`: a tape is used by one thread at a time (the
/// host's loop, or one replay), by these synchronous methods, which never hold an `inout`
/// access across a call that could reach the tape again (the live generators they call do not
/// know it), so the dynamic exclusivity check, paid on every reduce, could never fire.
@usableFromInline
final class DrawTape {
  enum Mode {
    /// Appends what the live dependencies return.
    case recording
    /// Returns the recorded values in order.
    case replaying
  }

  private(set) var mode: Mode
  @usableFromInline @exclusivity(unchecked) private(set) var draws: [Draw]
  @exclusivity(unchecked) private var cursor = 0
  /// Set when a replayed reduce asked for a value the tape does not hold (a reducer that is not
  /// deterministic given its recorded draws); the replay is then not exact.
  @exclusivity(unchecked) private(set) var divergence: String?

  /// A tape that records.
  init() {
    self.mode = .recording
    self.draws = []
  }

  /// A tape that gives back `draws`.
  init(replaying draws: [Draw]) {
    self.mode = .replaying
    self.draws = draws
  }

  /// Empties a recording tape for the next reduce, keeping its capacity.
  @usableFromInline
  func reset() {
    // Most reduces draw nothing: then there is nothing to empty.
    if !self.draws.isEmpty { self.draws.removeAll(keepingCapacity: true) }
    self.cursor = 0
    if self.divergence != nil { self.divergence = nil }
  }

  /// Whether a replaying tape was used up exactly.
  var isExhausted: Bool { self.cursor == self.draws.count }

  /// How many recorded values a replaying tape has not given back.
  var remaining: Int { self.draws.count - self.cursor }

  func uuid(_ live: () -> UUID) -> UUID {
    switch self.mode {
    case .recording:
      let value = live()
      self.draws.append(.uuid(value))
      return value
    case .replaying:
      if self.cursor < self.draws.count, case .uuid(let value) = self.draws[self.cursor] {
        self.cursor += 1
        return value
      }
      self.diverge("a UUID")
      return live()
    }
  }

  func date(_ live: () -> Date) -> Date {
    switch self.mode {
    case .recording:
      let value = live()
      self.draws.append(.date(value.timeIntervalSinceReferenceDate))
      return value
    case .replaying:
      if self.cursor < self.draws.count, case .date(let seconds) = self.draws[self.cursor] {
        self.cursor += 1
        return Date(timeIntervalSinceReferenceDate: seconds)
      }
      self.diverge("a date")
      return live()
    }
  }

  func random(_ live: () -> UInt64) -> UInt64 {
    switch self.mode {
    case .recording:
      let value = live()
      self.draws.append(.random(value))
      return value
    case .replaying:
      if self.cursor < self.draws.count, case .random(let value) = self.draws[self.cursor] {
        self.cursor += 1
        return value
      }
      self.diverge("random bits")
      return live()
    }
  }

  private func diverge(_ what: String) {
    guard self.divergence == nil else { return }
    let recorded =
      self.cursor < self.draws.count ? "\(self.draws[self.cursor])" : "no more values"
    self.divergence =
      "the reducer drew \(what) where the record holds \(recorded) (draw \(self.cursor + 1))"
  }
}

/// The wrappers a host puts around the non-deterministic dependencies of its root store, so
/// that each value drawn inside a reduce is recorded on (or replayed from) the current
/// ``DrawTape``.
@usableFromInline
enum RecordingDependencies {
  /// Wraps `uuid`, `date` and `withRandomNumberGenerator` in `values`.
  @usableFromInline
  static func install(into values: inout DependencyValues) {
    let uuid = values.uuid
    let date = values.date
    let random = values.withRandomNumberGenerator
    values.uuid = UUIDGenerator {
      guard let tape = ThreadLocalTape.current else { return uuid() }
      return tape.uuid { uuid() }
    }
    values.date = DateGenerator {
      guard let tape = ThreadLocalTape.current else { return date() }
      return tape.date { date() }
    }
    values.withRandomNumberGenerator = WithRandomNumberGenerator(next: {
      guard let tape = ThreadLocalTape.current else { return random { $0.next() } }
      return tape.random { random { $0.next() } }
    })
  }
}
