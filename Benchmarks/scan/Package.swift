// swift-tools-version: 6.1
import PackageDescription

// The scan benchmark (run it with bench.py): `trackc` as users build it, from the root package, and the
// baseline it is compared with, `trackc-parse-bench` (swift-syntax parsing files on one thread, nothing
// else). Its own package, so that the package users depend on carries no benchmark executable; one build
// directory for both, so that swift-syntax is compiled once.
let package = Package(
  name: "ScanBench",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "trackc", path: "../.."),
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
  ],
  targets: [
    .executableTarget(
      name: "trackc-parse-bench",
      dependencies: [
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
      ]
    )
  ]
)
