#if canImport(Glibc)
  import CSystemLinux
  import Glibc

  // What differs on Linux; the logic that uses it is in Posix.swift. `eventfd`, `accept4`,
  // `pthread_setname_np` and `struct ucred` come from CSystemLinux: the Glibc module does not
  // import them.

  extension Posix {
    /// `MSG_NOSIGNAL`: a peer that has gone away yields `EPIPE` instead of killing us with
    /// `SIGPIPE`.
    static let sendFlags = Int32(MSG_NOSIGNAL)

    /// Non-blocking and close-on-exec from the start, with no window for a fork to inherit it.
    static let streamSocketType =
      Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)

    /// `SOCK_STREAM` as `getsockopt(SO_TYPE)` reports it.
    static let streamType = Int32(SOCK_STREAM.rawValue)

    /// Nothing to do: ``streamSocketType`` and `accept4` set the flags, and ``sendFlags``
    /// suppresses `SIGPIPE` per call.
    @inline(__always)
    static func configureNewSocket(_ fd: Int32) {}

    /// Linux's `sockaddr_un` has no length field.
    @inline(__always)
    static func setAddressLength(_ address: inout sockaddr_un, _ length: socklen_t) {}

    /// An eventfd for the loop's wakeup, or `nil` (the caller then uses a pipe).
    static func makeEventFD() -> Int32? {
      let fd = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
      return fd >= 0 ? fd : nil
    }

    /// Binds `fd` to `path` so that the socket file has exactly `mode` from the moment it exists.
    ///
    /// Linux creates the file with the socket inode's mode masked by the umask, so `fchmod`
    /// before `bind` makes the mode effective atomically (never briefly wider than `mode`); the
    /// `chmod` afterwards only restores bits the umask removed. Returns 0 or an errno.
    static func bindUnix(_ fd: Int32, path: String, mode: UInt32) -> Int32 {
      guard fchmod(fd, mode_t(mode)) == 0 else { return Glibc.errno }
      let result = Self.withAddress(path) { Glibc.bind(fd, $0, $1) }
      guard result == 0 else { return Glibc.errno }
      guard chmod(path, mode_t(mode)) == 0 else { return Glibc.errno }
      return 0
    }

    /// One `accept4(2)`: the new descriptor already non-blocking and close-on-exec, or -1.
    @inline(__always)
    static func acceptNonBlocking(_ fd: Int32) -> Int32 {
      accept4(fd, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
    }

    /// The credentials of the process at the other end, via `SO_PEERCRED`.
    static func peerCredentials(_ fd: Int32) -> PeerCredentials? {
      var credentials = ucred()
      var length = socklen_t(MemoryLayout<ucred>.size)
      guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
        length == socklen_t(MemoryLayout<ucred>.size)
      else { return nil }
      return PeerCredentials(
        pid: credentials.pid, uid: credentials.uid, gid: credentials.gid,
        groups: Self.peerGroups(fd))
    }

    /// The supplementary groups of the process at the other end, via `SO_PEERGROUPS` (Linux
    /// 4.13 and later; empty before). The first call has room for 32 groups; when the peer has
    /// more, the kernel says how many (`ERANGE`) and a second call reads them all.
    static func peerGroups(_ fd: Int32) -> [UInt32] {
      var capacity = 32
      for _ in 0..<2 {
        var groups = [gid_t](repeating: 0, count: capacity)
        var length = socklen_t(capacity * MemoryLayout<gid_t>.size)
        let result = groups.withUnsafeMutableBytes {
          getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, $0.baseAddress, &length)
        }
        let count = Int(length) / MemoryLayout<gid_t>.size
        if result == 0 { return Array(groups.prefix(count)) }
        guard Glibc.errno == ERANGE, count > capacity else { return [] }
        capacity = count
      }
      return []
    }

    /// Starts a named thread running `body`.
    static func spawnThread(name: String, _ body: @escaping @Sendable () -> Void) -> ThreadHandle {
      let box = Unmanaged.passRetained(ThreadBody(name: name, body: body)).toOpaque()
      var thread = pthread_t()
      let result = pthread_create(
        &thread, nil,
        { argument in
          Posix.runThread(argument.unsafelyUnwrapped)
          return nil
        }, box)
      precondition(result == 0, "pthread_create failed: \(Self.errorDescription(result))")
      return thread
    }

    /// Names the calling thread; Linux keeps the first 15 bytes.
    static func nameCurrentThread(_ name: String) {
      _ = pthread_setname_np(pthread_self(), String(decoding: name.utf8.prefix(15), as: UTF8.self))
    }

    /// An identifier of the calling thread, comparable with another thread's.
    static func currentThreadID() -> UInt { UInt(pthread_self()) }
  }
#endif
