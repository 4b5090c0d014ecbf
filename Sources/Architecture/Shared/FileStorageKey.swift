#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension SharedKey {
  /// A key for a value saved as JSON in a file: loaded when the first `@Shared` for the file is
  /// created, saved (coalesced, see ``FileStorage/fileSystem(debounce:clock:)``) after changes.
  ///
  /// ```swift
  /// extension URL {
  ///   static let syncUps = URL.documentsDirectory.appending(component: "sync-ups.json")
  /// }
  /// @Shared(.fileStorage(.syncUps)) var syncUps: IdentifiedArrayOf<SyncUp> = []
  /// ```
  ///
  /// A missing or empty file gives the default value; a file that does not decode gives the
  /// default value and ``Shared/loadError`` (the file is left as it is until the value changes).
  /// Changes other processes make to the file are not watched (Linux has no portable file
  /// watching); ``Shared/load()`` reads the file again.
  ///
  /// - Parameters:
  ///   - url: The file.
  ///   - decoder: Decodes the file.
  ///   - encoder: Encodes the value.
  /// - Returns: The key.
  public static func fileStorage<Value: Codable & Sendable>(
    _ url: URL,
    decoder: JSONDecoder = JSONDecoder(),
    encoder: JSONEncoder = JSONEncoder()
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(
      url: url,
      decode: { try decoder.decode(Value.self, from: $0) },
      encode: { try encoder.encode($0) })
  }

  /// A key for a value saved in a file in a format of your own.
  ///
  /// - Parameters:
  ///   - url: The file.
  ///   - decode: Reads the value from the file's contents.
  ///   - encode: Writes the value as the file's contents.
  /// - Returns: The key.
  public static func fileStorage<Value: Sendable>(
    _ url: URL,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(url: url, decode: decode, encode: encode)
  }
}

/// A ``SharedKey`` for a value saved in a file, through the `defaultFileStorage` dependency in
/// force where the key is created. Create one with `.fileStorage(url)`.
///
/// A class: it holds the write waiting for its debounce, and writes it when the last reference
/// to the file goes away.
public final class FileStorageKey<Value: Sendable>: SharedKey, Sendable {
  private struct PendingWrite {
    var data: Data?
    var continuations: [SaveContinuation] = []
    var isScheduled = false
  }

  let url: URL
  let storage: FileStorage
  /// The sharing scope the key was created in, kept alive until the key is registered in it.
  let scope: _SharedRegistry
  let decode: @Sendable (Data) throws -> Value
  let encode: @Sendable (Value) throws -> Data
  private let pending = _SharedLock(PendingWrite())

  init(
    url: URL,
    decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) {
    @Dependency(\.defaultFileStorage) var storage
    self.url = url
    self.scope = _SharedRegistry.current
    self.storage = storage.resolved(in: self.scope)
    self.decode = decode
    self.encode = encode
  }

  deinit {
    self.flush()
  }

  /// The file and its storage.
  public var id: FileStorageKeyID {
    FileStorageKeyID(url: self.url.standardizedFileURL, storage: self.storage.identity)
  }

  /// Reads and decodes the file.
  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    do {
      guard let data = try self.storage.read(self.url), !data.isEmpty else {
        continuation.resumeReturningInitialValue()
        return
      }
      continuation.resume(returning: try self.decode(data))
    } catch {
      continuation.resume(throwing: error)
    }
  }

  /// Changes made to the file elsewhere are not observed.
  public func subscribe(
    context: LoadContext<Value>, subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    SharedSubscription {}
  }

  /// Encodes the value and writes it: at once for `.userInitiated` (or without a debounce),
  /// otherwise with the next scheduled write.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    let data: Data
    do {
      data = try self.encode(value)
    } catch {
      continuation.resume(throwing: error)
      return
    }
    let schedule = self.pending.withLock { pending -> Bool in
      pending.data = data
      pending.continuations.append(continuation)
      guard !pending.isScheduled else { return false }
      pending.isScheduled = true
      return true
    }
    if context == .userInitiated || self.storage.debounce <= .zero {
      self.flush()
    } else if schedule {
      // The deadline is read now, not when the task first runs: a test clock advanced before
      // the task got to sleep would otherwise push the write a whole debounce later.
      let sleep = Self.sleeper(on: self.storage.clock, for: self.storage.debounce)
      Task { [weak self] in
        await sleep()
        self?.flush()
      }
    }
  }

  /// A sleep until `duration` from now on `clock` (the deadline is fixed when this is called).
  private static func sleeper<C: Clock<Duration>>(
    on clock: C, for duration: Duration
  ) -> @Sendable () async -> Void {
    let deadline = clock.now.advanced(by: duration)
    return { try? await clock.sleep(until: deadline, tolerance: nil) }
  }

  /// Writes the pending value, if any, and resumes the saves waiting for it.
  private func flush() {
    let (data, continuations) = self.pending.withLock { pending in
      defer { pending = PendingWrite() }
      return (pending.data, pending.continuations)
    }
    guard let data else { return }
    let result = Result { try self.storage.write(data, to: self.url) }
    if case .failure(let error) = result {
      DependencyValues._effective.runtimeWarnings(
        "Could not save a @Shared(.fileStorage) value to \(self.url.path): \(error)")
    }
    for continuation in continuations {
      switch result {
      case .success: continuation.resume()
      case .failure(let error): continuation.resume(throwing: error)
      }
    }
  }
}

extension FileStorageKey: CustomStringConvertible {
  /// `.fileStorage(<path>)`.
  public var description: String { ".fileStorage(\(self.url.path))" }
}

/// The identity of a ``FileStorageKey``: the file, in its storage.
public struct FileStorageKeyID: Hashable, Sendable {
  enum Storage: Hashable, Sendable {
    case fileSystem
    case memory(ObjectIdentifier)
  }

  let url: URL
  let storage: Storage
}
