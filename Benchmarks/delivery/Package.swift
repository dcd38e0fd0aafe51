// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The delivery benchmark (run it with bench.sh, release build): track() with the journal against a bare
// write(2) of the same bytes and a bare SQLite WAL insert, the power-loss setting with group commit,
// sustained rates, memory while the collector is down, and opening a journal with a backlog. Its own
// package: it links SQLite (the floor it is compared with), which the runtime does not.
//
// TrackTail (tail.sh) is track()'s latency alone, built twice: against this checkout, and against an
// earlier runtime whose path TRACKC_RUNTIME_PATH gives. A runtime from before identity and context (no
// Sources/TrackcRuntime/Identity) has TrackTail track without them.
let runtimePath = Context.environment["TRACKC_RUNTIME_PATH"] ?? "../.."
let runtimeDirectory = runtimePath.hasPrefix("/") ? runtimePath : Context.packageDirectory + "/" + runtimePath
let before = !FileManager.default.fileExists(atPath: runtimeDirectory + "/Sources/TrackcRuntime/Identity")

let package = Package(
  name: "DeliveryBench",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "trackc", path: runtimePath),
    .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
  ],
  targets: [
    // The system libsqlite3 (apt: libsqlite3-dev), for the SQLite WAL floor only.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .executableTarget(
      name: "DeliveryBench",
      dependencies: [
        "CSQLite",
        .product(name: "TrackcRuntime", package: "trackc"),
        .product(name: "Histogram", package: "hdrhistogram-swift"),
      ]
    ),
    .executableTarget(
      name: "TrackTail",
      dependencies: [.product(name: "TrackcRuntime", package: "trackc")],
      swiftSettings: before ? [.define("TRACKC_BEFORE_IDENTITY")] : []
    ),
  ]
)
