import Remote
import Wire

/// The formats of `storeclient log`.
enum LogFormat: String, Sendable, CaseIterable {
  /// One readable line per action:
  /// `rev 42  14:00:01.123  storeclient[1234] uid 1000  counter  incrementButtonTapped`.
  case text
  /// Each entry as one JSON object per line (for jq), as the host sent it.
  case json
}

/// What an action changed in the scope it was sent to (`log --changes`).
enum LogChange: Sendable, Equatable {
  /// The RFC 6902 operations from the scope's state before the action to its state after, and
  /// the state before (the readable form shows the values they replaced).
  case ops([JSON], before: JSON)
  /// The change could not be read (the scope did not exist then, the revision is gone, …).
  case unknown(String)
}

/// Turns history entries into lines of `storeclient log` output.
struct LogFormatter: Sendable {
  /// The output format.
  var format: LogFormat
  /// Whether times are shown in UTC rather than in the local time zone (tests).
  var utc = false
  /// Describes state changes as `watch` does.
  var changes = WatchFormatter(format: .text, label: nil)
  /// The longest an action may be in the text format before it is cut with `…`.
  var maxActionLength = 60

  /// The line for one entry, with the change it made when `--changes` asked for it.
  func line(_ entry: HistoryEntry, change: LogChange? = nil) -> String {
    switch self.format {
    case .json:
      guard case .object(var object) = entry.json else { return entry.json.compactString }
      switch change {
      case .ops(let ops, _)?: object["ops"] = .array(ops)
      case .unknown(let why)?: object["change_unknown"] = .string(why)
      case nil: break
      }
      return JSON.object(object).compactString
    case .text:
      var columns = [
        "rev \(entry.rev)", self.timeOfDay(entry.time), Self.origin(entry.origin),
      ]
      if let scope = entry.scope { columns.append(scope) }
      columns.append(self.summary(entry.action))
      switch change {
      case .ops(let ops, let before)?:
        columns.append(ops.isEmpty ? "(no change)" : self.changes.describe(ops, before: before))
      case .unknown(let why)?:
        columns.append("(change unknown: \(why))")
      case nil:
        break
      }
      return columns.joined(separator: "  ")
    }
  }

  /// The line for entries the host did not send (the reader fell behind, or they are gone).
  func gap(from: Revision, to: Revision) -> String {
    switch self.format {
    case .json:
      return #"{"gap":{"from":\#(from),"to":\#(to)}}"#
    case .text:
      let range = to == from + 1 ? "rev \(to)" : "revs \(from + 1)-\(to)"
      return "\(range)  (missed: the host did not send these entries)"
    }
  }

  /// Who sent an action: `storeclient[1234] uid 1000` (the client's name up to its first
  /// `/`, or `session N` when it gave none), `effect` or `host`.
  static func origin(_ origin: HistoryEntry.Origin) -> String {
    switch origin {
    case .client(let session, let client, let pid, let uid, _):
      let name = client.flatMap { $0.split(separator: "/").first.map(String.init) }
      return "\(name ?? "session \(session)")[\(pid)] uid \(uid)"
    case .effect: return "effect"
    case .host: return "host"
    }
  }

  /// An action in short: `incrementButtonTapped`, `counter.timerTick`,
  /// `setText {"_0":"Milk"}` — the case names of nested single-case objects joined by dots,
  /// then the rest as compact JSON, cut at ``maxActionLength``.
  func summary(_ action: JSON?) -> String {
    guard var current = action else { return "(action not encodable)" }
    var names: [String] = []
    while case .object(let object) = current, object.count == 1, let key = object.keys.first,
      let value = object[key]
    {
      names.append(key)
      current = value
      // Swift's synthesized form wraps an unlabeled payload in `_0`.
      if case .object(let payload) = value, payload.count == 1, let inner = payload["_0"] {
        current = inner
      }
    }
    var text = names.joined(separator: ".")
    if current != .object([:]) {
      text += (text.isEmpty ? "" : " ") + current.compactString
    }
    return text.count <= self.maxActionLength
      ? text : String(text.prefix(self.maxActionLength - 1)) + "…"
  }

  /// `14:00:01.123` from an entry's RFC 3339 time, in local time (or UTC); the time as given
  /// when it is not in the host's `YYYY-MM-DDTHH:MM:SS.mmmZ` form.
  func timeOfDay(_ time: String) -> String {
    guard let milliseconds = Self.milliseconds(rfc3339: time) else { return time }
    return Platform.timeOfDay(milliseconds: milliseconds, utc: self.utc)
  }

  /// Milliseconds since 1970 of a time written `YYYY-MM-DDTHH:MM:SS.mmmZ`.
  static func milliseconds(rfc3339 time: String) -> Int64? {
    let bytes = Array(time.utf8)
    guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."),
      bytes[23] == UInt8(ascii: "Z")
    else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      let millisecond = number(20..<23)
    else { return nil }
    return Platform.utcMilliseconds(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second,
      millisecond: millisecond)
  }
}
