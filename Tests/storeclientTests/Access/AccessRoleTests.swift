import Foundation
import Testing
import Wire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Roles with a second, real Unix user: refused, read-only and read-write connections to the
/// real `storehost`, the socket's mode and group, and the roles in `_host` and in the history.
@Suite(
  .serialized, .timeLimit(.minutes(3)),
  .enabled(if: Binaries.available, "storehost and storeclient must be built next to the tests"),
  .enabled("needs root, to create a second Unix user (see the printed reason)") {
    TemporaryUser.isAvailable
  })
struct AccessRoleTests {
  /// Runs `storeclient arguments…` as `user` to completion.
  private func run(
    as user: TemporaryUser, _ arguments: [String]
  ) async throws -> ClientResult {
    let process = try SpawnedProcess(Binaries.storeclient!, arguments, as: user)
    let status = try await process.wait()
    return ClientResult(status: status, output: process.output.text, errors: process.errors.text)
  }

  private func fileStatus(_ path: String) -> (mode: UInt32, group: UInt32) {
    var info = stat()
    _ = stat(path, &info)
    return (UInt32(info.st_mode) & 0o777, UInt32(info.st_gid))
  }

  @Test func anotherUserIsRefusedUnlessAllowed() async throws {
    let user = try TemporaryUser.get()
    let path = makeReachableDirectory() + "/host.sock"
    // The socket is the owner's alone: another user cannot even connect.
    let closed = try await AccessHost.start(["--socket", path], socketPath: path)
    let denied = try await self.run(as: user, ["get", "--socket", path, "counter"])
    #expect(denied.status == 1)
    #expect(denied.errors.contains("permission denied"), "\(denied.errors)")
    try await closed.stop()
    // Reachable (--mode 666) but not allowed: the peer check refuses it.
    let open = try await AccessHost.start(["--socket", path, "--mode", "666"], socketPath: path)
    let refused = try await self.run(as: user, ["get", "--socket", path, "counter"])
    #expect(refused.status == 1)
    #expect(
      refused.errors.contains("connections from uid \(user.uid) are not allowed; this host serves uid 0 only")
        && refused.errors.contains("(forbidden)"), "\(refused.errors)")
    try await waitUntil("the host logs the refusal") {
      open.errors.text.contains("refused pid=") && open.errors.text.contains("uid=\(user.uid)")
    }
    try await open.stop()
  }

  @Test func aReadOnlyUserReadsAndWatchesButMayNotSend() async throws {
    let user = try TemporaryUser.get()
    let path = makeReachableDirectory() + "/host.sock"
    let host = try await AccessHost.start(["--socket", path, "--allow", "\(user.name):ro"], socketPath: path)
    #expect(self.fileStatus(path).mode == 0o666)
    #expect(host.errors.text.contains("(mode 666, the users --allow names must reach it"))
    #expect(host.errors.text.contains("access: root:rw as the host's user, \(user.name):ro)"))

    let get = try await self.run(as: user, ["get", "--socket", path, "counter"])
    #expect(get.status == 0 && get.output.contains(#""count":0"#), "\(get.errors)")
    let send = try await self.run(
      as: user, ["send", "--socket", path, "counter", #"{"incrementButtonTapped":{}}"#])
    #expect(send.status == 1)
    #expect(
      send.errors.hasPrefix("Error: send: this connection's role is ro (read-only)")
        && send.errors.contains("(forbidden)"), "\(send.errors)")

    // It watches what the host's user changes; `_host` shows its connection and role.
    let watcher = try SpawnedProcess(
      Binaries.storeclient!, ["watch", "--socket", path, "counter"], as: user)
    try await waitUntil("the read-only watcher has its snapshot") {
      watcher.output.text.contains("rev ")
    }
    let figures = try await storeclient(["get", "--socket", path, "--compact", "_host"])
    #expect(
      figures.output.contains(#"{"uid":\#(user.uid),"role":"ro","connections":1}"#),
      "\(figures.output)")
    let sent = try await storeclient(["send", "--socket", path, "counter", #"{"incrementButtonTapped":{}}"#])
    #expect(sent.status == 0)
    try await waitUntil("the watcher sees the change") { watcher.output.text.contains("/count: 0 → 1") }
    try await watcher.stop(signal: SIGINT)
    try await host.stop()
  }

  @Test func aGroupGetsTheSocketsGroupAndReadWrite() async throws {
    let user = try TemporaryUser.get()
    let path = makeReachableDirectory() + "/host.sock"
    let host = try await AccessHost.start(
      ["--socket", path, "--allow", "@\(user.groupName):rw"], socketPath: path)
    // The least that lets the group in: 0660 and the group, said in the startup line.
    let socket = self.fileStatus(path)
    #expect(socket.mode == 0o660 && socket.group == user.groupID)
    #expect(host.errors.text.contains("(mode 660, group \(user.groupName), so that @\(user.groupName) can connect; "))
    // A member through a supplementary group may send.
    let send = try await self.run(
      as: user, ["send", "--socket", path, "counter", #"{"incrementButtonTapped":{}}"#])
    #expect(send.status == 0 && Int(send.output.trimmingCharacters(in: .whitespacesAndNewlines)) != nil, "\(send.errors)")
    try await waitUntil("the host logs the connection's role") {
      host.errors.text.contains("uid=\(user.uid) role=rw")
    }
    // The history's entry for that action names its sender's user and role.
    let log = try await storeclient(["log", "--socket", path, "--format", "json", "counter"])
    #expect(log.status == 0, "\(log.errors)")
    let origins = log.output.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["origin"]
        as? [String: Any]
    }
    #expect(
      origins.contains { $0["uid"] as? Int == Int(user.uid) && $0["role"] as? String == "rw" },
      "\(log.output)")
    try await host.stop()
  }
}
