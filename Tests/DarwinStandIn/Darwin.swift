// The stand-in's Swift overlay: what the real `Darwin` module adds in Swift on top of the C
// library (the Swift project's stdlib/public/Platform/Platform.swift, shared with `Glibc`:
// compare the Glibc.swiftinterface of this toolchain), for the names Wire's shim uses.
@_exported import CDarwin

public var errno: Int32 {
  get { __error().pointee }
  set { __error().pointee = newValue }
}

public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { fatalError("type-checking only") }
public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 {
  fatalError("type-checking only")
}
public func fcntl(_ fd: Int32, _ cmd: Int32, _ ptr: UnsafeMutableRawPointer) -> Int32 {
  fatalError("type-checking only")
}

public func ioctl(_ fd: CInt, _ request: UInt, _ value: CInt) -> CInt {
  fatalError("type-checking only")
}
public func ioctl(_ fd: CInt, _ request: UInt, _ ptr: UnsafeMutableRawPointer) -> CInt {
  fatalError("type-checking only")
}

// time.h's `#define CLOCK_MONOTONIC _CLOCK_MONOTONIC`, as Swift on Darwin imports it.
public var CLOCK_MONOTONIC: clockid_t { _CLOCK_MONOTONIC }

public var S_IFMT: mode_t { mode_t(0o170000) }
public var S_IFSOCK: mode_t { mode_t(0o140000) }
public var S_IFREG: mode_t { mode_t(0o100000) }
public var S_IFDIR: mode_t { mode_t(0o040000) }

// sys/signal.h's `#define SIG_IGN (void (*)(int))1`, as the overlay declares it.
public var SIG_IGN: sig_t { unsafeBitCast(1, to: sig_t.self) }
