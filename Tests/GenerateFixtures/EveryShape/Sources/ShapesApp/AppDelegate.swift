import ShapesFeature
import ShapesObjCTracking
import ShapesTracking
import TrackcRuntime
import UIKit
import UserNotifications

/// The app as UIKit starts it: trackc started at launch with the generated registry, and every way the
/// app is opened from outside handed to `PendingRoute`, which opens the route's screen once the app is
/// active. Nothing here tracks a handler or a screen: the generated code does.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
  /// Started once, before the first screen appears.
  nonisolated static let tracker: Tracker? = {
    do {
      return try Trackc.start(Tracking.registry, endpoint: URL(string: "https://collector.shapes.example.com")!, writeKey: "shapes-ios") {
        $0.remoteConfiguration = URL(string: "https://collector.shapes.example.com/v1/config")
      }
    } catch {
      assertionFailure("trackc: \(error)")
      return nil
    }
  }()

  /// The route that arrived before the app was ready.
  nonisolated static let pending = PendingRoute<Tracking.Route>(tracker: tracker)

  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    Self.tracker?.setConsent(["analytics": true, "marketing": false])
    UNUserNotificationCenter.current().delegate = self
    RouteShortcut.register(Tracking.Route.shortcuts, when: Set<SignInState>([.signedIn]))
    return true
  }

  func application(
    _ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession, options: UIScene.ConnectionOptions
  ) -> UISceneConfiguration {
    let configuration = UISceneConfiguration(name: nil, sessionRole: connectingSceneSession.role)
    configuration.delegateClass = SceneDelegate.self
    return configuration
  }

  nonisolated func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void
  ) {
    Self.pending.receive(notification: response.notification.request.content.userInfo)
    completionHandler()
  }

  /// The registry of the other interception's plan, as a build that switches plans would hold it.
  static let objcRegistry: any TrackingRegistry = ObjCTracking.registry
}

/// The conditions the plan's shortcuts are offered under.
enum SignInState: String {
  case signedIn = "signed_in"
  case guest
}
