// swift-tools-version: 6.2
import PackageDescription

// Under a sanitizer (Scripts/sanitize.sh sets TRACKC_SANITIZER), the build plugin's fixture and its test are
// left out: to run the plugin, SwiftPM builds its tool, the compiler, a second time for the host
// (swift-syntax included), instrumented, which adds much to a sanitizer's build; and the plugin runs none
// of the code the sanitizers watch. Every ordinary build and test run has them.
let sanitizing = Context.environment["TRACKC_SANITIZER"] != nil

let package = Package(
  name: "trackc",
  platforms: [.macOS(.v13), .iOS(.v16)],
  // What apps and tools use, and nothing else (docs/api-stability.md): the command line, the runtime apps
  // link, and the two plugins. The compiler, the collector and the link reader are modules of this package
  // for the executable and the tests, not products: nothing outside can depend on them.
  products: [
    .executable(name: "trackc", targets: ["trackc"]),
    .library(name: "TrackcRuntime", targets: ["TrackcRuntime"]),
    .plugin(name: "TrackcBuildPlugin", targets: ["TrackcBuildPlugin"]),
    .plugin(name: "TrackcCommandPlugin", targets: ["TrackcCommandPlugin"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    // File descriptors, stat and errno without a per-platform C import (Glibc, Musl, Darwin).
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    // Starting, feeding and reaping the parsing workers, the same on Linux and macOS. Without its
    // Foundation trait: the core links FoundationEssentials only.
    .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2", traits: []),
    // The collector's HTTP server (`trackc collector`, and the server delivery tests start): NIO's
    // HTTP/1 codec, and NIOHTTPCompression for gzip request bodies with a bounded decompressed size.
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
  ],
  targets: [
    // libyaml, through its C API: the event parser gives exact marks for every node.
    .systemLibrary(
      name: "CYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    // The compiler: YAML front end, config model, rules, diagnostics. Works on in-memory inputs.
    // SwiftBasicFormat respaces the rare registry type, written over several lines or with comments, that
    // a generated replacement repeats.
    .target(
      name: "TrackcCore",
      dependencies: [
        "CYAML",
        "TrackcLinks",
        .product(name: "SwiftBasicFormat", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SystemPackage", package: "swift-system"),
        .product(name: "Subprocess", package: "swift-subprocess"),
      ]
    ),
    // zlib, through its C API: gzip for upload bodies and CRC-32 for journal records. A system library
    // on Linux and on every Apple platform, so apps link nothing new.
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    // What apps link: the tracker, the journal, destinations and interception entry points. Foundation
    // and system libraries only (no libyaml, no swift-syntax, no NIO), so that it builds for iOS as well as Linux.
    // Its privacy manifest declares the required-reason APIs it calls (docs/privacy.md).
    .target(name: "TrackcRuntime", dependencies: ["CZlib", "TrackcLinks"], resources: [.copy("PrivacyInfo.xcprivacy")]),
    // How links are split, decoded, classified and hashed: shared by the compiler (which decides
    // statically what two patterns can both match, and hashes literals for the generated matcher) and the
    // runtime (which reads the links apps are opened with). Plain Swift, no Foundation.
    .target(name: "TrackcLinks"),
    // The development collector: a Segment-compatible batch endpoint that checks every event against the
    // tracking plan, with fault injection for tests and demos. Not linked by apps.
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
    // The commands the command line and the plugins' tool share: lint, generate, and the parsing worker
    // both answer (`generate` and `lint` re-run their own executable as `_scan-worker`).
    .target(
      name: "TrackcCommands",
      dependencies: [
        "TrackcCore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),
    // The thin command-line front end.
    .executableTarget(
      name: "trackc",
      dependencies: [
        "TrackcCommands",
        "TrackcCore",
        "TrackcCollector",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),
    // What the plugins run: lint and generate, without the collector. SwiftPM builds a plugin's tool from
    // source, in debug, in the first build of every app that uses the plugin: this one compiles no NIO
    // (docs/development/benchmarks.md has what it costs). Not a product: the plugins are.
    .executableTarget(
      name: "trackc-plugin-tool",
      dependencies: [
        "TrackcCommands",
        "TrackcCore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // SwiftPM plugins: generate at build time, or lint and generate on demand (checked-in code).
    .plugin(name: "TrackcBuildPlugin", capability: .buildTool(), dependencies: ["trackc-plugin-tool"]),
    .plugin(
      name: "TrackcCommandPlugin",
      capability: .command(
        intent: .custom(verb: "trackc", description: "Lint a tracking config, or generate its Swift registry into a target."),
        permissions: [.writeToPackageDirectory(reason: "trackc generate writes the registry into the target's directory.")]
      ),
      dependencies: ["trackc-plugin-tool"]
    ),
    // Fixture paths, golden files, example markers and the hostile-input corpus, shared by the tests.
    .target(
      name: "TrackcTestSupport",
      dependencies: ["TrackcCore"],
      path: "Tests/TrackcTestSupport"
    ),
    // Laws every input must keep (diagnostics inside the input, generated code that parses and reads
    // back, names that round-trip): checked by the tests, and by the fuzz targets in Fuzz/, which reach
    // this folder through a symbolic link.
    .target(
      name: "TrackcInvariants",
      dependencies: [
        "TrackcCore", "TrackcLinks",
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
      ],
      path: "Tests/TrackcInvariants"
    ),
    .testTarget(
      name: "TrackcCoreTests",
      dependencies: [
        "CYAML", "TrackcCore", "TrackcLinks", "TrackcTestSupport", "TrackcInvariants",
        // To read generated code back as syntax.
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
      ]
    ),
    // The crash test's child: tracks into a journal as fast as it can until SIGKILL (`CrashTests`).
    .executableTarget(
      name: "trackc-crash-child",
      dependencies: ["TrackcRuntime"],
      path: "Tests/CrashChild"
    ),
    .testTarget(
      name: "TrackcRuntimeTests",
      // The collector, started in-process on 127.0.0.1, for the HTTP failure-policy and crash tests.
      dependencies: ["TrackcRuntime", "TrackcTestSupport", "trackc-crash-child", "TrackcCollector"]
    ),
    // Starts the collector on 127.0.0.1 and talks to it over real sockets.
    .testTarget(
      name: "TrackcCollectorTests",
      dependencies: [
        "TrackcCollector", "TrackcCore", "TrackcTestSupport",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
      ]
    ),
    // The generator's fixture: a feature module compiled for dynamic replacement, the code trackc generates
    // for it (and for hostile strings), committed as golden files and compiled with warnings as errors,
    // and tests that run it. `GeneratedCodeGoldenTests` keeps the files equal to what trackc generates.
    .target(
      name: "GenerateFixtureFeature",
      path: "Tests/GenerateFixtures/Sources/GenerateFixtureFeature",
      swiftSettings: [.unsafeFlags(["-Xfrontend", "-enable-implicit-dynamic", "-enable-testing"])]
    ),
    // The cross-module fixture: screens in GenerateFixtureCart whose events come from a base class in
    // GenerateFixtureUI, with bindings that reach across (Tests/GenerateFixtures/cross-module.yaml).
    .target(
      name: "GenerateFixtureUI",
      path: "Tests/GenerateFixtures/Sources/GenerateFixtureUI",
      swiftSettings: [.unsafeFlags(["-Xfrontend", "-enable-implicit-dynamic", "-enable-testing"])]
    ),
    .target(
      name: "GenerateFixtureCart",
      dependencies: ["GenerateFixtureUI"],
      path: "Tests/GenerateFixtures/Sources/GenerateFixtureCart",
      swiftSettings: [.unsafeFlags(["-Xfrontend", "-enable-implicit-dynamic", "-enable-testing"])]
    ),
    .target(
      name: "GenerateFixtureTracking",
      dependencies: ["GenerateFixtureFeature", "GenerateFixtureUI", "GenerateFixtureCart", "TrackcRuntime"],
      path: "Tests/GenerateFixtures/Sources/GenerateFixtureTracking",
      swiftSettings: [.unsafeFlags(["-Xfrontend", "-enable-dynamic-replacement-chaining", "-warnings-as-errors"])]
    ),
    // Linux stand-ins of the objc-runtime fixture's view controllers (ObjCApp/Sources/FeedApp imports
    // UIKit), by the same names in a module of the same name, for the tests that call their hooked handlers.
    .target(
      name: "FeedApp",
      path: "Tests/GenerateFixtures/ObjCApp/LinuxStandIn"
    ),
    .testTarget(
      name: "GeneratedCodeTests",
      dependencies: [
        "GenerateFixtureFeature", "GenerateFixtureUI", "GenerateFixtureCart", "GenerateFixtureTracking", "TrackcRuntime",
        "FeedApp",
        // Seeded random values for the route property tests.
        "TrackcTestSupport",
      ]
    ),
    // Runs the built `trackc` executable: exit codes, formats, and hostile input under a memory and time cap;
    // and the plugins' tool, from source and from an artifact bundle.
    .testTarget(
      name: "TrackcCLITests",
      dependencies: ["trackc", "trackc-plugin-tool", "TrackcCore", "TrackcTestSupport"]
    ),
  ]
)

// The build plugin, proven: a target whose registry is generated at every build from its tracking.yaml,
// and used by `BuildPluginTests` (not under a sanitizer: see `sanitizing`).
if !sanitizing {
  package.targets.append(
    .target(
      name: "PluginFixtureTracking",
      dependencies: ["TrackcRuntime"],
      path: "Tests/PluginFixture/Sources/PluginFixtureTracking",
      exclude: ["tracking.yaml"],
      plugins: ["TrackcBuildPlugin"]
    ))
  package.targets.first { $0.name == "GeneratedCodeTests" }?.dependencies.append("PluginFixtureTracking")
}
