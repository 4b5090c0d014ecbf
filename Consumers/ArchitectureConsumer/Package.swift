// swift-tools-version: 6.0
import PackageDescription

// A package that uses the Architecture library the ordinary way: a versioned dependency by URL
// and the `Architecture` product, nothing else (no test-support product, no flags). Its tests
// are written as TCA's documentation writes them, with Swift Testing and with XCTest.
//
// The URL is $ARCHITECTURE_PACKAGE_URL, or by default the repository this package sits in
// (two directories up), which must then have a tag of 1.0.0 or later. `Consumers/check.sh`
// builds and tests this package against a temporary clone tagged 1.0.0.

/// Where the library comes from.
let architectureURL =
  Context.environment["ARCHITECTURE_PACKAGE_URL"]
  ?? "file://"
  + Context.packageDirectory.split(separator: "/").dropLast(2).map { "/" + $0 }
  .joined()

/// SwiftPM names a package given by URL after the URL's last path component, lowercased,
/// without `.git`.
let architecturePackage: String = {
  let name = architectureURL.split(separator: "/").last.map { $0.lowercased() } ?? ""
  return name.hasSuffix(".git") ? String(name.dropLast(4)) : name
}()

let package = Package(
  name: "ArchitectureConsumer",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(url: architectureURL, from: "1.0.0")
  ],
  targets: [
    .target(
      name: "CounterFeature",
      dependencies: [.product(name: "Architecture", package: architecturePackage)]
    ),
    .testTarget(
      name: "CounterFeatureTests",
      dependencies: [
        "CounterFeature",
        .product(name: "Architecture", package: architecturePackage),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
