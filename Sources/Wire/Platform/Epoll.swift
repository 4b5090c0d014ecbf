#if os(Linux)
  import CSystemLinux
  import Glibc

  /// epoll(7): the event loop's readiness set on Linux, so that each wait costs what is ready
  /// rather than what is registered (poll(2) walks every descriptor on every call). Declared by
  /// `<sys/epoll.h>` through CSystemLinux, so `epoll_event`'s layout (packed on x86-64) is the
  /// C compiler's.
  enum Epoll {
    /// One entry of a wait's result.
    typealias Event = epoll_event

    static let add = EPOLL_CTL_ADD
    static let remove = EPOLL_CTL_DEL
    static let modify = EPOLL_CTL_MOD

    /// The event bits that mean what poll(2)'s bits mean, with poll's values: `EPOLLIN`,
    /// `EPOLLPRI`, `EPOLLOUT`, `EPOLLERR`, `EPOLLHUP`.
    static let pollBits: UInt32 =
      EPOLLIN.rawValue | EPOLLPRI.rawValue | EPOLLOUT.rawValue | EPOLLERR.rawValue
      | EPOLLHUP.rawValue

    /// A new epoll descriptor (close-on-exec), or `-errno`.
    static func create() -> Int32 {
      let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
      return fd >= 0 ? fd : -Glibc.errno
    }

    /// Adds, changes or removes `fd` with `events` (poll(2) bits); returns 0 or `errno`.
    static func control(_ epfd: Int32, _ op: Int32, _ fd: Int32, events: Int16) -> Int32 {
      var event = epoll_event()
      event.events = UInt32(UInt16(bitPattern: events))
      event.data.fd = fd
      return epoll_ctl(epfd, op, fd, &event) == 0 ? 0 : Glibc.errno
    }

    /// Registers `fd` for `events`, or changes its events when `change` (falling back to the
    /// other operation if the kernel's view differs: a descriptor closed and reused).
    static func register(_ epfd: Int32, _ fd: Int32, events: Int16, change: Bool) -> Int32 {
      let code = control(epfd, change ? modify : add, fd, events: events)
      guard code == (change ? ENOENT : EEXIST) else { return code }
      return control(epfd, change ? add : modify, fd, events: events)
    }

    /// Waits; returns the number of events in `buffer`, or `-errno` (`EINTR` reports 0).
    static func wait(
      _ epfd: Int32, into buffer: UnsafeMutableBufferPointer<Event>, timeoutMilliseconds: Int32
    ) -> Int32 {
      let n = epoll_wait(epfd, buffer.baseAddress, Int32(buffer.count), timeoutMilliseconds)
      if n >= 0 { return n }
      let code = Glibc.errno
      return code == EINTR ? 0 : -code
    }

    /// The descriptor and poll(2) bits of event `index` in `buffer`.
    @inline(__always)
    static func event(
      _ index: Int, in buffer: UnsafeMutableBufferPointer<Event>
    ) -> (fd: Int32, events: Int16) {
      let event = buffer[index]
      return (event.data.fd, Int16(truncatingIfNeeded: event.events & Self.pollBits))
    }
  }
#endif
