import Architecture
import Foundation
import Testing

/// `.fileStorage` keys on real files in a temporary directory, and on a test's in-memory files.
@Suite struct FileStorageTests {
  /// A temporary directory, removed when the test ends.
  final class TemporaryDirectory {
    let url = FileManager.default.temporaryDirectory
      .appending(path: "FileStorageTests-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: self.url) }

    func file(_ name: String) -> URL { self.url.appending(path: name) }

    func write(_ text: String, to name: String) throws {
      try FileManager.default.createDirectory(at: self.url, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: self.file(name))
    }

    func read(_ name: String) -> String? {
      (try? Data(contentsOf: self.file(name))).map { String(decoding: $0, as: UTF8.self) }
    }
  }

  @Test func theFileIsLoadedAtFirstAccess() throws {
    let directory = TemporaryDirectory()
    try directory.write(#"[{"id":1,"title":"Standup"}]"#, to: "meetings.json")
    withDependencies {
      $0.defaultFileStorage = .fileSystem
    } operation: {
      @Shared(.fileStorage(directory.file("meetings.json"))) var meetings: [Meeting] = []
      #expect(meetings == [Meeting(id: 1, title: "Standup")])
      #expect($meetings.loadError == nil)
    }
  }

  @Test func aMissingFileGivesTheDefaultValue() {
    let directory = TemporaryDirectory()
    withDependencies {
      $0.defaultFileStorage = .fileSystem
    } operation: {
      @Shared(.fileStorage(directory.file("missing.json"))) var meetings = [
        Meeting(id: 7, title: "Default")
      ]
      #expect(meetings == [Meeting(id: 7, title: "Default")])
      #expect($meetings.loadError == nil)
    }
    #expect(directory.read("missing.json") == nil)
  }

  @Test func aFileThatDoesNotDecodeGivesTheDefaultValueAndALoadError() throws {
    let directory = TemporaryDirectory()
    try directory.write("not json", to: "meetings.json")
    withDependencies {
      $0.defaultFileStorage = .fileSystem
    } operation: {
      @Shared(.fileStorage(directory.file("meetings.json"))) var meetings: [Meeting] = []
      #expect(meetings == [])
      #expect($meetings.loadError is DecodingError)
    }
    #expect(directory.read("meetings.json") == "not json")
  }

  @Test func changesAreWrittenOnceTheDebounceHasPassed() async throws {
    let directory = TemporaryDirectory()
    let clock = TestClock()
    let url = directory.file("nested/counts.json")
    try await withDependencies {
      $0.defaultFileStorage = .fileSystem(debounce: .seconds(1), clock: clock)
    } operation: {
      @Shared(.fileStorage(url)) var counts: [Int] = []
      $counts.withLock { $0.append(1) }
      $counts.withLock { $0.append(2) }
      await clock.advance(by: .milliseconds(500))
      $counts.withLock { $0.append(3) }
      #expect(directory.read("nested/counts.json") == nil)
      await clock.advance(by: .milliseconds(500))
      #expect(await eventually { directory.read("nested/counts.json") == "[1,2,3]" })
      try await $counts.save()
    }
  }

  @Test func saveWritesAtOnce() async throws {
    let directory = TemporaryDirectory()
    let clock = TestClock()
    try await withDependencies {
      $0.defaultFileStorage = .fileSystem(debounce: .seconds(1), clock: clock)
    } operation: {
      @Shared(.fileStorage(directory.file("counts.json"))) var counts: [Int] = []
      $counts.withLock { $0 = [4] }
      try await $counts.save()
      #expect(directory.read("counts.json") == "[4]")
    }
  }

  @Test func thePendingWriteIsFlushedWhenTheLastReferenceGoesAway() {
    let directory = TemporaryDirectory()
    let clock = TestClock()
    withDependencies {
      $0.defaultFileStorage = .fileSystem(debounce: .seconds(1), clock: clock)
    } operation: {
      do {
        @Shared(.fileStorage(directory.file("counts.json"))) var counts: [Int] = []
        $counts.withLock { $0 = [5] }
      }
    }
    #expect(directory.read("counts.json") == "[5]")
  }

  @Test func referencesToOneFileAreOneReference() {
    let directory = TemporaryDirectory()
    withDependencies {
      $0.defaultFileStorage = .fileSystem(debounce: .zero)
    } operation: {
      @Shared(.fileStorage(directory.file("counts.json"))) var first: [Int] = []
      @Shared(.fileStorage(directory.file("counts.json"))) var second: [Int] = [9]
      $first.withLock { $0 = [6] }
      #expect(second == [6])
      #expect(directory.read("counts.json") == "[6]")
    }
  }

  @Test func testsUseInMemoryFilesByDefault() {
    let url = FileManager.default.temporaryDirectory
      .appending(path: "FileStorageTests-\(UUID().uuidString).json")
    @Shared(.fileStorage(url)) var counts = [1]
    $counts.withLock { $0.append(2) }
    @Shared(.fileStorage(url)) var again: [Int] = []
    #expect(again == [1, 2])
    #expect(!FileManager.default.fileExists(atPath: url.path))
  }

  @Test func aTestStoreSharesTheTestsFileBackedValue() async {
    @Shared(.meetings) var meetings = [
      Meeting(id: 1, title: "Standup"), Meeting(id: 2, title: "Retro"),
    ]
    let store = TestStore(initialState: MeetingList.State()) { MeetingList() }
    await store.send(.rename(id: 2, "Planning")) {
      $0.$meetings.withLock { $0[id: 2]?.title = "Planning" }
    }
    await store.send(.delete(id: 1)) {
      $0.$meetings.withLock { _ = $0.remove(id: 1) }
    }
    #expect(meetings == [Meeting(id: 2, title: "Planning")])
  }

  @Test func aDefaultKeyNeedsNoInitialValue() async {
    let store = TestStore(initialState: MeetingList.State()) { MeetingList() }
    #expect(store.state.meetings.isEmpty)
    await store.send(.add(Meeting(id: 3, title: "Demo"))) {
      $0.$meetings.withLock { $0 = [Meeting(id: 3, title: "Demo")] }
    }
    @Shared(.meetings) var meetings
    #expect(meetings == [Meeting(id: 3, title: "Demo")])
  }
}
