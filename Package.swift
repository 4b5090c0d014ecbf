// swift-tools-version: 6.0
import PackageDescription

// The Composable Architecture, distributed across processes.
//
//   Architecture   the TCA core (reducers, effects, store, scoping, TestStore, dependencies)
//   Examples       the demo features (counter, todos, shop) shared by host, client and tests
//   Wire           framing, JSON, JSON Patch, protocol messages, Unix sockets (no Architecture)
//   Hosting        the host runtime: serves scopes of a root Store over a Unix socket
//   Remote         the client runtime: RemoteStore, a scoped store in another process
//   ArgumentParsing  hand-written command-line parsing and help, shared by the two tools
//   HTTPServing    a loopback HTTP/1.1 server (parser, keep-alive, SSE) for storeclient inspect
//   NATS           a NATS and JetStream client on Wire's event loop (the journal's replication)
//   storehost      the daemon          storeclient   the CLI
//
// No target has unsafe flags: SwiftPM refuses them in a package used as a dependency. Release
// speed across modules comes from `@inlinable` hot paths instead (bench/PROFILE.md), and test
// targets need only `Architecture` to report TestStore failures (it finds XCTest and Swift
// Testing at run time).

let package = Package(
  name: "DistributedArchitecture",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Architecture", targets: ["Architecture"]),
    .library(name: "Wire", targets: ["Wire"]),
    .library(name: "Hosting", targets: ["Hosting"]),
    .library(name: "Remote", targets: ["Remote"]),
    .library(name: "Examples", targets: ["Examples"]),
    .executable(name: "storehost", targets: ["storehost"]),
    .executable(name: "storeclient", targets: ["storeclient"]),
  ],
  targets: [
    .target(name: "Architecture"),
    .target(name: "Examples", dependencies: ["Architecture"]),
    // epoll, eventfd, <malloc.h> and the _GNU_SOURCE-only calls that Swift's Glibc module does
    // not import, declared from the system's headers so that the compiler checks every call.
    // Header-only (a module map), empty on other platforms.
    .systemLibrary(name: "CSystemLinux"),
    .target(
      name: "Wire",
      dependencies: [.target(name: "CSystemLinux", condition: .when(platforms: [.linux]))],
      linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
    .target(
      name: "Hosting",
      dependencies: [
        "Architecture", "Wire", .target(name: "CSystemLinux", condition: .when(platforms: [.linux])),
      ]),
    .target(name: "ArgumentParsing"),
    // A loopback HTTP/1.1 server with Server-Sent Events, for storeclient's web inspector; no
    // dependency, so that the fuzz target can build its request parser alone.
    .target(name: "HTTPServing"),
    // A raw TCP client for the tests of the HTTP server and of the inspector.
    .target(name: "HTTPTestSupport"),
    // A NATS client (core protocol and the JetStream API) on Wire's event loop, for a host
    // that replicates its journal to JetStream.
    .target(name: "NATS", dependencies: ["Wire"]),
    // Real nats-server processes (one, or a 3-node JetStream cluster on loopback) for the tests
    // and benchmarks of the NATS client and of replication.
    .target(name: "NATSTestSupport", dependencies: ["NATS", "Wire"]),
    .target(
      name: "Remote",
      dependencies: [
        "Architecture", "Wire", .target(name: "CSystemLinux", condition: .when(platforms: [.linux])),
      ]),
    .executableTarget(name: "storehost", dependencies: ["Hosting", "Wire", "Examples", "ArgumentParsing"]),
    .executableTarget(
      name: "storeclient", dependencies: ["Remote", "Wire", "ArgumentParsing", "HTTPServing"]),
    .executableTarget(
      name: "ArchitectureBenchmarks", dependencies: ["Architecture"],
    ),
    .executableTarget(name: "WireBenchmarks", dependencies: ["Wire"]),
    .executableTarget(name: "NATSBenchmarks", dependencies: ["NATS", "NATSTestSupport", "Wire"]),
    // A stateful protocol fuzzer: many adversarial clients against a running storehost
    // (Fuzz/run-protocol.sh).
    .executableTarget(name: "ProtocolFuzz", dependencies: ["Wire"]),
    .executableTarget(
      name: "DurabilityBenchmarks", dependencies: ["Hosting", "Examples", "Wire", "Architecture"]),
    .testTarget(name: "ArchitectureTests", dependencies: ["Architecture"]),
    .testTarget(name: "ExamplesTests", dependencies: ["Examples", "Architecture"]),
    .testTarget(name: "WireTests", dependencies: ["Wire"]),
    .testTarget(name: "HostingTests", dependencies: ["Hosting", "Wire", "Examples", "storehost"]),
    .testTarget(
      name: "RemoteTests", dependencies: ["Remote", "Wire", "Examples", "Architecture", "Hosting"]),
    .testTarget(
      name: "storeclientTests",
      dependencies: [
        "storeclient", "Remote", "Wire", "ArgumentParsing", "Examples", "Hosting", "HTTPServing",
        "HTTPTestSupport",
      ]),
    .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
    .testTarget(name: "NATSTests", dependencies: ["NATS", "NATSTestSupport", "Wire"]),
    .testTarget(name: "HTTPServingTests", dependencies: ["HTTPServing", "HTTPTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
