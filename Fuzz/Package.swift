// swift-tools-version: 6.1
// The fuzz targets: one libFuzzer entry point per input trackc reads from outside, each a few lines that
// feed arbitrary bytes through the real code path and check the laws in Tests/TrackcInvariants (reached
// here through the symbolic link Sources/FuzzInvariants), or, for the runtime and the collector, in
// Tests/*/Fuzzed (each file linked into its target's folder). Built by build.sh with libFuzzer and
// AddressSanitizer, never by `swift build` of the main package; run by run.sh. See docs/development/fuzzing.md's
// "Fuzzing and sanitizers".
import PackageDescription

/// Each target, and the module of the main package whose input it reads (the others read TrackcCore's).
let targets: [(name: String, module: String)] = [
  ("lint", "TrackcCore"), ("names", "TrackcCore"), ("registry", "TrackcCore"), ("scan-cache", "TrackcCore"), ("generate", "TrackcCore"),
  ("links", "TrackcCore"), ("bindings", "TrackcCore"), ("adopt", "TrackcCore"),
  ("journal", "TrackcRuntime"), ("remote-config", "TrackcRuntime"), ("collector-request", "TrackcCollector"),
]

// The main package exports only what apps and tools use (the `trackc` executable, TrackcRuntime and the
// plugins; docs/api-stability.md), so the fuzz targets compile the modules they read from the
// main package's own folders, through the symbolic links in Sources/ (the same files, not copies), with
// the same dependencies as Package.swift declares for them.
let package = Package(
  name: "trackc-fuzz",
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2", traits: []),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
  ],
  targets: [
    .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1"),
    .systemLibrary(name: "CZlib", pkgConfig: "zlib"),
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
    .target(name: "TrackcRuntime", dependencies: ["CZlib", "TrackcLinks"], resources: [.copy("PrivacyInfo.xcprivacy")]),
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
    .target(
      name: "FuzzInvariants",
      dependencies: [
        "TrackcCore", "TrackcLinks",
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
      ]
    ),
  ]
    + targets.map { target in
      .executableTarget(name: "fuzz-\(target.name)", dependencies: ["FuzzInvariants", .target(name: target.module)])
    }
)
