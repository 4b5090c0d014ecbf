import Foundation
import Testing
import Wire

@testable import Hosting

extension JournalEncoder {
  /// Appends the record of `reduction` with `action` as its JSON.
  mutating func append(_ reduction: Reduction<String>, action: JSON?, to writer: inout ByteWriter) {
    self.append(
      revision: reduction.revision, time: reduction.time, origin: reduction.origin,
      scope: reduction.scope, action: action, draws: reduction.draws, to: &writer)
  }
}

/// Journal records written and read back: every field, session records, time deltas, and how a
/// segment's reader reports its end (clean, cut short, damaged).
@Suite struct JournalFormatTests {
  private func reduction(
    _ revision: Int64, time: Int64, origin: ReductionOrigin, scope: String? = nil,
    draws: [Draw] = []
  ) -> Reduction<String> {
    Reduction(
      revision: revision, time: time, origin: origin, scope: scope, scopeAction: nil,
      action: "unused", draws: draws)
  }

  private let alice = ReductionOrigin.client(session: 3, client: "alice", pid: 4242, uid: 1000)
  private let anonymous = ReductionOrigin.client(session: 9, client: nil, pid: -1, uid: 0)
  private let id = UUID(uuidString: "5EED0000-0000-0000-0000-0000000000AB")!

  /// Writes records into a segment file and returns its path.
  private func segment(
    in directory: TemporaryDirectory, _ records: [(Reduction<String>, JSON?)]
  ) throws -> String {
    var writer = ByteWriter()
    writer.bytes.append(contentsOf: DataLayout.segmentMagic)
    var encoder = JournalEncoder()
    for (reduction, json) in records { encoder.append(reduction, action: json, to: &writer) }
    let path = directory.file(DataLayout.segmentName(after: 0))
    try DataFiles.write(writer.bytes, to: path)
    return path
  }

  private func readAll(_ directory: TemporaryDirectory) throws -> [JournalRecord] {
    var records: [JournalRecord] = []
    try JournalArchive(directory: directory.path).forEachRecord(after: 0) {
      records.append($0)
      return true
    }
    return records
  }

