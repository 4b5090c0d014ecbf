// The daemon's only platform-specific code: stderr and signal handling.
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Output helpers.
enum Terminal {
  /// Writes to stderr in one `write(2)`.
  static func writeError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
  }
}

/// SIGTERM and SIGINT, delivered to a handler on a dispatch queue instead of killing the process.
final class Signals {
  private let sources: [any DispatchSourceSignal]

  private init(sources: [any DispatchSourceSignal]) { self.sources = sources }

  /// Routes SIGTERM and SIGINT to `handler` (called once per signal received).
  static func onTermination(_ handler: @escaping @Sendable () -> Void) -> Signals {
    let sources = [SIGTERM, SIGINT].map { number -> any DispatchSourceSignal in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler(handler: handler)
      source.resume()
      return source
    }
    return Signals(sources: sources)
  }
}
