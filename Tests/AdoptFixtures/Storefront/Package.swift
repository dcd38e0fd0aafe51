// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A small app as a team has it before trackc: its feature code calls an analytics SDK (StoreAnalytics, a
// stand-in for Segment's analytics-swift with its call shapes and wire format) in handlers and lifecycle
// methods. The adoption test (Tests/TrackcCLITests/AdoptSessionTests.swift) copies it, runs its scripted
// session against `trackc collector`, runs `trackc adopt --fix` and `trackc generate`, and runs the
// session again: the same events, names, properties and order.

// Feature modules are compiled so that their methods can be replaced; the generated tracking module, so
// that its replacements chain with any others (as in Examples/Shop).
let replaceable: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-enable-implicit-dynamic"])]
let replacing: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-enable-dynamic-replacement-chaining"])]

// Once adopted, the module `trackc generate` writes is part of the app, and so is TrackcRuntime. (SwiftPM
// reads a manifest again only when it changes: the test touches it after generating.)
let adopted = FileManager.default.fileExists(atPath: Context.packageDirectory + "/Sources/StoreTracking/Tracking.swift")
let runtime: [Target.Dependency] = adopted ? ["StoreTracking", .product(name: "TrackcRuntime", package: "trackc")] : []

var targets: [Target] = [
  .target(name: "StoreAnalytics"),
  .target(name: "StoreUI", swiftSettings: replaceable),
  .target(name: "Storefront", dependencies: ["StoreAnalytics", "StoreUI"], swiftSettings: replaceable),
  .executableTarget(name: "StoreSession", dependencies: ["StoreAnalytics", "StoreUI", "Storefront"] + runtime),
]
if adopted {
  targets.append(
    .target(
      name: "StoreTracking", dependencies: ["StoreUI", "Storefront", .product(name: "TrackcRuntime", package: "trackc")],
      resources: [.copy("PrivacyInfo.xcprivacy")], swiftSettings: replacing))
}

let package = Package(
  name: "Storefront",
  platforms: [.macOS(.v13), .iOS(.v16)],
  // The repository's root; the test names its absolute path in the copy it builds.
  dependencies: adopted ? [.package(name: "trackc", path: "../../..")] : [],
  targets: targets
)
