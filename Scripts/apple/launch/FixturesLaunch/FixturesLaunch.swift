import Foundation
import GenerateFixtureTracking
import PluginFixtureTracking
import TrackcRuntime
import UIKit

/// The entry point of the generator's fixtures linked as one iOS app, for the link of
/// Scripts/typecheck-ios.sh: trackc started with each plan's registry in turn, then UIKit's run loop.
@main
enum FixturesLaunch {
  @MainActor
  static func main() {
    let registries: [any TrackingRegistry] = [
      FixtureTracking.registry, CrossModuleTracking.registry, HostileTracking.registry, ObjCTracking.registry,
      PluginFixture.registry,
    ]
    for registry in registries {
      _ = Tracker(registry: registry, destinations: [], journal: .inMemory)
    }
    _ = UIApplicationMain(CommandLine.argc, CommandLine.unsafeArgv, nil, nil)
  }
}
