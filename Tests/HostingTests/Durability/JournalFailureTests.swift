import Examples
import Foundation
import Synchronization
import Testing
import Wire

@testable import Hosting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A journal segment whose writes (half of each, then ENOSPC) or flushes (EIO) fail while a
/// test says so: a full disk or a failing device, injected.
private final class FaultyWriter: JournalWriter, @unchecked Sendable {
  // `@unchecked Sendable`: `base` is Sendable, `faults` is atomic.
  let base: SegmentFile
  let faults: Faults

  init(base: SegmentFile, faults: Faults) {
    self.base = base
    self.faults = faults
  }

  var path: String { self.base.path }
  var appendsInMemory: Bool { self.base.appendsInMemory }

  func append(_ bytes: UnsafeRawBufferPointer) -> (written: Int, error: FileError)? {
    guard self.faults.writes.load(ordering: .acquiring) else { return self.base.append(bytes) }
    let half = bytes.count / 2
    if let failure = self.base.append(UnsafeRawBufferPointer(rebasing: bytes[..<half])) {
      return failure
    }
    self.faults.failures.add(1, ordering: .releasing)
    return (half, FileError(operation: "write", path: self.path, errno: ENOSPC))
  }

  func synchronize() throws(FileError) {
    if self.faults.flushes.load(ordering: .acquiring) {
      self.faults.failures.add(1, ordering: .releasing)
      throw FileError(operation: "fdatasync", path: self.path, errno: EIO)
    }
    try self.base.synchronize()
  }

  func close() { self.base.close() }
}

/// The switches of a ``FaultyWriter``, and how many failures it produced.
private final class Faults: Sendable {
  let writes = Atomic<Bool>(false)
  let flushes = Atomic<Bool>(false)
  let failures = Atomic<Int>(0)

  func set(_ fault: JournalFailureTests.Fault, _ on: Bool) {
    switch fault {
    case .write: self.writes.store(on, ordering: .releasing)
    case .flush: self.flushes.store(on, ordering: .releasing)
    }
  }
}

/// A journal that cannot be written: sends are refused with `unavailable` before they are
/// reduced, acks wait, reads and subscriptions go on, and everything resumes once it can.
@Suite(.serialized)
struct JournalFailureTests {
  enum Fault: CustomStringConvertible {
    case write, flush
    var description: String { self == .write ? "write" : "flush" }
  }

  /// Whether the host's journal accepts actions, asked on its loop.
  private static func isAccepting(_ host: DurableFixture.Host) async throws -> Bool {
    try await host.loop.submit {
      host.core.assumeIsolated(on: host.loop) { core in
        core.durability?.journal.isAcceptingActions ?? true
      }
    }
  }

  @Test(arguments: [(FsyncPolicy.everySecond, Fault.write), (.always, .write), (.always, .flush)])
  func sendsAreRefusedAndAcksHeldUntilTheJournalIsWrittenAgain(
    policy: FsyncPolicy, fault: Fault
  ) async throws {
    let directory = TemporaryDirectory()
    let faults = Faults()
    var persistence = Persistence.directory(directory.file("data"), fsync: policy)
    persistence.makeWriter = { path throws(FileError) in
      FaultyWriter(base: try SegmentFile(appendingTo: path), faults: faults)
    }
    let host = try await DurableFixture.start(in: directory, persistence: persistence)
    let a = try WireClient.greeted(path: host.socketPath)
    let b = try WireClient.greeted(path: host.socketPath)
    let increment = #"{"incrementButtonTapped":{}}"#
    #expect(try DurableFixture.send(a, "counter", increment, id: 1) == 1)

    faults.set(fault, true)
    try a.send(#"{"type":"send","id":2,"scope":"counter","action":\#(increment)}"#)
    try await waitUntil("the journal failed") { faults.failures.load(ordering: .acquiring) > 0 }
    // The failure reaches the journal on the loop (a flush fails on the background queue).
    while try await Self.isAccepting(host) { try await Task.sleep(for: .milliseconds(5)) }

    // A new send is refused before it is reduced…
    let refused = try b.request(
      #"{"type":"send","id":7,"scope":"counter","action":\#(increment)}"#)
    #expect(refused["type"] == .string("error"), "\(refused.compactString)")
    #expect(refused["code"] == .string("unavailable"))
    #expect(refused["id"]?.int == 7)
    // …reads and subscriptions go on (the state has A's second action, reduced before the
    // failure, but not B's)…
    let state = try b.request(#"{"type":"get","id":8,"scope":"counter"}"#)
    #expect(state["state"]?["count"]?.int == 2, "\(state.compactString)")
    let subscribed = try b.request(#"{"type":"subscribe","id":9,"scope":"counter"}"#)
    #expect(subscribed["type"] == .string("subscribed"))
    // …and A's ack has not left: had it been released, it would have been sent before B's
    // requests were even read.
    #expect(throws: HarnessError.self) { _ = try a.next(timeout: 0.001) }

    faults.set(fault, false)
    // The host retries every second; then A's ack leaves and sends are accepted again.
    let ack = try a.next(timeout: 20)
    #expect(ack["type"] == .string("ack") && ack["id"]?.int == 2, "\(ack.compactString)")
    #expect(ack["rev"]?.int == 2)
    let c = try WireClient.greeted(path: host.socketPath)
    #expect(try DurableFixture.send(c, "counter", increment, id: 10) == 3)
    await host.shutdown()

    // Nothing acknowledged was lost, nothing refused was kept, and the record half-written
    // at the failure was completed, not duplicated: replayed from the journal alone (without
    // the final snapshot), the state is the acknowledged one.
    let data = directory.file("data/")
    try FileManager.default.removeItem(atPath: data + DataLayout.snapshotName(at: 3))
    try FileManager.default.removeItem(atPath: data + DataLayout.segmentName(after: 3))
    let outcome = try DurableFixture.recover(directory.file("data"))
    #expect(outcome.revision == 3)
    #expect(outcome.state.counter.count == 3)
    #expect(outcome.setAside == nil)
  }
}
