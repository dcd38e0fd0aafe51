// swift-tools-version: 6.1
import PackageDescription

// The collector (ingest) benchmark (run it with bench.py): `trackc` as users build it, from the root package, and
// `trackc-collector-bench`, which reads one batch body with the collector's reader and with Foundation's
// JSON readers side by side. Its own package, so that the package users depend on carries no benchmark
// executable; one build directory for both.
let package = Package(
  name: "IngestBench",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "trackc", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "trackc-collector-bench",
      dependencies: [
        .product(name: "TrackcCollector", package: "trackc"),
        .product(name: "TrackcCore", package: "trackc"),
      ]
    )
  ]
)
