import UIKit

/// Starts trackc at launch, before the first screen appears: the registry the build plugin generated
/// into this target (`Tracking`), and the collector. Nothing else in the app tracks anything: the
/// runtime replaces each handler the plan maps (`interception: objc-runtime`) and reports the screens'
/// appearance.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    Analytics.start()
    return true
  }

  func application(
    _ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession, options: UIScene.ConnectionOptions
  ) -> UISceneConfiguration {
    let configuration = UISceneConfiguration(name: "Default Configuration", sessionRole: connectingSceneSession.role)
    configuration.delegateClass = SceneDelegate.self
    return configuration
  }
}
