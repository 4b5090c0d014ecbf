import Wire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The payloads of a journal segment's records (each framed by ``RecordFrame``).
///
/// ```
///   action  = 0x01  revision:varint  Δtime:zigzag-varint  origin  scope  action  draws
///     origin = 0x00 (effect) | 0x01 (host) | 0x02 session:varint (client)
///     scope  = 0 (none) | length+1:varint  UTF-8          the scope a client sent it to
///     action = 0 (not encodable) | length+1:varint  JSON  as sent to the scope; else the root action
///     draws  = count:varint  { 0x01 uuid:16 | 0x02 date:f64 | 0x03 random:u64 }…
///   session = 0x02  session:varint  pid:varint  uid:varint  client: 0 | length+1:varint  UTF-8
/// ```
///
/// A segment is read from its start: `Δtime` is the milliseconds since the previous action
/// record of the segment (since 1970 for the first), and a client's pid, uid and name are
/// written once per segment, in a session record before its first action.
enum RecordKind: UInt8 {
  /// One reduced action.
  case action = 1
  /// Who a client session is.
  case session = 2
}

/// Writes the records of one journal segment.
struct JournalEncoder {
  private var declaredSessions: Set<Int> = []
  /// The session of the last client record (its declaration is known without hashing).
  private var lastSession = -1
  private var previousTime: Int64 = 0
  private var scratch: [UInt8] = []

  init() {}

  /// Appends the record of one reduced action (preceded, for a client's first action in the
  /// segment, by its session record).
  ///
  /// - Parameters:
  ///   - revision: The revision it produced.
  ///   - time: When it was reduced (milliseconds since 1970).
  ///   - origin: Who sent it.
  ///   - scope: The scope a client sent it to.
  ///   - action: The action's JSON: as sent to its scope, or the root action; `nil` when it
  ///     could not be encoded.
  ///   - draws: What its reducer drew.
  ///   - writer: The buffer the records are appended to.
  mutating func append(
    revision: Int64, time: Int64, origin: ReductionOrigin, scope: String?, action: JSON?,
    draws: [Draw], to writer: inout ByteWriter
  ) {
    if case .client(let session, let client, let pid, let uid) = origin,
      session != self.lastSession, self.declaredSessions.insert(session).inserted
    {
      RecordFrame.append(to: &writer) { payload in
        payload.byte(RecordKind.session.rawValue)
        payload.varint(UInt64(session))
        payload.varint(UInt64(UInt32(bitPattern: pid)))
        payload.varint(UInt64(uid))
        payload.optionalString(client)
      }
    }
    if case .client(let session, _, _, _) = origin { self.lastSession = session }
    self.scratch.removeAll(keepingCapacity: true)
    action?.serialize(into: &self.scratch)
    let delta = time &- self.previousTime
    self.previousTime = time
    let scratch = self.scratch
    RecordFrame.append(to: &writer) { payload in
      payload.byte(RecordKind.action.rawValue)
      payload.varint(UInt64(revision))
      payload.signedVarint(delta)
      switch origin {
      case .effect: payload.byte(0)
      case .host: payload.byte(1)
      case .client(let session, _, _, _):
        payload.byte(2)
        payload.varint(UInt64(session))
      }
      payload.optionalString(scope)
      if action == nil {
        payload.varint(0)
      } else {
        payload.varint(UInt64(scratch.count) + 1)
        payload.bytes.append(contentsOf: scratch)
      }
      payload.varint(UInt64(draws.count))
      for draw in draws {
        switch draw {
        case .uuid(let uuid):
          payload.byte(1)
          withUnsafeBytes(of: uuid.uuid) { payload.bytes.append(contentsOf: $0) }
        case .date(let seconds):
          payload.byte(2)
          payload.fixed64(seconds.bitPattern)
        case .random(let bits):
          payload.byte(3)
          payload.fixed64(bits)
        }
      }
    }
  }
}

/// Reads the records of one journal segment, from its start.
struct JournalDecoder {
  /// A payload whose checksum matched but whose content does not follow the format.
  struct Malformed: Error, CustomStringConvertible {
    let detail: String
    var description: String { self.detail }
  }

