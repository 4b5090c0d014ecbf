import Wire

/// A snapshot: the root state at one revision, as JSON, with checksums.
///
/// ```
///   ┌──────────┬────────────────────────────────────────────┬──────────────────────┐
///   │ SHSNAP1\n│ header record (RecordFrame):               │ the state's JSON     │
///   │ 8 bytes  │ 0x10 revision time:varint length crc32c:u32│ (length bytes)       │
///   └──────────┴────────────────────────────────────────────┴──────────────────────┘
/// ```
///
/// It is written to `<name>.tmp`, flushed to the device, renamed into place and the directory
/// flushed, so a snapshot file either is complete or does not exist; a damaged one is damage
/// on disk, never a half-written file.
enum SnapshotFile {
  /// The header's payload kind.
  private static var headerKind: UInt8 { 0x10 }

  /// A snapshot as read back, with its state still as JSON text.
  struct Contents {
    var revision: Int64
    /// When it was taken (milliseconds since 1970).
    var time: Int64
    /// The state's JSON text.
    var state: ArraySlice<UInt8>
  }

  /// Why a snapshot could not be read.
  enum Damage: Error, Equatable {
    /// The file does not start with the snapshot magic.
    case notASnapshot
    /// The header at `offset` is cut short or fails its checksum.
    case header(offset: Int)
    /// The state's bytes (from `offset`, `length` of them) are cut short or fail the checksum.
    case state(offset: Int, length: Int)
  }

  /// Writes `state` (JSON text) as the snapshot `name` in `directory`, durably: temporary
  /// file, data flushed, renamed, directory flushed.
  static func write(
    state: [UInt8], revision: Int64, time: Int64, name: String, in directory: String
  ) throws(FileError) {
    var header = ByteWriter(reservingCapacity: 64)
    header.bytes.append(contentsOf: DataLayout.snapshotMagic)
    RecordFrame.append(to: &header) { payload in
      payload.byte(Self.headerKind)
      payload.varint(UInt64(revision))
      payload.varint(UInt64(bitPattern: time))
      payload.varint(UInt64(state.count))
      payload.fixed32(CRC32C.checksum(state))
    }
    let path = directory + "/" + name
    let temporary = path + ".tmp"
    let fd = try FileSystem.createEmpty(temporary)
    do throws(FileError) {
      for part in [header.bytes, state] {
        if let failure = part.withUnsafeBytes({ FileSystem.writeAll(fd, $0, path: temporary) }) {
          throw failure.error
        }
      }
      try FileSystem.synchronizeData(fd, path: temporary)
    } catch {
      FileSystem.closeFile(fd)
      try? FileSystem.remove(temporary)
      throw error
    }
    FileSystem.closeFile(fd)
    try FileSystem.move(temporary, to: path)
    try FileSystem.synchronizeDirectory(directory)
  }

  /// Reads and checks the snapshot at `path`.
  ///
  /// - Throws: ``Damage`` when it is not intact; `FileError` when it cannot be read.
  static func read(_ path: String) throws -> Contents {
    let bytes = try FileSystem.readAll(path)
    let magic = DataLayout.snapshotMagic
    guard bytes.count >= magic.count, bytes.prefix(magic.count).elementsEqual(magic) else {
      throw Damage.notASnapshot
    }
    return try bytes.withUnsafeBytes { raw throws -> Contents in
      guard case .record(let payload, let next) = RecordFrame.scan(raw, at: magic.count) else {
        throw Damage.header(offset: magic.count)
      }
      var reader = ByteReader(UnsafeRawBufferPointer(rebasing: raw[payload]))
      do {
        guard try reader.byte() == Self.headerKind else { throw Damage.header(offset: magic.count) }
        let revision = try reader.varint()
        let time = Int64(bitPattern: try reader.varint())
        let length = try reader.varint()
        let crc = try reader.fixed32()
        guard revision <= UInt64(Int64.max), length == UInt64(raw.count - next) else {
          throw Damage.state(offset: next, length: Int(clamping: length))
        }
        let state = bytes[next...]
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[next...])) == crc else {
          throw Damage.state(offset: next, length: state.count)
        }
        return Contents(revision: Int64(revision), time: time, state: state)
      } catch is ByteReader.Truncated {
        throw Damage.header(offset: magic.count)
      }
    }
  }
}
