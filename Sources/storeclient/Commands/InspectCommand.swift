import ArgumentParsing
import HTTPServing
import Remote
import Synchronization

/// `storeclient inspect`: a live web page for the host — state, actions, time travel,
/// dispatch and figures — served on the loopback interface, with a token in the URL.
struct InspectCommand: ClientCommand {
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient inspect",
      abstract: "Serve a live web inspector of the host on this machine's loopback interface.",
      discussion: """
        Open the printed URL in a browser: the scopes and their live state (changed values \
        flash), the actions the host reduced with the change each made (click one to see the \
        state at its revision), a box to send an action to a writable scope, and charts of \
        the host's figures. The page runs in this process, which keeps one connection to the \
        host and reconnects when the host restarts.

        Only this machine can connect, and only with the token in the URL (it is kept in a \
        cookie by the first page that uses it); requests naming another host are refused. \
        Stop with Ctrl-C.
        """,
      options: [
        CommonOptions.socket,
        .option(
          "listen", value: "address:port",
          help: "Where to serve the page: a loopback address and a port, 0 for any free one.",
          default: "127.0.0.1:0"),
      ])
  }

  var socketPath: String
  var listen: ListenAddress

  init(_ arguments: ParsedArguments, socketPath: String) throws(UsageError) {
    self.socketPath = socketPath
    self.listen = try arguments.value("listen").map(ListenAddress.init(parsing:)) ?? .default
  }

  func run(console: Console) async throws(CommandFailure) {
    let link = HostLink(
      socketPath: self.socketPath, clientName: "storeclient-inspect/\(StoreClient.version)")
    let info: HostInfo
    do {
      info = try await link.start()
    } catch {
      throw CommandFailure(error)
    }
    let inspector = Inspector(socketPath: self.socketPath, link: link)
    let server: HTTPServer
    let routes: ServerRoutes
    do {
      routes = ServerRoutes()
      let configuration = HTTPServerConfiguration(
        address: self.listen.address, port: self.listen.port)
      server = try HTTPServer.start(configuration) { request, responder in
        routes.handle(request, responder)
      }
    } catch {
      await link.stop()
      throw CommandFailure(error.description)
    }
    let access = InspectorAccess(address: self.listen.address, port: server.port)
    routes.set(InspectorRoutes(access: access, inspector: inspector))
    console.print("Inspecting \(info.app) on \(self.socketPath); open this URL in a browser:")
    console.print("  \(access.url)")
    console.print("(The token in it is the key to the page: keep it to yourself.) Ctrl-C stops.")
    await inspector.run()
    server.stop()
  }
}

/// The routes, set once the server knows its port (the token and the `Host` check need it);
/// until then every request is answered `503`.
final class ServerRoutes: Sendable {
  private let routes = Mutex<InspectorRoutes?>(nil)

  func set(_ routes: InspectorRoutes) {
    self.routes.withLock { $0 = routes }
  }

  func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
    guard let routes = self.routes.withLock({ $0 }) else {
      return responder.respond(.text(.serviceUnavailable, "Starting; try again in a moment."))
    }
    routes.handle(request, responder)
  }
}
