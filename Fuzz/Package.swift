// swift-tools-version: 6.1
// The fuzz targets: one libFuzzer entry point per input trackc reads from outside, each a few lines that
// feed arbitrary bytes through the real code path and check the laws in Tests/TrackcInvariants (reached
// here through the symbolic link Sources/FuzzInvariants), or, for the runtime and the collector, in
// Tests/*/Fuzzed (each file linked into its target's folder). Built by build.sh with libFuzzer and
// AddressSanitizer, never by `swift build` of the main package; run by run.sh. See docs/fuzzing.md's
// "Fuzzing and sanitizers".
import PackageDescription

/// Each target, and the module of the main package whose input it reads (the others read TrackcCore's).
let targets: [(name: String, module: String)] = [
  ("lint", "TrackcCore"), ("names", "TrackcCore"), ("registry", "TrackcCore"), ("scan-cache", "TrackcCore"), ("generate", "TrackcCore"),
  ("links", "TrackcCore"), ("bindings", "TrackcCore"),
  ("journal", "TrackcRuntime"), ("remote-config", "TrackcRuntime"), ("collector-request", "TrackcCollector"),
]

let package = Package(
  name: "trackc-fuzz",
  dependencies: [
    // By path: the fuzzers test the working tree. Named, because a path package's identity is its folder's name.
    .package(name: "trackc", path: ".."),
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
  ],
  targets: [
    .target(
      name: "FuzzInvariants",
      dependencies: [
        .product(name: "TrackcCore", package: "trackc"),
        .product(name: "TrackcRouting", package: "trackc"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
      ]
    )
  ]
    + targets.map { target in
      .executableTarget(name: "fuzz-\(target.name)", dependencies: ["FuzzInvariants", .product(name: target.module, package: "trackc")])
    }
)
