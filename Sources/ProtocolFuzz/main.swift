import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// A stateful protocol fuzzer for storehost: see `FuzzOptions.usage`.
signal(SIGPIPE, SIG_IGN)

let options: FuzzOptions
do {
  options = try FuzzOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  if let message = error.message {
    FileHandle.standardError.write(Data("Error: \(message)\n\(FuzzOptions.usage)\n".utf8))
    exit(64)
  }
  print(FuzzOptions.usage)
  exit(0)
}

func report(_ text: String) {
  FileHandle.standardError.write(Data("fuzz: \(text)\n".utf8))
}

func megabytes(_ bytes: Int) -> String {
  String(format: "%.1f MiB", Double(bytes) / 1_048_576)
}

let host = HostWatch(processID: options.hostProcessID)
report("seed \(options.seed), \(options.connections) connections, \(options.seconds) s (replay: --seed \(options.seed))")
do {
  try HealthCheck.run(socketPath: options.socketPath, host: host)
  let before = host.residentBytes()
  var run = FuzzRun(options: options)
  try run.run(host: host)
  report("\(run.connectionsMade) connections, \(run.requestsSent) requests sent, \(run.framesReceived) frames received")
  try HealthCheck.run(socketPath: options.socketPath, host: host)
  report("the host still answers: hello, get, send → ack, ping")
  if let before {
    // The host gives freed memory back every few seconds: wait for it, as long as it takes
    // within the bound, then judge.
    let limit = before + options.memorySlackBytes
    let start = ContinuousClock.now
    var after = host.residentBytes() ?? 0
    while after > limit && ContinuousClock.now - start < .seconds(options.memorySettleSeconds) {
      Thread.sleep(forTimeInterval: 0.5)
      after = host.residentBytes() ?? 0
    }
    report("host RSS \(megabytes(before)) before, \(megabytes(after)) after (allowed: \(megabytes(limit)))")
    if after > limit {
      throw FuzzFailure.memory(
        "the host's memory did not come back: \(megabytes(after)) after the load, against \(megabytes(before)) before (slack \(megabytes(options.memorySlackBytes)))")
    }
  }
} catch {
  report("FAILED (seed \(options.seed)): \(error)")
  exit(1)
}
