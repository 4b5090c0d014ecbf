#if canImport(Darwin)
  import Darwin

  // What differs on Darwin; the logic that uses it is in Posix.swift.

  extension Posix {
    /// No per-call flag: ``configureNewSocket(_:)`` sets `SO_NOSIGPIPE` on every socket.
    static let sendFlags: Int32 = 0

    /// Darwin has no `SOCK_NONBLOCK`/`SOCK_CLOEXEC`: ``configureNewSocket(_:)`` sets them.
    static let streamSocketType = SOCK_STREAM
    /// `SOCK_STREAM` as `getsockopt(SO_TYPE)` reports it.
    static let streamType = SOCK_STREAM

    /// Makes a new socket non-blocking and close-on-exec, and turns a vanished peer into
    /// `EPIPE` instead of `SIGPIPE` (`SO_NOSIGPIPE`).
    static func configureNewSocket(_ fd: Int32) {
      Self.makeNonBlocking(fd)
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Darwin's `sockaddr_un` carries its length.
    @inline(__always)
    static func setAddressLength(_ address: inout sockaddr_un, _ length: socklen_t) {
      address.sun_len = UInt8(truncatingIfNeeded: length)
    }

    /// Darwin has no eventfd: the caller uses a pipe.
    static func makeEventFD() -> Int32? { nil }

    /// Binds `fd` to `path` so that the socket file has exactly `mode` from the moment it exists.
    ///
    /// Darwin creates the file with `0777 & ~umask` and ignores a socket's own mode, so the
    /// umask is narrowed to `mode` around `bind` (never briefly wider than `mode`); the `chmod`
    /// afterwards only restores bits the umask removed. Returns 0 or an errno.
    static func bindUnix(_ fd: Int32, path: String, mode: UInt32) -> Int32 {
      let previous = umask(mode_t(~mode & 0o777))
      let result = Self.withAddress(path) { Darwin.bind(fd, $0, $1) }
      let code = Darwin.errno
      _ = umask(previous)
      guard result == 0 else { return code }
      guard chmod(path, mode_t(mode)) == 0 else { return Darwin.errno }
      return 0
    }

    /// One `accept(2)`, the new descriptor then configured like a new socket; or -1.
    static func acceptNonBlocking(_ fd: Int32) -> Int32 {
      let client = Darwin.accept(fd, nil, nil)
      if client >= 0 { Self.configureNewSocket(client) }
      return client
    }

    /// The credentials of the process at the other end, via `getpeereid` and `LOCAL_PEERPID`.
    static func peerCredentials(_ fd: Int32) -> PeerCredentials? {
      var uid: uid_t = 0
      var gid: gid_t = 0
      guard getpeereid(fd, &uid, &gid) == 0 else { return nil }
      var pid: pid_t = 0
      var length = socklen_t(MemoryLayout<pid_t>.size)
      let hasPID = getsockopt(fd, SOL_LOCAL, LOCAL_PEERPID, &pid, &length) == 0
      return PeerCredentials(
        pid: hasPID ? pid : nil, uid: uid, gid: gid, groups: Self.peerGroups(fd))
    }

    /// The groups of the process at the other end, from its `xucred` (`LOCAL_PEERCRED`: at
    /// most 16, the effective group first); empty if it cannot be read.
    static func peerGroups(_ fd: Int32) -> [UInt32] {
      var credentials = xucred()
      var length = socklen_t(MemoryLayout<xucred>.size)
      guard getsockopt(fd, SOL_LOCAL, LOCAL_PEERCRED, &credentials, &length) == 0,
        credentials.cr_version == XUCRED_VERSION
      else { return [] }
      let count = max(0, min(Int(credentials.cr_ngroups), 16))
      return withUnsafeBytes(of: credentials.cr_groups) { raw in
        Array(raw.bindMemory(to: gid_t.self).prefix(count))
      }
    }

    /// Starts a named thread running `body`.
    static func spawnThread(name: String, _ body: @escaping @Sendable () -> Void) -> ThreadHandle {
      let box = Unmanaged.passRetained(ThreadBody(name: name, body: body)).toOpaque()
      var thread: pthread_t?
      let result = pthread_create(
        &thread, nil,
        { argument in
          // Optional in the SDK's current declaration, not in its older Swift-compatible one:
          // written to compile against both (the box is never nil).
          Posix.runThread((argument as UnsafeMutableRawPointer?).unsafelyUnwrapped)
          return nil
        }, box)
      precondition(result == 0, "pthread_create failed: \(Self.errorDescription(result))")
      return thread!
    }

    /// Names the calling thread (Darwin names only the calling thread).
    static func nameCurrentThread(_ name: String) { _ = pthread_setname_np(name) }

    /// An identifier of the calling thread, comparable with another thread's.
    static func currentThreadID() -> UInt { UInt(bitPattern: pthread_self()) }
  }
#endif
