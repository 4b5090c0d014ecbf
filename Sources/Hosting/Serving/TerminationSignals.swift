import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP, caught instead of ending the process, so that a host can stop
/// cleanly (see ``StoreHost/runUntilTerminated(_:)``).
///
/// SIGHUP stops the host as SIGTERM does: it says the terminal went away (a host started from
/// an ssh session that ends), and a host has no configuration file to reload — so it is not
/// the "reload" some daemons make of it, and the unit files declare no `ExecReload=`.
///
/// ```swift
/// let signals = TerminationSignals()          // from here on, Ctrl-C no longer kills
/// let host = try await StoreHost.start(…)     // a signal during a long recovery waits
/// await host.runUntilTerminated(signals)      // …and is answered here
/// ```
///
/// Create it before starting the host when a signal that arrives while the host is still
/// recovering must not kill the process. The signals stay caught while the value lives; once
/// it is gone their default action (ending the process) is back.
public final class TerminationSignals: Sendable {
  /// The signals caught: SIGINT (Ctrl-C), SIGTERM (`kill`, systemd's stop) and SIGHUP (the
  /// terminal hung up).
  public static let caught: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// The signal's name, as log lines write it: `SIGTERM`.
  public static func name(of signal: Int32) -> String {
    switch signal {
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    case SIGHUP: "SIGHUP"
    default: "signal \(signal)"
    }
  }

  // Dispatch sources are thread-safe: created, resumed and cancelled once each, from here.
  nonisolated(unsafe) private let sources: [any DispatchSourceSignal]
  private let received = SignalBox()

  /// The signal received and the tasks waiting for one, shared with the dispatch handlers.
  private final class SignalBox: Sendable {
    let state = Mutex<Received>(Received())

    func withLock<R>(_ body: (inout sending Received) -> sending R) -> R {
      self.state.withLock(body)
    }
  }

  private struct Received {
    var signal: Int32?
    var nextWaiter = 0
    var waiters: [Int: CheckedContinuation<Int32?, Never>] = [:]
  }

  /// Starts catching SIGINT, SIGTERM and SIGHUP.
  public init() {
    var sources: [any DispatchSourceSignal] = []
    let received = self.received
    for number in Self.caught {
      // Ignored by the process, so that only the dispatch source sees it.
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        let waiters = received.withLock { state -> [CheckedContinuation<Int32?, Never>] in
          if state.signal == nil { state.signal = number }
          defer { state.waiters.removeAll() }
          return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: number) }
      }
      source.resume()
      sources.append(source)
    }
    self.sources = sources
  }

  deinit {
    for source in self.sources { source.cancel() }
    for number in Self.caught { signal(number, SIG_DFL) }
  }

  /// Suspends until SIGINT, SIGTERM or SIGHUP arrives (at once if one already has), and returns it;
  /// `nil` when the task is cancelled first.
  public func next() async -> Int32? {
    let id = self.received.withLock { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let answer = self.received.withLock { state -> Int32?? in
          if let signal = state.signal { return .some(signal) }
          if Task.isCancelled { return .some(nil) }
          state.waiters[id] = continuation
          return nil
        }
        if let answer { continuation.resume(returning: answer) }
      }
    } onCancel: {
      let waiter = self.received.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.resume(returning: nil)
    }
  }
}

extension StoreHost {
  /// Serves until SIGINT (Ctrl-C), SIGTERM or SIGHUP, then stops as `storehost` does: says `bye` to
  /// every client, writes a final snapshot (a durable host), removes the socket file and
  /// returns — after which the program ends with status 0. A ``shutdown(reason:)`` from
  /// elsewhere ends it too.
  ///
  /// ```swift
  /// let host = try await StoreHost.start(…)
  /// await host.runUntilTerminated()
  /// ```
  ///
  /// - Parameter signals: Signals caught since before the host started (see
  ///   ``TerminationSignals``); by default, caught from this call on.
  public func runUntilTerminated(_ signals: TerminationSignals = TerminationSignals()) async {
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        guard let number = await signals.next() else { return }
        self.core.log(.info, "\(TerminationSignals.name(of: number)) received: stopping")
        await self.shutdown(reason: "shutdown")
      }
      group.addTask { await self.waitUntilStopped() }
      // Whichever ends first: a signal stops the host; a host stopped otherwise needs none.
      // The group then waits for a shutdown under way to finish. Neither task calls into the
      // core once the host may have stopped (its loop is gone then): the wait is the core's
      // StopLatch, and a second shutdown returns at once.
      await group.next()
      group.cancelAll()
    }
    withExtendedLifetime(signals) {}
  }
}