  /// Who a client session was.
  struct SessionInfo {
    var client: String?
    var pid: Int32
    var uid: UInt32
  }

  /// An action record, read in place: the scope and action bytes point into the segment.
  struct ActionView {
    var revision: Int64
    var time: Int64
    /// 0 effect, 1 host, 2 client.
    var originKind: UInt8
    var session: Int
    var scope: UnsafeRawBufferPointer?
    /// The action's JSON text; `nil` when it could not be encoded when it was journaled.
    var action: UnsafeRawBufferPointer?
    var draws: [Draw]
  }

  private(set) var sessions: [Int: SessionInfo] = [:]
  private var previousTime: Int64 = 0

  init() {}

  /// Reads one payload: an action record, or `nil` for a session record (remembered).
  mutating func decode(_ payload: UnsafeRawBufferPointer) throws(Malformed) -> ActionView? {
    do {
      var reader = ByteReader(payload)
      switch try reader.byte() {
      case RecordKind.session.rawValue:
        let session = try reader.count(atMost: Int.max)
        let pid = Int32(bitPattern: UInt32(truncatingIfNeeded: try reader.varint()))
        let uid = UInt32(truncatingIfNeeded: try reader.varint())
        let client = try reader.optionalString()
        self.sessions[session] = SessionInfo(client: client, pid: pid, uid: uid)
        return nil
      case RecordKind.action.rawValue:
        let revision = try reader.varint()
        guard revision <= UInt64(Int64.max) else {
          throw Malformed(detail: "revision out of range")
        }
        let time = self.previousTime &+ (try reader.signedVarint())
        self.previousTime = time
        let originKind = try reader.byte()
        var session = 0
        switch originKind {
        case 0, 1: break
        case 2:
          session = try reader.count(atMost: Int.max)
          guard self.sessions[session] != nil else {
            throw Malformed(detail: "revision \(revision): session \(session) was not declared")
          }
        default: throw Malformed(detail: "revision \(revision): unknown origin \(originKind)")
        }
        let scope = try reader.optionalStringBytes()
        let action = try reader.optionalStringBytes()
        let drawCount = try reader.count(atMost: payload.count)
        var draws: [Draw] = []
        if drawCount > 0 {
          draws.reserveCapacity(drawCount)
          for _ in 0..<drawCount {
            switch try reader.byte() {
            case 1:
              let raw = try reader.bytes(16)
              var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
              withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: raw) }
              draws.append(.uuid(UUID(uuid: uuid)))
            case 2: draws.append(.date(Double(bitPattern: try reader.fixed64())))
            case 3: draws.append(.random(try reader.fixed64()))
            case let kind:
              throw Malformed(detail: "revision \(revision): unknown draw kind \(kind)")
            }
          }
        }
        guard reader.isAtEnd else {
          throw Malformed(detail: "revision \(revision): unexpected bytes after the record")
        }
        return ActionView(
          revision: Int64(revision), time: time, originKind: originKind, session: session,
          scope: scope, action: action, draws: draws)
      case let kind:
        throw Malformed(detail: "unknown record kind \(kind)")
      }
    } catch let error as Malformed {
      throw error
    } catch {
      throw Malformed(detail: "the record ends early")
    }
  }

  /// The origin of an action record, as history shows it.
  func origin(of view: ActionView) -> ReductionOrigin {
    switch view.originKind {
    case 0: return .effect
    case 1: return .host
    default:
      let info = self.sessions[view.session]
      return .client(
        session: view.session, client: info?.client, pid: info?.pid ?? 0, uid: info?.uid ?? 0)
    }
  }

  /// Whether `payload` could be an action record with a revision in `revisions`: a cheap
  /// check made before a checksum when searching for records after damage.
  static func isPlausibleAction(_ payload: UnsafeRawBufferPointer, revisions: ClosedRange<Int64>)
    -> Bool
  {
    var reader = ByteReader(payload)
    guard (try? reader.byte()) == RecordKind.action.rawValue,
      let revision = try? reader.varint(), revision <= UInt64(Int64.max)
    else { return false }
    return revisions.contains(Int64(revision))
  }
}
