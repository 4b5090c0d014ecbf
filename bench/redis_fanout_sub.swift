// The subscriber side of bench/redis_fanout.py, compiled by compare.sh (`swiftc -O`), so that
// Redis's fan-out is read as fast as storeclient bench reads ours (a Python reader of 100
// sockets at 1 kHz each saturates a core here and would inflate Redis's latencies).
//
//   redis_fanout_sub SOCKET K CHANNEL
//
// Opens K connections, SUBSCRIBEs each to CHANNEL, prints "ready", then stamps every message
// (CLOCK_MONOTONIC, the publisher's clock too) as it is read, until each connection got the
// payload "stop"; prints {"deliveries":…, "p50_us":…, "p99_us":…, "max_us":…}. Standard
// library and Glibc only.
import Glibc

func now() -> Int64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

func die(_ message: String) -> Never {
  fputs("redis_fanout_sub: \(message)\n", stderr)
  exit(1)
}

let args = CommandLine.arguments
guard args.count == 4, let count = Int(args[2]) else { die("usage: redis_fanout_sub SOCKET K CHANNEL") }
let path = args[1]
let channel = Array(args[3].utf8)

func command(_ parts: [[UInt8]]) -> [UInt8] {
  var out = Array("*\(parts.count)\r\n".utf8)
  for part in parts {
    out += Array("$\(part.count)\r\n".utf8) + part + Array("\r\n".utf8)
  }
  return out
}

func connectUnix(_ path: String) -> Int32 {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { die("socket failed") }
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  let bytes = Array(path.utf8)
  withUnsafeMutableBytes(of: &address.sun_path) { raw in
    for (i, b) in bytes.enumerated() where i < raw.count - 1 { raw[i] = b }
  }
  let result = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
  guard result == 0 else { die("connect \(path) failed: errno \(errno)") }
  return fd
}

let subscribe = command([Array("SUBSCRIBE".utf8), channel])
var fds: [Int32] = []
for _ in 0..<count {
  let fd = connectUnix(path)
  _ = subscribe.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  fds.append(fd)
}

/// Parses one RESP array of bulk strings/integers at `start`; returns its elements and the end.
func parseArray(_ buffer: [UInt8], _ start: Int) -> (elements: [ArraySlice<UInt8>], end: Int)? {
  var index = start
  func line() -> ArraySlice<UInt8>? {
    var i = index
    while i + 1 < buffer.count {
      if buffer[i] == 13 && buffer[i + 1] == 10 {
        let result = buffer[index..<i]
        index = i + 2
        return result
      }
      i += 1
    }
    return nil
  }
  guard let head = line(), head.first == UInt8(ascii: "*"), let n = Int(String(decoding: head.dropFirst(), as: UTF8.self)) else { return nil }
  var elements: [ArraySlice<UInt8>] = []
  for _ in 0..<n {
    guard let header = line() else { return nil }
    if header.first == UInt8(ascii: ":") {
      elements.append(header.dropFirst())
      continue
    }
    guard header.first == UInt8(ascii: "$"), let length = Int(String(decoding: header.dropFirst(), as: UTF8.self)),
      index + length + 2 <= buffer.count
    else { return nil }
    elements.append(buffer[index..<index + length])
    index += length + 2
  }
  return (elements, index)
}

var buffers = Array(repeating: [UInt8](), count: count)
var pending = [UInt8](repeating: 0, count: 1 << 16)
// Wait for each subscription's confirmation.
for (i, fd) in fds.enumerated() {
  while parseArray(buffers[i], 0) == nil {
    let n = read(fd, &pending, pending.count)
    guard n > 0 else { die("read failed while subscribing") }
    buffers[i] += pending[0..<n]
  }
  let (_, end) = parseArray(buffers[i], 0)!
  buffers[i].removeFirst(end)
  _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
}
print("ready")
fflush(stdout)

var latencies: [Int64] = []
latencies.reserveCapacity(1 << 20)
var open = count
var pollSet = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
let messageWord = Array("message".utf8)
while open > 0 {
  let ready = poll(&pollSet, nfds_t(pollSet.count), 10_000)
  guard ready > 0 else { die("no message for 10 s") }
  for i in pollSet.indices where pollSet[i].revents != 0 {
    let n = read(pollSet[i].fd, &pending, pending.count)
    let stamp = now()
    guard n > 0 else {
      pollSet[i].fd = -1
      open -= 1
      continue
    }
    buffers[i] += pending[0..<n]
    var start = 0
    while let (elements, end) = parseArray(buffers[i], start) {
      start = end
      guard elements.count == 3, Array(elements[0]) == messageWord else { continue }
      let payload = String(decoding: elements[2], as: UTF8.self)
      if payload == "stop" {
        pollSet[i].fd = -1
        open -= 1
      } else if let sent = Int64(payload) {
        latencies.append(stamp - sent)
      }
    }
    if start > 0 { buffers[i].removeFirst(start) }
  }
}
latencies.sort()
func percentile(_ p: Double) -> String {
  guard !latencies.isEmpty else { return "null" }
  let index = min(latencies.count - 1, max(0, Int((p / 100 * Double(latencies.count)).rounded(.up)) - 1))
  return String(Double(latencies[index] / 100) / 10)
}
print("{\"deliveries\":\(latencies.count),\"p50_us\":\(percentile(50)),\"p99_us\":\(percentile(99)),\"max_us\":\(latencies.isEmpty ? "null" : String(Double(latencies.last! / 100) / 10))}")
