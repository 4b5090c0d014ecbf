import Wire

extension HostCore {
  /// Creates or checks the private socket directory when the host manages it, with the
  /// directory mode and group `permissions` need; logs what it did.
  @usableFromInline
  func prepareSocketDirectory(_ permissions: SocketPermissions) throws(HostStartError) {
    guard configuration.managesSocketDirectory else { return }
    let directory = PrivateSocketDirectory(path: Self.directory(of: configuration.socketPath))
    switch try directory.prepare(permissions: permissions) {
    case .created(let mode):
      log(.info, "created the socket directory \(directory.path) (mode \(String(mode, radix: 8)))")
    case .adjusted(let from, let to):
      log(
        .info,
        "set the socket directory \(directory.path) from mode \(String(from, radix: 8)) to "
          + "\(String(to, radix: 8)), what this host's access needs")
    case .unchanged:
      break
    }
  }

  /// Gives the bound socket file the group and mode of `permissions` — bound owner-only, it is
  /// given the group first and opened to it after, so it is never briefly open to another
  /// group. When the group cannot be set (the host's user is not in it), the socket is opened
  /// to every user instead: the peer check still admits only those allowed.
  ///
  /// - Returns: The permissions the socket file has now.
  @usableFromInline
  func openSocketFile(_ permissions: SocketPermissions) -> SocketPermissions {
    guard let group = permissions.group else { return permissions }
    let path = configuration.socketPath
    if let error = Platform.changeGroup(path, to: group) {
      let name = Platform.groupName(of: group) ?? String(group)
      var fallback = SocketPermissions.everyoneCanReach(
        because: "the socket could not be given to group \(name) (\(error))")
      fallback.directoryMode = permissions.directoryMode
      _ = Platform.changeMode(path, to: fallback.socketMode)
      return fallback
    }
    _ = Platform.changeMode(path, to: permissions.socketMode)
    return permissions
  }

  /// The startup line — the socket's mode and why, the app, who may connect — and a warning
  /// when every user may send, or when the socket's directory keeps allowed users out.
  @usableFromInline
  func logListening(_ permissions: SocketPermissions) {
    let path = configuration.socketPath
    let access = configuration.access
    if permissions.reason == nil && !access.admitsOthers {
      log(.info, "listening on \(path) (\(permissions.summary), app \(appName))")
    } else {
      var grants = ["\(Platform.userName(of: Platform.userID) ?? String(Platform.userID)):rw "
        + "as the host's user"]
      grants += access.rules.map(\.description)
      if access.decide != nil { grants.append("and whom the access hook admits") }
      log(
        .info,
        "listening on \(path) (\(permissions.summary)"
          + "\(permissions.reason.map { ", \($0)" } ?? ""); app \(appName); access: "
          + "\(grants.joined(separator: ", ")))")
    }
    if access.letsEveryoneWrite {
      log(
        .warning,
        "every user of this machine may connect and send actions (--allow-other-users, or *:rw); "
          + "prefer --allow USER or --allow @GROUP, with :ro where reading is enough")
    }
    warnIfDirectoryKeepsOthersOut(permissions)
  }

  /// Warns when the socket's directory (one the host does not manage) lacks the search
  /// permission the socket's mode means to give: allowed users could not reach it.
  private func warnIfDirectoryKeepsOthersOut(_ permissions: SocketPermissions) {
    guard !configuration.managesSocketDirectory, permissions.socketMode & 0o077 != 0 else { return }
    let directory = Self.directory(of: configuration.socketPath)
    guard case .success(let status) = Platform.fileStatus(directory), status.isDirectory else {
      return
    }
    let needed = permissions.directoryMode & 0o011
    guard status.mode & needed != needed else { return }
    log(
      .warning,
      "the socket's directory \(directory) has mode \(String(status.mode, radix: 8)): users the "
        + "socket's mode lets in cannot reach it without search permission "
        + "(chmod \(needed & 0o001 != 0 ? "o" : "g")+x \(directory))")
  }

  /// The directory part of a socket path (`.` for a bare file name).
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}
