/// The fuzzer's command line.
struct FuzzOptions {
  var socketPath = ""
  var seconds = 60.0
  var seed = UInt64.random(in: 0...UInt64.max)
  var connections = 8
  var hostProcessID: Int32?
  /// How far above its resident memory before the run the host may stay once the load is
  /// over and it has had time to give memory back.
  var memorySlackBytes = 24 << 20
  /// Seconds to wait for the host's memory to come back after the load.
  var memorySettleSeconds = 60.0

  static let usage = """
    USAGE: ProtocolFuzz --socket <path> [--seconds <n>] [--seed <n>] [--connections <n>]
                        [--host-pid <pid>] [--memory-slack <MiB>]

    Drives a running storehost with many adversarial clients at once: random sequences of
    every request type with valid and invalid members, pipelined; subscriptions and tails
    made and dropped; reading paused so the host's side fills; abrupt closes, torn and
    oversized frames. Then checks that the host still answers (hello, get, send → ack,
    ping) and, with --host-pid, that it is alive and its memory came back near where it
    started. Exits 1 with the seed and the last requests when something is wrong.

    OPTIONS:
      --socket <path>        The host's socket.
      --seconds <n>          How long to run. (default: 60)
      --seed <n>             The random seed; the same seed sends the same requests (their
                             timing, and so the host's interleaving, still varies).
                             (default: random, printed)
      --connections <n>      Clients at once. (default: 8)
      --host-pid <pid>       The host's process id: watch it for death and memory.
      --memory-slack <MiB>   How far above its starting RSS the host may settle. (default: 24)
      -h, --help             Show help information.
    """

  /// Parses `arguments` (without the program name).
  static func parse(_ arguments: [String]) throws(UsageError) -> FuzzOptions {
    var options = FuzzOptions()
    var iterator = arguments.makeIterator()
    func value(_ name: String) throws(UsageError) -> String {
      guard let next = iterator.next() else { throw UsageError("missing value for '\(name)'") }
      return next
    }
    func number<T: LosslessStringConvertible>(_ name: String, _ type: T.Type) throws(UsageError) -> T {
      let text = try value(name)
      guard let parsed = T(text) else { throw UsageError("the value '\(text)' is invalid for '\(name)'") }
      return parsed
    }
    while let argument = iterator.next() {
      switch argument {
      case "--socket": options.socketPath = try value(argument)
      case "--seconds": options.seconds = try number(argument, Double.self)
      case "--seed": options.seed = try number(argument, UInt64.self)
      case "--connections": options.connections = max(1, try number(argument, Int.self))
      case "--host-pid": options.hostProcessID = try number(argument, Int32.self)
      case "--memory-slack": options.memorySlackBytes = try number(argument, Int.self) << 20
      case "-h", "--help": throw UsageError(nil)
      default: throw UsageError("unexpected argument '\(argument)'")
      }
    }
    guard !options.socketPath.isEmpty else { throw UsageError("missing '--socket <path>'") }
    return options
  }
}

/// A command-line mistake (`message`), or a request for help (`nil`).
struct UsageError: Error {
  let message: String?
  init(_ message: String?) { self.message = message }
}
