import GenerateFixtureTracking
import PluginFixtureTracking
import TrackcRuntime
import UIKit

/// The entry point of the generator's fixtures linked as one iOS app, for the link of
/// Scripts/typecheck-ios.sh: a tracker made with each plan's registry at launch.
@main
final class FixturesLaunch: UIResponder, UIApplicationDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    let registries: [any TrackingRegistry] = [
      FixtureTracking.registry, CrossModuleTracking.registry, HostileTracking.registry, ObjCTracking.registry,
      PluginFixture.registry,
    ]
    for registry in registries {
      _ = Tracker(registry: registry, destinations: [], journal: .inMemory)
    }
    return true
  }
}
