import Foundation
import Testing

@testable import Hosting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The default socket's private directory: created 0700, refused when another user could have
/// prepared it.
@Suite struct PrivateSocketDirectoryTests {
  private let least = SocketPermissions(
    socketMode: 0o600, group: nil, directoryMode: 0o700, reason: nil)

  private func mode(_ path: String) -> UInt32 {
    var info = stat()
    return stat(path, &info) == 0 ? UInt32(info.st_mode) & 0o7777 : 0
  }

  /// A fresh temporary directory, removed (with what is in it) after `body`.
  private func withParent(_ body: (String) throws -> Void) throws {
    let parent = HostProcess.makeDirectory()
    defer { try? FileManager.default.removeItem(atPath: parent) }
    try body(parent)
  }

  @Test func createsItOwnerOnlyWhateverTheUmask() throws {
    try self.withParent { parent throws in
      let path = parent + "/storehost"
      let previous = umask(0)
      defer { umask(previous) }
      #expect(try PrivateSocketDirectory(path: path).prepare(permissions: self.least) == .created(mode: 0o700))
      #expect(self.mode(path) == 0o700)
      // Again: it is there as needed.
      #expect(try PrivateSocketDirectory(path: path).prepare(permissions: self.least) == .unchanged)
    }
  }

  @Test func refusesOneOthersMayWriteTo() throws {
    try self.withParent { parent throws in
      let path = parent + "/storehost"
      #expect(mkdir(path, 0o700) == 0 && chmod(path, 0o777) == 0)
      let error = #expect(throws: HostStartError.self) {
        try PrivateSocketDirectory(path: path).prepare(permissions: self.least)
      }
      #expect(error?.message.contains("its mode 777 lets other users add files to it") == true)
      #expect(self.mode(path) == 0o777, "a refused directory is left as it was")
    }
  }

  @Test func refusesASymbolicLinkOrAFile() throws {
    try self.withParent { parent throws in
      let target = parent + "/elsewhere"
      #expect(mkdir(target, 0o700) == 0)
      #expect(symlink(target, parent + "/storehost") == 0)
      let link = #expect(throws: HostStartError.self) {
        try PrivateSocketDirectory(path: parent + "/storehost").prepare(permissions: self.least)
      }
      #expect(link?.message.contains("it is a symbolic link") == true)
      #expect(FileManager.default.createFile(atPath: parent + "/file", contents: Data()))
      let file = #expect(throws: HostStartError.self) {
        try PrivateSocketDirectory(path: parent + "/file").prepare(permissions: self.least)
      }
      #expect(file?.message.contains("it is not a directory") == true)
    }
  }

  @Test func refusesOneAnotherUserOwns() throws {
    guard getuid() == 0 else {
      print("skipped: refusesOneAnotherUserOwns needs root, to give a directory to another user")
      return
    }
    try self.withParent { parent throws in
      let path = parent + "/storehost"
      #expect(mkdir(path, 0o700) == 0 && chown(path, 65534, 65534) == 0)
      let error = #expect(throws: HostStartError.self) {
        try PrivateSocketDirectory(path: path).prepare(permissions: self.least)
      }
      #expect(error?.message.contains("it belongs to ") == true)
      #expect(error?.message.contains("(uid 65534), not to you") == true)
    }
  }

  @Test func setsTheSearchBitsThisRunNeedsAndNarrowsThemAgain() throws {
    try self.withParent { parent throws in
      let path = parent + "/storehost"
      #expect(mkdir(path, 0o700) == 0)
      let wide = SocketPermissions.everyoneCanReach(because: "test")
      #expect(try PrivateSocketDirectory(path: path).prepare(permissions: wide) == .adjusted(fromMode: 0o700, toMode: 0o711))
      #expect(self.mode(path) == 0o711)
      #expect(try PrivateSocketDirectory(path: path).prepare(permissions: self.least) == .adjusted(fromMode: 0o711, toMode: 0o700))
      #expect(self.mode(path) == 0o700)
    }
  }
}
