/// Reads the action records of a directory's journal segments in revision order, across
/// segments, checking that revisions follow each other without a gap.
///
/// Used by recovery (to replay) and by ``JournalArchive`` (to read history). Not `Sendable`:
/// one thread uses a cursor at a time.
final class JournalCursor {
  /// Why reading stopped before the end of the journal.
  enum Problem: Error {
    /// A segment's bytes at `offset` are not a valid record (checksum, impossible length), or
    /// end inside a record: a torn or damaged tail if nothing valid follows, else damage in
    /// the middle.
    case damaged(segment: String, offset: Int64, isCutShort: Bool, isLastSegment: Bool)
    /// A record's checksum matches but its content does not follow the format.
    case malformed(segment: String, offset: Int64, detail: String)
    /// A segment does not start with the journal's magic.
    case notASegment(segment: String)
    /// The next record's revision is not the one expected.
    case outOfSequence(segment: String, offset: Int64, expected: Int64, found: Int64)
    /// A segment starts after a revision other than the last one read: records are missing.
    case gap(segment: String, expected: Int64)
    /// A file could not be read.
    case unreadable(FileError)
  }

  /// The directory's path.
  let directory: String
  private let segments: [(revision: Int64, name: String)]
  private var index = -1
  private var reader: SegmentReader?
  /// The decoder of the current segment (its sessions and times).
  private(set) var decoder = JournalDecoder()
  /// The revision of the last record read (or the start of the first segment).
  private(set) var position: Int64
  /// The segments read so far that end with zeros allocated ahead, and where their records
  /// end (recovery cuts them there).
  private(set) var zeroTails: [(segment: String, offset: Int64)] = []
  /// The file and offset of the last record read.
  private(set) var current: (segment: String, offset: Int64)?

  /// A cursor over `segments` (sorted by revision; consecutive), starting at the first one.
  init(directory: String, segments: [(revision: Int64, name: String)]) {
    self.directory = directory
    self.segments = segments
    self.position = segments.first?.revision ?? 0
  }

  /// The name of the segment being read.
  var segmentName: String? {
    self.segments.indices.contains(self.index) ? self.segments[self.index].name : nil
  }

  /// The next action record (valid until the next call), or `nil` at the clean end of the
  /// last segment.
  ///
  /// - Throws: ``Problem``; the cursor then stays where it stopped (``position`` is the last
  ///   revision read intact).
  func next() throws(Problem) -> JournalDecoder.ActionView? {
    while true {
      if self.reader == nil {
        guard self.index + 1 < self.segments.count else { return nil }
        self.index += 1
        let segment = self.segments[self.index]
        guard segment.revision == self.position else {
          throw .gap(segment: segment.name, expected: self.position)
        }
        do {
          self.reader = try SegmentReader(path: self.directory + "/" + segment.name)
        } catch {
          throw .unreadable(error)
        }
        self.decoder = JournalDecoder()
      }
      let reader = self.reader!
      let name = self.segments[self.index].name
      let step: SegmentReader.Step
      do {
        step = try reader.next()
      } catch let error as FileError {
        throw .unreadable(error)
      } catch {
        throw .notASegment(segment: name)
      }
      switch step {
      case .end(.clean):
        self.reader = nil
      case .end(.zeroFilled(let offset)):
        // Space a mapped segment allocated ahead: its records end here.
        self.zeroTails.append((name, offset))
        self.reader = nil
      case .end(.incomplete(let offset)), .end(.invalid(let offset)):
        var isCutShort = false
        if case .end(.incomplete) = step { isCutShort = true }
        throw .damaged(
          segment: name, offset: offset, isCutShort: isCutShort,
          isLastSegment: self.index == self.segments.count - 1)
      case .record(let payload, let offset):
        let view: JournalDecoder.ActionView?
        do {
          view = try self.decoder.decode(payload)
        } catch {
          throw .malformed(segment: name, offset: offset, detail: error.detail)
        }
        guard let view else { continue }
        guard view.revision == self.position + 1 else {
          throw .outOfSequence(
            segment: name, offset: offset, expected: self.position + 1, found: view.revision)
        }
        self.position = view.revision
        self.current = (name, offset)
        return view
      }
    }
  }

  /// The segments after the one being read.
  var laterSegments: ArraySlice<(revision: Int64, name: String)> {
    self.segments[min(self.segments.count, self.index + 1)...]
  }
}
