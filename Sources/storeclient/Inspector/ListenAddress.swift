import ArgumentParsing
import HTTPServing

/// Where `storeclient inspect` serves its page: a loopback address and a port (0 for a free
/// one), read from `--listen`.
struct ListenAddress: Sendable, Hashable {
  /// The address, always on the loopback network.
  var address: IPv4Address
  /// The port, 0 for one the system chooses.
  var port: UInt16

  /// The default: `127.0.0.1` and a free port.
  static let `default` = ListenAddress(address: .loopback, port: 0)

  init(address: IPv4Address, port: UInt16) {
    self.address = address
    self.port = port
  }

  /// Reads `ADDRESS[:PORT]`, `localhost[:PORT]` or `:PORT`; anything that is not on the
  /// loopback network is refused, so that no other machine can reach the inspector.
  ///
  /// - Parameter text: The value of `--listen`.
  /// - Throws: A ``UsageError`` saying what is wrong and what to write instead.
  init(parsing text: String) throws(UsageError) {
    func invalid(_ why: String) -> UsageError {
      UsageError("The value '\(text)' is invalid for '--listen <address:port>': \(why)")
    }
    if text.hasPrefix("[") {
      throw invalid("IPv6 is not supported; use 127.0.0.1:PORT")
    }
    var host = Substring(text)
    var port: UInt16 = 0
    if let colon = text.lastIndex(of: ":") {
      host = text[..<colon]
      let portText = text[text.index(after: colon)...]
      guard let value = UInt16(portText), portText.allSatisfy(\.isASCII) else {
        throw invalid("the port must be a number from 0 (any free port) to 65535")
      }
      port = value
    }
    let address: IPv4Address
    if host.isEmpty || host.lowercased() == "localhost" {
      address = .loopback
    } else if let parsed = IPv4Address(String(host)) {
      address = parsed
    } else {
      throw invalid("expected an address such as 127.0.0.1:8080")
    }
    guard address.isLoopback else {
      throw invalid(
        "the inspector serves the loopback interface only (127.0.0.1 or localhost), so that no "
          + "other machine can drive the store; reach it from elsewhere through an SSH tunnel")
    }
    self.init(address: address, port: port)
  }
}
