import ArgumentParsing
import HTTPServing
import Remote
import Wire

/// `storeclient metrics`: the host's `_host` figures for Prometheus, on a loopback HTTP
/// endpoint a scraper (or a node exporter's proxy) reads.
struct MetricsCommand: ClientCommand {
  static var spec: CommandSpec {
    CommandSpec(
      name: "storeclient metrics",
      abstract: "Serve the host's figures in Prometheus's text format on this machine's loopback interface.",
      discussion: """
        GET /metrics answers with the host's _host figures read at that moment: connections \
        (also by user and role), subscriptions, revision, actions reduced and sent by clients, \
        bytes in and out, uptime — named storehost_*, counters ending in _total, in seconds \
        and bytes. While the host cannot be reached, storehost_up is 0 and nothing else is \
        served; the connection is made again when the host is back. Read-only: nothing can be \
        sent through it. Stop with Ctrl-C.
        """,
      options: CommonOptions.endpoint + [
        .option(
          "listen", value: "address:port",
          help: "Where to serve: a loopback address and a port, 0 for any free one.",
          default: "127.0.0.1:9464"),
      ])
  }

  var endpoint: HostEndpoint
  var listen: ListenAddress

  /// Prometheus's registry of default ports lists 9464 for exporters of this kind.
  static let defaultListen = ListenAddress(address: .loopback, port: 9464)

  init(_ arguments: ParsedArguments, endpoint: HostEndpoint) throws(UsageError) {
    self.endpoint = endpoint
    self.listen = try arguments.value("listen").map(ListenAddress.init(parsing:)) ?? Self.defaultListen
  }

  func run(console: Console) async throws(CommandFailure) {
    let link = HostLink(
      transport: try self.endpoint.transport(),
      clientName: "storeclient-metrics/\(StoreClient.version)")
    let info: HostInfo
    do {
      info = try await link.start()
    } catch {
      throw CommandFailure(error)
    }
    let app = info.app
    let server: HTTPServer
    do {
      let configuration = HTTPServerConfiguration(
        address: self.listen.address, port: self.listen.port)
      server = try HTTPServer.start(configuration) { request, responder in
        Self.handle(request, responder, link: link, app: app)
      }
    } catch {
      await link.stop()
      throw CommandFailure(error.description)
    }
    console.print("Serving the figures of \(app) on \(self.endpoint) for Prometheus at:")
    console.print("  http://\(self.listen.address):\(server.port)/metrics")
    console.print("Ctrl-C stops.")
    // The link reconnects by itself; its events are read so that none pile up.
    for await _ in link.events {}
    server.stop()
  }

  /// Answers one request (on the HTTP server's thread: the reading goes to a task).
  private static func handle(
    _ request: HTTPRequest, _ responder: HTTPResponder, link: HostLink, app: String
  ) {
    guard request.method == "GET" || request.method == "HEAD" else {
      var response = HTTPResponse.text(.methodNotAllowed, "Only GET and HEAD are served.")
      response.headers.add("Allow", "GET, HEAD")
      return responder.respond(response)
    }
    switch request.path {
    case "/metrics":
      Task {
        let figures = try? await link.state(of: "_host").state
        let text = PrometheusExposition.text(figures: figures, app: figures == nil ? nil : app)
        responder.respond(
          HTTPResponse(
            status: .ok, headers: ["Content-Type": PrometheusExposition.contentType],
            body: Array(text.utf8)))
      }
    case "/":
      responder.respond(.text(.ok, "The host's figures are at /metrics (Prometheus text format)."))
    default:
      responder.respond(.text(.notFound, "No such path: \(request.path); the figures are at /metrics."))
    }
  }
}
