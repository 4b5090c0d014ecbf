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
//   storehost      the daemon          storeclient   the CLI
/// Release builds let the app's executable specialise the generic host and store for its own
/// State and Action (see bench/PROFILE.md).
let crossModule: [SwiftSetting] = [
  .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))
]

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
    .target(name: "Architecture", swiftSettings: crossModule),
    // Links Testing; test targets depend on it so that TestStore failures reach Swift Testing
    // (found by Architecture at run time with dlsym, so Architecture itself never links Testing).
    .target(
      name: "ArchitectureTestSupport",
      linkerSettings: [
        // Test executables do not export their symbols; these two must be visible to dlsym.
        .unsafeFlags(
          [
            "-Xlinker", "--export-dynamic-symbol=architecture_testing_is_running",
            "-Xlinker", "--export-dynamic-symbol=architecture_testing_record_issue",
          ], .when(platforms: [.linux])),
      ]
    ),
    .target(name: "Examples", dependencies: ["Architecture"], swiftSettings: crossModule),
    // epoll, eventfd, <malloc.h> and the _GNU_SOURCE-only calls that Swift's Glibc module does
    // not import, declared from the system's headers so that the compiler checks every call.
    // Header-only (a module map), empty on other platforms.
    .systemLibrary(name: "CSystemLinux"),
    .target(
      name: "Wire",
      dependencies: [.target(name: "CSystemLinux", condition: .when(platforms: [.linux]))],
      swiftSettings: crossModule,
      linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
    .target(
      name: "Hosting",
      dependencies: [
        "Architecture", "Wire", .target(name: "CSystemLinux", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: crossModule),
    .target(name: "ArgumentParsing"),
    .target(
      name: "Remote",
      dependencies: [
        "Architecture", "Wire", .target(name: "CSystemLinux", condition: .when(platforms: [.linux])),
      ]),
    .executableTarget(name: "storehost", dependencies: ["Hosting", "Wire", "Examples", "ArgumentParsing"]),
    .executableTarget(name: "storeclient", dependencies: ["Remote", "Wire", "ArgumentParsing"]),
    .executableTarget(
      name: "ArchitectureBenchmarks", dependencies: ["Architecture"],
    ),
    .executableTarget(name: "WireBenchmarks", dependencies: ["Wire"]),
    .testTarget(
      name: "ArchitectureTests", dependencies: ["Architecture", "ArchitectureTestSupport"]),
    .testTarget(
      name: "ExamplesTests", dependencies: ["Examples", "Architecture", "ArchitectureTestSupport"]),
    .testTarget(name: "WireTests", dependencies: ["Wire"]),
    .testTarget(name: "HostingTests", dependencies: ["Hosting", "Wire", "Examples", "storehost"]),
    .testTarget(
      name: "RemoteTests", dependencies: ["Remote", "Wire", "Examples", "Architecture", "Hosting"]),
    .testTarget(
      name: "storeclientTests", dependencies: ["storeclient", "Remote", "Wire", "ArgumentParsing", "Examples"]),
    .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
  ],
  swiftLanguageModes: [.v6]
)