  @Test func recordsReadBackWithEveryField() throws {
    let directory = TemporaryDirectory()
    let action = try JSON(parsing: #"{"addTodoButtonTapped":{}}"#)
    let root = try JSON(parsing: #"{"counter":{"_0":{"timerTick":{}}}}"#)
    _ = try self.segment(
      in: directory,
      [
        (
          self.reduction(
            1, time: 1_764_000_000_123, origin: self.alice, scope: "todos",
            draws: [.uuid(self.id), .date(786_000_000.25), .random(.max)]), action
        ),
        (self.reduction(2, time: 1_764_000_000_120, origin: .effect), root),
        (self.reduction(3, time: 1_764_000_001_000, origin: .host), root),
        (self.reduction(4, time: 1_764_000_001_000, origin: self.alice, scope: "todos"), action),
        (self.reduction(5, time: 1_764_000_001_001, origin: self.anonymous, scope: "x/{y}"), nil),
      ])
    let records = try self.readAll(directory)
    #expect(
      records == [
        JournalRecord(
          revision: 1, time: 1_764_000_000_123, origin: self.alice, scope: "todos",
          action: action, draws: [.uuid(self.id), .date(786_000_000.25), .random(.max)]),
        // Times may go backwards (the wall clock was set back): deltas are signed.
        JournalRecord(
          revision: 2, time: 1_764_000_000_120, origin: .effect, scope: nil, action: root,
          draws: []),
        JournalRecord(
          revision: 3, time: 1_764_000_001_000, origin: .host, scope: nil, action: root,
          draws: []),
        JournalRecord(
          revision: 4, time: 1_764_000_001_000, origin: self.alice, scope: "todos",
          action: action, draws: []),
        JournalRecord(
          revision: 5, time: 1_764_000_001_001, origin: self.anonymous, scope: "x/{y}",
          action: nil, draws: []),
      ])
  }

  @Test func aClientIsDescribedOncePerSegment() throws {
    var writer = ByteWriter()
    var encoder = JournalEncoder()
    let json = try JSON(parsing: #"{"incrementButtonTapped":{}}"#)
    for revision in 1...3 {
      encoder.append(
        self.reduction(Int64(revision), time: 5, origin: self.alice, scope: "counter"),
        action: json, to: &writer)
    }
    let sizes = try self.recordSizes(writer.bytes)
    // One session record, then three action records of the same size.
    #expect(sizes.count == 4)
    #expect(Set(sizes.dropFirst()).count == 1)
    // A counter increment costs this many bytes on disk (frame included).
    #expect(sizes[1] < 60, "an increment record takes \(sizes[1]) bytes")
  }

  private func recordSizes(_ bytes: [UInt8]) throws -> [Int] {
    var sizes: [Int] = []
    var offset = 0
    try bytes.withUnsafeBytes { raw in
      while offset < raw.count {
        guard case .record(_, let next) = RecordFrame.scan(raw, at: offset) else {
          throw HarnessError("no record at \(offset)")
        }
        sizes.append(next - offset)
        offset = next
      }
    }
    return sizes
  }

  @Test func aRecordLargerThanTheReadBufferIsReadWhole() throws {
    let directory = TemporaryDirectory()
    let large = JSON.string(String(repeating: "x", count: SegmentReader.chunkSize + 12_345))
    _ = try self.segment(
      in: directory,
      [
        (self.reduction(1, time: 1, origin: .host), .null),
        (self.reduction(2, time: 2, origin: .effect), large),
        (self.reduction(3, time: 3, origin: .effect), .int(3)),
      ])
    let records = try self.readAll(directory)
    #expect(records.map(\.revision) == [1, 2, 3])
    #expect(records[1].action == large)
  }

  @Test func theReaderTellsACleanEndACutAndDamage() throws {
    let directory = TemporaryDirectory()
    let path = try self.segment(
      in: directory,
      [
        (self.reduction(1, time: 1, origin: .host), .int(1)),
        (self.reduction(2, time: 2, origin: .host), .int(2)),
      ])
    let bytes = try DataFiles.read(path)
    let reader = try SegmentReader(path: path)
    var offsets: [Int64] = []
    let ending = try reader.forEachRecord { _, offset in offsets.append(offset) }
    #expect(ending == .clean(offset: Int64(bytes.count)))
    #expect(offsets.first == Int64(DataLayout.segmentMagic.count))

    try DataFiles.write(Array(bytes.dropLast(3)), to: path)
    #expect(
      try SegmentReader(path: path).forEachRecord { _, _ in } == .incomplete(offset: offsets[1]))

    var flipped = bytes
    flipped[Int(offsets[1]) + 9] ^= 0x10
    try DataFiles.write(flipped, to: path)
    #expect(try SegmentReader(path: path).forEachRecord { _, _ in } == .invalid(offset: offsets[1]))

    try DataFiles.write(Array(bytes.prefix(5)), to: path)
    #expect(try SegmentReader(path: path).forEachRecord { _, _ in } == .incomplete(offset: 0))

    try DataFiles.write(Array("not a journal".utf8), to: path)
    #expect(throws: SegmentReader.NotASegment.self) {
      try SegmentReader(path: path).forEachRecord { _, _ in }
    }
  }

  @Test func aRecordOutOfSequenceStopsTheCursor() throws {
    let directory = TemporaryDirectory()
    _ = try self.segment(
      in: directory,
      [
        (self.reduction(1, time: 1, origin: .host), .int(1)),
        (self.reduction(3, time: 2, origin: .host), .int(3)),
      ])
    let cursor = JournalCursor(
      directory: directory.path, segments: [(0, DataLayout.segmentName(after: 0))])
    #expect(try cursor.next()?.revision == 1)
    do {
      _ = try cursor.next()
      Issue.record("a gap in revisions was read")
    } catch {
      guard case .outOfSequence(_, _, let expected, let found) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(expected == 2 && found == 3)
    }
  }
}
