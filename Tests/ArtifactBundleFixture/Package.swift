// swift-tools-version: 6.2
// A package that uses trackc's plugins through the prebuilt tool: `ArtifactBundleTests` copies this folder
// beside the plugins package Scripts/artifact-bundle.sh writes (`--package`), into a temporary directory,
// and runs the command plugin in it.
import PackageDescription

let package = Package(
  name: "ArtifactBundleFixture",
  dependencies: [.package(path: "../trackc-plugins")],
  targets: [
    .target(name: "Shop"),
    .target(name: "FixtureTracking"),
  ]
)
