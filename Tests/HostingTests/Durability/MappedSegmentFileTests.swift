import Foundation
import Testing
import Wire

@testable import Hosting

/// A journal segment written through a shared mapping: records across window boundaries, the
/// zeros allocated ahead read as the segment's clean end, and cut when it is closed.
@Suite struct MappedSegmentFileTests {
  /// Frames `count` records of `size` payload bytes each, numbered in their first bytes.
  private func records(_ count: Int, size: Int) -> [[UInt8]] {
    (0..<count).map { index in
      var writer = ByteWriter()
      RecordFrame.append(to: &writer) { payload in
        payload.byte(RecordKind.session.rawValue)
        payload.varint(UInt64(index))
        payload.bytes.append(
          contentsOf: [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: size))
      }
      return writer.bytes
    }
  }

  @Test func recordsAcrossWindowsReadBackAndTheZerosAheadAreTheCleanEnd() throws {
    let directory = TemporaryDirectory()
    let path = directory.file(DataLayout.segmentName(after: 0))
    let file = try #require(
      try MappedSegmentFile.open(path), "this file system cannot allocate ahead")
    // 40 records of ~1 MiB: two windows and a half, several records split between windows.
    let written = self.records(40, size: (1 << 20) - 17)
    for record in written {
      #expect(record.withUnsafeBytes { file.append($0) } == nil)
    }
    let expectedEnd = Int64(DataLayout.segmentMagic.count + written.reduce(0) { $0 + $1.count })
    // While open, the file runs on with allocated zeros: read as the clean end.
    #expect(try FileSystem.status(path).size % Int64(MappedSegmentFile.windowSize) == 0)
    var read: [[UInt8]] = []
    let reader = try SegmentReader(path: path)
    let ending = try reader.forEachRecord { payload, _ in read.append(Array(payload)) }
    #expect(ending == .zeroFilled(offset: expectedEnd))
    #expect(read.count == written.count)
    #expect(read.map { $0.count } == written.map { $0.count - RecordFrame.headerSize })
    // Closed, the file ends with its last record.
    file.close()
    #expect(try FileSystem.status(path).size == expectedEnd)
    #expect(try SegmentReader(path: path).forEachRecord { _, _ in } == .clean(offset: expectedEnd))
  }

  @Test func aReopenedSegmentAppendsAfterItsLastRecord() throws {
    let directory = TemporaryDirectory()
    let path = directory.file(DataLayout.segmentName(after: 0))
    let first = self.records(3, size: 100)
    let second = self.records(2, size: 50)
    let file = try #require(try MappedSegmentFile.open(path))
    for record in first { _ = record.withUnsafeBytes { file.append($0) } }
    file.close()
    let again = try #require(try MappedSegmentFile.open(path))
    for record in second { _ = record.withUnsafeBytes { again.append($0) } }
    again.close()
    var count = 0
    let ending = try SegmentReader(path: path).forEachRecord { _, _ in count += 1 }
    #expect(count == 5)
    guard case .clean = ending else {
      Issue.record("unexpected \(ending)")
      return
    }
  }

  @Test func aHostKilledWhileWritingThroughAMappingRecoversAndCutsTheZeros() async throws {
    let directory = TemporaryDirectory()
    let data = directory.file("data")
    let host = try await DurableFixture.start(in: directory)
    let client = try WireClient.greeted(path: host.socketPath)
    for id in 1...5 {
      try DurableFixture.send(client, "counter", #"{"incrementButtonTapped":{}}"#, id: Int64(id))
    }
    // As a crash leaves it: copy the files while the host still has the segment mapped.
    let crashed = try DataFiles.copy(data)
    await host.shutdown()
    let segment = crashed.file(DataLayout.segmentName(after: 0))
    #expect(try FileSystem.status(segment).size % Int64(MappedSegmentFile.windowSize) == 0)
    let outcome = try DurableFixture.recover(crashed.path)
    #expect(outcome.revision == 5 && outcome.state.counter.count == 5)
    #expect(outcome.setAside == nil)
    let end = try SegmentReader(path: segment).forEachRecord { _, _ in }
    #expect(end == .clean(offset: try FileSystem.status(segment).size), "the zeros were cut")
  }
}
