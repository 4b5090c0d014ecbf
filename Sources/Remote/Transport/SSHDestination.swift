/// A host on another machine, as `ssh://[user@]machine[:port][/path/to/socket]` names it:
/// whom `ssh` logs in as and where, and the host's socket path there (`nil`: the default
/// path of the user logged in, as `storeclient` on that machine finds it).
public struct SSHDestination: Sendable, Hashable, CustomStringConvertible {
  /// The user to log in as; `nil` for `ssh`'s own choice (its configuration, else the local
  /// user's name).
  public var user: String?
  /// The machine: a name, an IPv4 address, or an IPv6 address (without brackets).
  public var machine: String
  /// The SSH port; `nil` for `ssh`'s own choice (its configuration, else 22).
  public var port: Int?
  /// The host's socket path on that machine; `nil` for the default there.
  public var socketPath: String?

  /// A destination.
  ///
  /// - Parameters:
  ///   - user: The user to log in as, or `nil`.
  ///   - machine: The machine's name or address.
  ///   - port: The SSH port, or `nil`.
  ///   - socketPath: The socket path on that machine, or `nil` for its default.
  public init(user: String? = nil, machine: String, port: Int? = nil, socketPath: String? = nil) {
    self.user = user
    self.machine = machine
    self.port = port
    self.socketPath = socketPath
  }

  /// Reads `ssh://[user@]machine[:port][/path/to/socket]`.
  ///
  /// ```swift
  /// try SSHDestination(parsing: "ssh://deploy@build.example.com:2222/run/app/host.sock")
  /// ```
  ///
  /// - Parameter text: The URL.
  /// - Throws: ``HostAddressError`` saying what is wrong.
  public init(parsing text: String) throws(HostAddressError) {
    guard text.hasPrefix("ssh://") else {
      throw HostAddressError("an SSH address starts with 'ssh://'")
    }
    let rest = text.dropFirst("ssh://".count)
    let authority = rest.prefix { $0 != "/" }
    let path = rest.dropFirst(authority.count)
    var hostPort = authority
    if let at = authority.lastIndex(of: "@") {
      let user = authority[..<at]
      guard !user.isEmpty else { throw HostAddressError("the user before '@' is empty") }
      self.user = String(user)
      hostPort = authority[authority.index(after: at)...]
    } else {
      self.user = nil
    }
    var portText: Substring?
    if hostPort.first == "[" {
      guard let close = hostPort.firstIndex(of: "]") else {
        throw HostAddressError("an IPv6 address opened with '[' needs its ']'")
      }
      self.machine = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
      let after = hostPort[hostPort.index(after: close)...]
      if !after.isEmpty {
        guard after.first == ":" else {
          throw HostAddressError("only ':port' may follow an IPv6 address's ']'")
        }
        portText = after.dropFirst()
      }
    } else if let colon = hostPort.lastIndex(of: ":") {
      self.machine = String(hostPort[..<colon])
      portText = hostPort[hostPort.index(after: colon)...]
    } else {
      self.machine = String(hostPort)
    }
    guard !self.machine.isEmpty else { throw HostAddressError("it names no machine") }
    guard !self.machine.hasPrefix("-") else {
      throw HostAddressError("a machine name cannot start with '-'")
    }
    if let portText {
      guard let port = Int(portText), (1...65535).contains(port),
        portText.allSatisfy(\.isNumber)
      else {
        throw HostAddressError("the port must be a number from 1 to 65535, not '\(portText)'")
      }
      self.port = port
    } else {
      self.port = nil
    }
    self.socketPath = path.isEmpty || path == "/" ? nil : String(path)
  }

  /// The destination as a URL: `ssh://deploy@build.example.com:2222/run/app/host.sock`.
  public var description: String {
    "ssh://" + self.login + (self.socketPath ?? "")
  }

  /// `user@machine:port`, as far as given: whom `ssh` logs in as, where.
  public var login: String {
    let machine = self.machine.contains(":") ? "[\(self.machine)]" : self.machine
    return (self.user.map { "\($0)@" } ?? "") + machine + (self.port.map { ":\($0)" } ?? "")
  }

  /// `ssh`'s arguments for it before the remote command: `[-l user] [-p port] -- machine`
  /// (`--`: the machine is never read as an option).
  var sshArguments: [String] {
    var arguments: [String] = []
    if let user { arguments += ["-l", user] }
    if let port { arguments += ["-p", String(port)] }
    return arguments + ["--", self.machine]
  }
}

/// Why a host address (`--host`, `STOREHOST_HOST`) could not be read.
public struct HostAddressError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong with it.
  public var message: String

  /// An error saying `message`.
  ///
  /// - Parameter message: What is wrong.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { self.message }
}
