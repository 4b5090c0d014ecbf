// swift-tools-version: 6.0
// bench/history-cost: what keeping a history costs the host per action, counted in
// instructions under callgrind (see bench/HISTORY.md). A package of its own, so that the
// project's package gains no benchmark target; it builds the project's libraries from ../..
import PackageDescription

let package = Package(
  name: "HistoryCost",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "DistributedArchitecture", path: "../..")],
  targets: [
    .executableTarget(
      name: "HistoryCost",
      dependencies: [
        .product(name: "Hosting", package: "DistributedArchitecture"),
        .product(name: "Remote", package: "DistributedArchitecture"),
        .product(name: "Examples", package: "DistributedArchitecture"),
      ])
  ]
)
