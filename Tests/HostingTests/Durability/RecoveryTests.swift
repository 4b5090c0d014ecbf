import Examples
import Foundation
import Testing
import Wire

@testable import Hosting

/// Recovery from real files: exact replay of journaled actions (ids drawn, host and client
/// actions), a torn tail cut at every byte of the last record, flipped bits, damaged and
/// undecodable snapshots, missing files.
@Suite(.serialized)
struct RecoveryTests {
  /// A data directory as a crash leaves it: snapshot 0 and a journal of every action since,
  /// with the state's JSON after each revision.
  private func crashedDirectory() async throws -> (TemporaryDirectory, [Int64: String]) {
    let directory = TemporaryDirectory()
    let host = try await DurableFixture.start(in: directory)
    var states: [Int64: String] = [0: try DurableFixture.json(await host.state)]
    let client = try WireClient.greeted(path: host.socketPath)
    var id: Int64 = 0
    func send(_ scope: String, _ action: String) async throws {
      id += 1
      let revision = try DurableFixture.send(client, scope, action, id: id)
      states[revision] = try DurableFixture.json(await host.state)
    }
    try await send("counter", #"{"incrementButtonTapped":{}}"#)
    try await send("todos", #"{"addTodoButtonTapped":{}}"#)
    try await send("todos", #"{"addTodoButtonTapped":{}}"#)
    let first = try #require(await host.state.todos.todos.first?.id)
    try await send("todos/\(first.uuidString)", #"{"toggleCompleted":{}}"#)
    await host.send(.counter(.decrementButtonTapped))
    states[host.revision] = try DurableFixture.json(await host.state)
    try await send("counter", #"{"incrementButtonTapped":{}}"#)
    await host.shutdown()
    // Undo the clean shutdown's final snapshot (and the empty segment made for after it).
    let data = directory.file("data")
    let last = try #require(states.keys.max())
    try FileManager.default.removeItem(atPath: data + "/" + DataLayout.snapshotName(at: last))
    try FileManager.default.removeItem(atPath: data + "/" + DataLayout.segmentName(after: last))
    #expect(DataFiles.segments(in: data) == [DataLayout.segmentName(after: 0)])
    return (directory, states)
  }

  /// The offsets of the records of a segment, and its length.
  private func recordOffsets(_ path: String) throws -> (offsets: [Int64], end: Int64) {
    var offsets: [Int64] = []
    let ending = try SegmentReader(path: path).forEachRecord { _, offset in offsets.append(offset) }
    guard case .clean(let end) = ending else { throw HarnessError("segment not clean: \(ending)") }
    return (offsets, end)
  }

  @Test func replaysTheJournalToExactlyTheAcknowledgedState() async throws {
    let (directory, states) = try await self.crashedDirectory()
    let outcome = try DurableFixture.recover(directory.file("data"))
    let last = try #require(states.keys.max())
    #expect(outcome.revision == last)
    #expect(outcome.replayed == Int(last))
    #expect(outcome.setAside == nil)
    #expect(try DurableFixture.json(outcome.state) == states[last])
  }

  @Test func aTailCutAtAnyByteOfTheLastRecordIsSetAside() async throws {
    let (directory, states) = try await self.crashedDirectory()
    let segmentName = DataLayout.segmentName(after: 0)
    let original = try DataFiles.read(directory.file("data/" + segmentName))
    let (offsets, end) = try self.recordOffsets(directory.file("data/" + segmentName))
    let lastRecord = try #require(offsets.last)
    let last = try #require(states.keys.max())
    for cut in lastRecord..<end {
      let copy = try DataFiles.copy(directory.file("data"))
      let segment = copy.file(segmentName)
      try DataFiles.write(Array(original[..<Int(cut)]), to: segment)
      let outcome = try DurableFixture.recover(copy.path)
      #expect(outcome.revision == last - 1, "cut at \(cut)")
      #expect(try DurableFixture.json(outcome.state) == states[last - 1], "cut at \(cut)")
      #expect(try DataFiles.read(segment) == Array(original[..<Int(lastRecord)]), "cut at \(cut)")
      if cut == lastRecord {
        #expect(outcome.setAside == nil)
      } else {
        let aside = try #require(outcome.setAside, "cut at \(cut): nothing set aside")
        #expect(aside.hasPrefix(segment + ".damaged-"))
        #expect(try DataFiles.read(aside) == Array(original[Int(lastRecord)..<Int(cut)]))
      }
      // The directory now recovers cleanly, to the same state.
      let again = try DurableFixture.recover(copy.path)
      #expect(again.revision == last - 1 && again.setAside == nil)
    }
  }

  @Test func aFlippedBitInTheLastRecordIsADamagedTail() async throws {
    let (directory, states) = try await self.crashedDirectory()
    let segment = directory.file("data/" + DataLayout.segmentName(after: 0))
    let (offsets, _) = try self.recordOffsets(segment)
    var bytes = try DataFiles.read(segment)
    bytes[Int(offsets.last!) + 12] ^= 0x04
    try DataFiles.write(bytes, to: segment)
    let outcome = try DurableFixture.recover(directory.file("data"))
    let last = try #require(states.keys.max())
    #expect(outcome.revision == last - 1)
    #expect(outcome.setAside != nil)
    #expect(try DurableFixture.json(outcome.state) == states[last - 1])
  }

  @Test(arguments: [1, 2, 3])
  func aFlippedBitInTheMiddleRefusesToStartAndChangesNothing(record: Int) async throws {
    let (directory, _) = try await self.crashedDirectory()
    let data = directory.file("data")
    let segment = data + "/" + DataLayout.segmentName(after: 0)
    let (offsets, _) = try self.recordOffsets(segment)
    var bytes = try DataFiles.read(segment)
    // A bit of the length, of the checksum, or of the payload.
    let flipped = Int(offsets[record]) + [1, 5, 11][record - 1]
    bytes[flipped] ^= 0x20
    try DataFiles.write(bytes, to: segment)
    let before = DataFiles.names(in: data)
    do {
      _ = try DurableFixture.recover(data)
      Issue.record("damage in the middle was recovered from")
    } catch {
      #expect(error.message.contains(segment), "\(error)")
      #expect(error.message.contains("offset \(offsets[record])"), "\(error)")
      #expect(error.message.contains("Nothing was changed"), "\(error)")
      #expect(error.message.contains("truncate -s \(offsets[record]) \(segment)"), "\(error)")
      #expect(error.message.contains("--reset"), "\(error)")
    }
    #expect(DataFiles.names(in: data) == before)
    #expect(try DataFiles.read(segment) == bytes)
  }

  @Test func aSnapshotThatNoLongerDecodesIsRefusedWithTheDecodingPath() async throws {
    let (directory, _) = try await self.crashedDirectory()
    let data = directory.file("data")
    let path = data + "/" + DataLayout.snapshotName(at: 0)
    // Rewrite snapshot 0 with a state of another shape: the demo's fourth to-do's
    // `isComplete` is a number, as if the app's State type changed.
    let contents = try SnapshotFile.read(path)
    var json = try JSON(parsing: contents.state)
    guard case .object(var root) = json, case .object(var todos)? = root["todos"],
      case .array(var list)? = todos["todos"], case .object(var third) = list[2]
    else { throw HarnessError("unexpected snapshot \(json.compactString)") }
    third["isComplete"] = .int(1)
    list[2] = .object(third)
    todos["todos"] = .array(list)
    root["todos"] = .object(todos)
    json = .object(root)
    try SnapshotFile.write(
      state: json.serialized(), revision: 0, time: contents.time,
      name: DataLayout.snapshotName(at: 0), in: data)
    do {
      _ = try DurableFixture.recover(data)
      Issue.record("an undecodable snapshot was accepted")
    } catch {
      #expect(error.message.contains(path), "\(error)")
      #expect(error.message.contains("todos.todos[2].isComplete: expected bool"), "\(error)")
      #expect(error.message.contains("--reset"), "\(error)")
    }
  }

  @Test func aDamagedSnapshotIsRefusedWithItsOffsetAndTheOlderSnapshotAsRemedy() async throws {
    let directory = TemporaryDirectory()
    let data = directory.file("data")
    let host = try await DurableFixture.start(in: directory)
    await host.send(.counter(.incrementButtonTapped))
    await host.shutdown()  // writes snapshot 1; snapshot 0 is the older one kept
    let path = data + "/" + DataLayout.snapshotName(at: 1)
    var bytes = try DataFiles.read(path)
    bytes[bytes.count - 10] ^= 0x01
    try DataFiles.write(bytes, to: path)
    do {
      _ = try DurableFixture.recover(data)
      Issue.record("a damaged snapshot was accepted")
    } catch {
      #expect(error.message.contains(path), "\(error)")
      #expect(error.message.contains("offset"), "\(error)")
      #expect(error.message.contains(DataLayout.snapshotName(at: 0)), "\(error)")
    }
    // Following the remedy: without the damaged snapshot, the older one and the journal.
    try FileManager.default.removeItem(atPath: path)
    let outcome = try DurableFixture.recover(data)
    #expect(outcome.revision == 1 && outcome.snapshotRevision == 0)
    #expect(outcome.state.counter.count == 1)
  }

  @Test func aMissingJournalFileIsAGapThatRefusesToStart() async throws {
    let directory = TemporaryDirectory()
    let data = directory.file("data")
    for _ in 0..<2 {
      let host = try await DurableFixture.start(in: directory)
      await host.send(.counter(.incrementButtonTapped))
      await host.shutdown()
    }
    // Kept: snapshots 1 and 2, the journal after 1 (revision 2) and after 2 (empty). Without
    // the newest snapshot and the journal after 1, nothing takes the state from 1 to 2.
    try FileManager.default.removeItem(atPath: data + "/" + DataLayout.snapshotName(at: 2))
    try FileManager.default.removeItem(atPath: data + "/" + DataLayout.segmentName(after: 1))
    do {
      _ = try DurableFixture.recover(data)
      Issue.record("a journal with missing revisions was accepted")
    } catch {
      #expect(error.message.contains("missing"), "\(error)")
    }
  }

  @Test func revisionsContinueAcrossCleanRestarts() async throws {
    let directory = TemporaryDirectory()
    var expected: Int64 = 0
    for round in 1...3 {
      let host = try await DurableFixture.start(in: directory)
      #expect(host.revision == expected)
      #expect((host.recovery == nil) == (round == 1))
      let client = try WireClient.greeted(path: host.socketPath)
      #expect(client.received["welcome"] == 1)
      let revision = try DurableFixture.send(
        client, "counter", #"{"incrementButtonTapped":{}}"#, id: 1)
      #expect(revision == expected + 1)
      expected = revision
      #expect(await host.state.counter.count == round)
      await host.shutdown()
    }
  }
}
