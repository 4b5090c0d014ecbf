import Foundation
import HTTPTestSupport

/// A running `storeclient inspect`, with the address and token it printed.
final class InspectorProcess: Sendable {
  let process: ClientProcess
  let url: String
  let port: UInt16
  let token: String

  /// Starts `storeclient inspect --socket <path> --listen 127.0.0.1:0` and reads its URL.
  init(socketPath: String, extraArguments: [String] = []) async throws {
    let process = try ClientProcess(
      ["inspect", "--socket", socketPath, "--listen", "127.0.0.1:0"] + extraArguments)
    try await process.waitForLine { $0.contains("http://127.0.0.1:") }
    let line = process.output.lines.first { $0.contains("http://127.0.0.1:") }!
    let url = line.trimmingCharacters(in: .whitespaces)
    guard let components = URLComponents(string: url), let port = components.port,
      let token = components.queryItems?.first(where: { $0.name == "token" })?.value
    else { throw HarnessError("cannot read the inspector's URL from: \(line)") }
    self.process = process
    self.url = url
    self.port = UInt16(port)
    self.token = token
  }

  /// `Host: 127.0.0.1:PORT` and `Authorization: Token …`: what every allowed request carries.
  var credentials: String {
    "Host: 127.0.0.1:\(self.port)\r\nAuthorization: Token \(self.token)\r\n"
  }

  /// Sends a `GET` with the credentials and reads the response.
  func get(_ target: String, headers: String = "") throws -> RawResponse {
    try RawHTTPClient.exchange(
      "GET \(target) HTTP/1.1\r\n\(self.credentials)\(headers)\r\n", port: self.port)
  }

  /// Sends a `POST` of a JSON body with the credentials and reads the response.
  func post(_ target: String, json: String, headers: String = "") throws -> RawResponse {
    try RawHTTPClient.exchange(
      "POST \(target) HTTP/1.1\r\n\(self.credentials)Content-Type: application/json\r\n"
        + "Content-Length: \(json.utf8.count)\r\n\(headers)\r\n\(json)",
      port: self.port)
  }

  func stop() async throws {
    try await self.process.interrupt()
  }
}
