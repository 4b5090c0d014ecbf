/// The directory of the default socket, private to the host's user: created with mode 0700
/// (or the search bits the access policy needs, see ``SocketPermissions``), and refused —
/// saying why — when it exists in a state another user could have used to put a socket of
/// their own where this user's clients look: owned by someone else, writable by others, or
/// not a plain directory.
///
/// tmux checks its `/tmp/tmux-<uid>` the same way; read and search bits beyond what the host
/// needs are not a way in (nobody can add a file without write permission), so they are set
/// to what this run needs instead of refused.
struct PrivateSocketDirectory {
  /// The directory's path.
  let path: String

  /// What ``prepare(permissions:)`` did, for the log.
  enum Outcome: Equatable {
    /// The directory was created.
    case created(mode: UInt32)
    /// It existed, and its mode or group was set to what this run needs.
    case adjusted(fromMode: UInt32, toMode: UInt32)
    /// It existed as needed.
    case unchanged
  }

  /// Creates or checks the directory and gives it the mode (and group) of `permissions`.
  ///
  /// - Parameter permissions: The socket's permissions; their directory mode and group apply.
  /// - Returns: What was done.
  /// - Throws: ``HostStartError`` naming the directory, what is wrong and what to do.
  func prepare(permissions: SocketPermissions) throws(HostStartError) -> Outcome {
    let uid = Platform.userID
    var created = false
    var status: Platform.FileStatus
    switch Platform.fileStatus(self.path) {
    case .success(let found):
      status = found
    case .failure(let error) where error.isNotFound:
      if let error = Platform.makeDirectory(self.path, mode: 0o700), !error.isAlreadyExisting {
        throw HostStartError(
          message: "cannot create the socket directory \(self.path): \(error); create its "
            + "parent, or choose a socket path with --socket")
      }
      // Created now, or by someone else in between: either way, check what is there.
      guard case .success(let found) = Platform.fileStatus(self.path) else {
        throw HostStartError(message: "the socket directory \(self.path) vanished as it was made")
      }
      status = found
      created = status.owner == uid
    case .failure(let error):
      throw HostStartError(message: "cannot inspect the socket directory \(self.path): \(error)")
    }
    try self.check(status, uid: uid)
    let wanted = permissions.directoryMode
    let groupChanges = permissions.group.map { $0 != status.group } ?? false
    if groupChanges, let gid = permissions.group, let error = Platform.changeGroup(self.path, to: gid) {
      throw HostStartError(
        message: "cannot give the socket directory \(self.path) to group "
          + "\(Platform.groupName(of: gid) ?? String(gid)): \(error)")
    }
    if status.mode != wanted || created {
      if let error = Platform.changeMode(self.path, to: wanted) {
        throw HostStartError(message: "cannot set the mode of \(self.path): \(error)")
      }
    }
    if created { return .created(mode: wanted) }
    return status.mode != wanted || groupChanges
      ? .adjusted(fromMode: status.mode, toMode: wanted) : .unchanged
  }

  /// Refuses a directory another user could have prepared for this user's clients.
  private func check(_ status: Platform.FileStatus, uid: UInt32) throws(HostStartError) {
    let remedy = "remove it (it holds nothing a host needs), or choose a socket path with --socket"
    guard !status.isSymbolicLink, status.isDirectory else {
      throw HostStartError(
        message: "refusing the socket directory \(self.path): it is "
          + "\(status.isSymbolicLink ? "a symbolic link" : "not a directory"), where a private "
          + "directory was expected; \(remedy)")
    }
    guard status.owner == uid else {
      throw HostStartError(
        message: "refusing the socket directory \(self.path): it belongs to "
          + "\(Platform.describeUser(status.owner)), not to you (\(Platform.describeUser(uid))); "
          + "another user may have made it to receive what your clients send; \(remedy)")
    }
    guard status.mode & 0o022 == 0 else {
      throw HostStartError(
        message: "refusing the socket directory \(self.path): its mode "
          + "\(String(status.mode, radix: 8)) lets other users add files to it, so a socket "
          + "there may not be yours; \(remedy), or `chmod 700 \(self.path)`")
    }
  }
}
