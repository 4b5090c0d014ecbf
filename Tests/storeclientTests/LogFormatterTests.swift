import Remote
import Testing
import Wire

@testable import storeclient

@Suite struct LogFormatterTests {
  let text = LogFormatter(format: .text, utc: true)

  private func entry(_ origin: HistoryEntry.Origin, scope: String?, action: String) -> HistoryEntry {
    HistoryEntry(
      rev: 42, time: "2026-11-24T14:00:01.123Z", origin: origin, scope: scope, action: J(action))
  }

  @Test func aClientsActionIsOneLineWithRevisionTimeSenderScopeAndAction() {
    let entry = self.entry(
      .client(session: "7", client: "storeclient/1.0.0", pid: 1234, uid: 1000), scope: "counter",
      action: #"{"incrementButtonTapped":{}}"#)
    #expect(self.text.line(entry) == "rev 42  14:00:01.123  storeclient[1234] uid 1000  counter  incrementButtonTapped")
    let change = LogChange.ops([J(#"{"op":"replace","path":"/count","value":4}"#)], before: J(#"{"count":3}"#))
    #expect(self.text.line(entry, change: change).hasSuffix("  counter  incrementButtonTapped  /count: 3 → 4"))
    #expect(self.text.line(entry, change: .ops([], before: .null)).hasSuffix("  (no change)"))
  }

  @Test func effectsHostsAndNamelessClients() {
    let tick = self.entry(.effect, scope: nil, action: #"{"counter":{"_0":{"timerTick":{}}}}"#)
    #expect(self.text.line(tick) == "rev 42  14:00:01.123  effect  counter.timerTick")
    let host = self.entry(.host, scope: nil, action: #"{"shop":{"_0":{"task":{}}}}"#)
    #expect(self.text.line(host) == "rev 42  14:00:01.123  host  shop.task")
    let nameless = self.entry(
      .client(session: "3", client: nil, pid: 9, uid: 0), scope: "counter",
      action: #"{"set":{"_0":5}}"#)
    #expect(self.text.line(nameless) == "rev 42  14:00:01.123  session 3[9] uid 0  counter  set 5")
  }

  @Test func actionsAreSummarizedAndCut() {
    #expect(self.text.summary(J(#"{"setDescription":{"_0":"Milk"}}"#)) == #"setDescription "Milk""#)
    #expect(self.text.summary(J(#"{"todos":{"_0":{"element":{"id":"A","action":{"toggleCompleted":{}}}}}}"#))
      == #"todos.element {"id":"A","action":{"toggleCompleted":{}}}"#)
    #expect(self.text.summary(nil) == "(action not encodable)")
    let long = self.text.summary(J(#"{"setDescription":{"_0":"\#(String(repeating: "x", count: 100))"}}"#))
    #expect(long.count == 60 && long.hasSuffix("…"))
  }

  @Test func jsonLinesAreTheEntriesWithTheirOps() throws {
    let json = LogFormatter(format: .json)
    let entry = self.entry(.effect, scope: nil, action: #"{"a":{}}"#)
    let line = json.line(entry, change: .ops([J(#"{"op":"remove","path":"/x"}"#)], before: .null))
    let parsed = try JSON(parsing: line)
    #expect(parsed["rev"] == .int(42) && parsed["time"] == .string("2026-11-24T14:00:01.123Z"))
    #expect(parsed["ops"] == .array([J(#"{"op":"remove","path":"/x"}"#)]))
    #expect(json.gap(from: 10, to: 20) == #"{"gap":{"from":10,"to":20}}"#)
    #expect(self.text.gap(from: 10, to: 20) == "revs 11-20  (missed: the host did not send these entries)")
  }

  @Test func timesAreReadFromRFC3339() {
    #expect(LogFormatter.milliseconds(rfc3339: "1970-01-01T00:00:01.005Z") == 1005)
    #expect(LogFormatter.milliseconds(rfc3339: "not a time") == nil)
    #expect(self.text.timeOfDay("2026-11-24T23:59:59.999Z") == "23:59:59.999")
    #expect(self.text.timeOfDay("yesterday") == "yesterday")
  }
}

@Suite struct HistoryHelpTests {
  @Test func logHelpIsGolden() {
    #expect(
      LogCommand.spec.help(width: 80) == """
        OVERVIEW: Print the actions the host reduced: who sent what, and when.

        One line per action: its revision, the time of day it was reduced (local time;
        --format json gives the host's RFC 3339 UTC time), who sent it (a client's name,
        process id and user id, or effect, or host), the scope it was sent to and the
        action. With --changes, each line ends with what the action changed in that
        scope, as watch shows it ('/count: 3 → 4'). Without --since, the last --limit
        actions; the host gives at most 10,000 per request. With -f, log then follows
        new actions until interrupted; if the host restarts, it waits for it and goes
        on.

        USAGE: storeclient log [--socket <path>] [--since <rev>] [--limit <n>]
                               [--follow] [--format <format>] [--changes] [<scope>]

        ARGUMENTS:
          <scope>                 Only actions sent to this scope, or to any scope a
                                  pattern such as todos/{id} matches.

        OPTIONS:
          --socket <path>         The socket file of the host to talk to. (default:
                                  $STOREHOST_SOCKET, else
                                  $XDG_RUNTIME_DIR/storehost.sock, else
                                  /tmp/storehost-<uid>.sock)
          --since <rev>           Only actions after this revision.
          --limit <n>             The most actions to print (before following).
                                  (default: 100)
          -f, --follow            Keep printing new actions as they are reduced.
          --format <format>       text or json. (default: text)
          --changes               Show what each action changed in its scope.
          -h, --help              Show help information.
        """)
  }

  @Test func diffHelpIsGolden() {
    #expect(
      DiffCommand.spec.help(width: 80) == """
        OVERVIEW: Print what changed in a scope between two revisions.

        Reads the scope's state at both revisions from the host's history. Formats:
        'text' prints one line per change with the value it replaced ('/count: 3 → 4'),
        or '(no change)'; 'patch' prints the RFC 6902 JSON Patch operations that turn
        the first state into the second, as one JSON array.

        USAGE: storeclient diff [--socket <path>] [--format <format>] <scope> <rev1>
                                <rev2>

        ARGUMENTS:
          <scope>                 The scope, e.g. counter or todos/<id>.
          <rev1>                  The revision to compare from.
          <rev2>                  The revision to compare to.

        OPTIONS:
          --socket <path>         The socket file of the host to talk to. (default:
                                  $STOREHOST_SOCKET, else
                                  $XDG_RUNTIME_DIR/storehost.sock, else
                                  /tmp/storehost-<uid>.sock)
          --format <format>       text or patch. (default: text)
          -h, --help              Show help information.
        """)
  }

  private func usage<C: ClientCommand>(_ command: C.Type, _ arguments: [String]) -> String? {
    do {
      _ = try C(try C.spec.parse(arguments), socketPath: "/tmp/x.sock")
      return nil
    } catch {
      return error.message
    }
  }

  @Test func usageErrorsSayWhatIsWrong() throws {
    #expect(usage(LogCommand.self, ["--limit", "0"]) == "The value '0' is invalid for '--limit': expected an integer from 1 to \(Int.max)")
    #expect(usage(LogCommand.self, ["--format", "yaml"]) == "The value 'yaml' is invalid for '--format <format>': expected 'text' or 'json'")
    #expect(usage(LogCommand.self, ["a", "b"]) == "Unexpected argument 'b'")
    #expect(usage(DiffCommand.self, ["counter", "1"]) == "Missing expected argument '<rev2>'")
    #expect(usage(DiffCommand.self, ["counter", "1", "two"]) == "The value 'two' is invalid for '<rev2>': expected a revision (an integer from 0)")
    #expect(usage(GetCommand.self, ["counter", "--at", "x"]) == "The value 'x' is invalid for '--at': expected an integer from 0 to \(Int.max)")
    let log = try LogCommand(try LogCommand.spec.parse(["todos/{id}", "-f", "--since", "7", "--changes"]), socketPath: "/s")
    #expect(log.scope == "todos/{id}" && log.follow && log.since == 7 && log.changes && log.limit == 100)
  }
}
