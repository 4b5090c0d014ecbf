#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where `.fileStorage` keys read and write their files: the file system, or in-memory files.
///
/// A live app uses ``fileSystem``; tests get in-memory files of their own (one set per test,
/// shared by the test and its test stores), so they never touch the disk unless they ask to:
///
/// ```swift
/// let store = TestStore(initialState: SyncUpsList.State()) {
///   SyncUpsList()
/// } withDependencies: {
///   $0.defaultFileStorage = .fileSystem(debounce: .seconds(1), clock: clock)
/// }
/// ```
public struct FileStorage: Sendable {
  enum Backend: Sendable {
    case fileSystem
    case memory(_InMemoryFiles)
    /// The in-memory files of the sharing scope where the key is created (tests).
    case scopeMemory
  }

  let backend: Backend
  /// How long a change waits before it is written, so that a burst of changes is written once.
  let debounce: Duration
  let clock: any Clock<Duration>

  /// The file system, with changes written at most once a second.
  public static var fileSystem: Self {
    .fileSystem()
  }

  /// The file system, with changes written at most once per `debounce`.
  ///
  /// A change schedules a write `debounce` later, on `clock`; changes made meanwhile are
  /// written by that same write (with the latest value). ``Shared/save()`` writes at once, and
  /// so does the last reference to a file going away.
  ///
  /// - Parameters:
  ///   - debounce: The longest a change waits to be written; `.zero` writes every change.
  ///   - clock: The clock that measures it (a `TestClock` in tests).
  /// - Returns: The storage.
  public static func fileSystem(
    debounce: Duration = .seconds(1),
    clock: any Clock<Duration> = ContinuousClock()
  ) -> Self {
    Self(backend: .fileSystem, debounce: debounce, clock: clock)
  }

  /// A new set of files in memory, written at every change.
  public static var inMemory: Self {
    Self(backend: .memory(_InMemoryFiles()), debounce: .zero, clock: ContinuousClock())
  }

  /// The storage with the sharing scope's files in place of "the scope's in-memory files".
  func resolved(in scope: _SharedRegistry) -> Self {
    guard case .scopeMemory = self.backend else { return self }
    return Self(backend: .memory(scope.files), debounce: .zero, clock: self.clock)
  }

  /// What distinguishes one storage's files from another's.
  var identity: FileStorageKeyID.Storage {
    switch self.backend {
    case .fileSystem: .fileSystem
    case .memory(let files): .memory(ObjectIdentifier(files))
    case .scopeMemory: preconditionFailure("resolve the storage in a scope first")
    }
  }

  /// The file's contents, or `nil` if there is no file.
  func read(_ url: URL) throws -> Data? {
    switch self.backend {
    case .fileSystem:
      guard FileManager.default.fileExists(atPath: url.path) else { return nil }
      return try Data(contentsOf: url)
    case .memory(let files):
      return files.contents.withLock { $0[url] }
    case .scopeMemory:
      preconditionFailure("resolve the storage in a scope first")
    }
  }

  /// Writes the file whole (atomically on the file system), creating its directory.
  func write(_ data: Data, to url: URL) throws {
    switch self.backend {
    case .fileSystem:
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url, options: .atomic)
    case .memory(let files):
      files.contents.withLock { $0[url] = data }
    case .scopeMemory:
      preconditionFailure("resolve the storage in a scope first")
    }
  }
}

/// Files kept in memory, by URL.
final class _InMemoryFiles: Sendable {
  let contents = _SharedLock<[URL: Data]>([:])
}

extension DependencyValues {
  /// Where `.fileStorage` keys read and write: ``FileStorage/fileSystem`` in a live context,
  /// in-memory files of the test's sharing scope in a test context.
  public var defaultFileStorage: FileStorage {
    get { self[_DefaultFileStorageKey.self] }
    set { self[_DefaultFileStorageKey.self] = newValue }
  }
}

private enum _DefaultFileStorageKey: DependencyKey {
  static let liveValue = FileStorage.fileSystem
  static let testValue = FileStorage(
    backend: .scopeMemory, debounce: .zero, clock: ContinuousClock())
}
