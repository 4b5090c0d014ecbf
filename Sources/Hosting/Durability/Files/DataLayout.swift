/// The files of a data directory, and how they are named.
///
/// ```
///   DIR/                                        (mode 0700)
///     lock                                      held (flock) by the host using DIR; its pid
///     snapshot-00000000000000001000.snap        the root state at revision 1000
///     journal-00000000000000001000.log          the actions after revision 1000, in order
///     journal-00000000000000001042.log          …after 1042 (a restart or a later snapshot)
///     journal-…log.damaged-20261122T001051Z     a torn tail set aside at recovery (kept)
/// ```
///
/// The number in a name is a revision, zero-padded to 20 digits so that names sort in
/// revision order: a snapshot's is the revision of its state, a journal segment's the revision
/// just before its first record. A new segment starts at each snapshot and at each start of the
/// host; every snapshot has a segment starting at its revision.
enum DataLayout {
  /// The lock file's name.
  static var lockName: String { "lock" }

  /// The first bytes of a journal segment.
  static let segmentMagic: [UInt8] = Array("SHJRNL1\n".utf8)
  /// The first bytes of a snapshot.
  static let snapshotMagic: [UInt8] = Array("SHSNAP1\n".utf8)

  /// The segment that starts after `revision`.
  static func segmentName(after revision: Int64) -> String {
    "journal-\(self.padded(revision)).log"
  }

  /// The snapshot of the state at `revision`.
  static func snapshotName(at revision: Int64) -> String {
    "snapshot-\(self.padded(revision)).snap"
  }

  /// The revision in a segment's name, if `name` is one.
  static func segmentRevision(_ name: String) -> Int64? {
    self.revision(in: name, prefix: "journal-", suffix: ".log")
  }

  /// The revision in a snapshot's name, if `name` is one.
  static func snapshotRevision(_ name: String) -> Int64? {
    self.revision(in: name, prefix: "snapshot-", suffix: ".snap")
  }

  private static func revision(in name: String, prefix: String, suffix: String) -> Int64? {
    guard name.hasPrefix(prefix), name.hasSuffix(suffix),
      name.utf8.count == prefix.utf8.count + 20 + suffix.utf8.count
    else { return nil }
    let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
    guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int64(digits)
  }

  private static func padded(_ revision: Int64) -> String {
    let digits = String(revision)
    return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
  }

  /// The segments and snapshots found in a directory, each sorted by revision.
  struct Listing {
    var segments: [(revision: Int64, name: String)] = []
    var snapshots: [(revision: Int64, name: String)] = []
    /// Files left by an interrupted snapshot (`*.tmp`).
    var temporaries: [String] = []
  }

  /// Lists the files of `directory`.
  static func list(_ directory: String) throws(FileError) -> Listing {
    var listing = Listing()
    for name in try FileSystem.contents(of: directory) {
      if let revision = self.segmentRevision(name) {
        listing.segments.append((revision, name))
      } else if let revision = self.snapshotRevision(name) {
        listing.snapshots.append((revision, name))
      } else if name.hasSuffix(".tmp") {
        listing.temporaries.append(name)
      }
    }
    listing.segments.sort { $0.revision < $1.revision }
    listing.snapshots.sort { $0.revision < $1.revision }
    return listing
  }
}
