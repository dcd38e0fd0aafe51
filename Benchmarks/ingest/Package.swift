// swift-tools-version: 6.1
import PackageDescription

// The collector (ingest) benchmark (run it with bench.py): `trackc-collector-bench` reads one batch body
// with the collector's reader and with Foundation's JSON readers side by side. The collector's reader is
// not a product of the root package (docs/api-stability.md), so this package compiles the modules it
// needs from the root's own folders, through the symbolic links in Sources/ (the same files), with the
// dependencies the root's Package.swift declares for them; `trackc` itself is built in the root package.
let package = Package(
  name: "IngestBench",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2", traits: []),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
  ],
  targets: [
    .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1"),
    .target(name: "TrackcLinks"),
    .target(
      name: "TrackcCore",
      dependencies: [
        "CYAML", "TrackcLinks",
        .product(name: "SwiftBasicFormat", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SystemPackage", package: "swift-system"),
        .product(name: "Subprocess", package: "swift-subprocess"),
      ]
    ),
    .target(
      name: "TrackcCollector",
      dependencies: [
        "TrackcCore",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
        .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),
    .executableTarget(name: "trackc-collector-bench", dependencies: ["TrackcCollector", "TrackcCore"]),
  ]
)
