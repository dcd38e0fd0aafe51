import ShopApp
import TrackcRuntime
import UIKit

/// The Shop's entry point on iOS, for the link of Scripts/typecheck-ios.sh (its package is a library that
/// its scripted session and tests drive): trackc started at launch as the app starts it.
@main
final class ShopLaunch: UIResponder, UIApplicationDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    do {
      try ShopApp.start()
    } catch {
      assertionFailure("trackc: \(error)")
    }
    return true
  }
}
