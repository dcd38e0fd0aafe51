#if canImport(UIKit)
  import UIKit

  // The small adapter that feeds `PendingRoute` from the app delegate's and the scene's callbacks. The
  // rest (reading, holding, tracking, counting) is plain Swift and tested on Linux; this only unwraps
  // UIKit's types.

  extension PendingRoute {
    /// A universal link (`application(_:continue:restorationHandler:)`, `scene(_:continue:)`); other
    /// activities (Handoff, Spotlight) are not links and return false.
    @discardableResult
    public func receive(userActivity: NSUserActivity) -> Bool {
      guard userActivity.activityType == NSUserActivityTypeBrowsingWeb, let url = userActivity.webpageURL else { return false }
      return receive(url: url)
    }

    /// A home-screen shortcut (`application(_:performActionFor:completionHandler:)`,
    /// `windowScene(_:performActionFor:completionHandler:)`): pass the result to the completion handler.
    @discardableResult
    public func receive(shortcutItem: UIApplicationShortcutItem) -> Bool {
      receive(shortcutType: shortcutItem.type)
    }

    /// What a scene is connected with at a cold start (`scene(_:willConnectTo:options:)`): its URLs, its
    /// universal links and its shortcut. A later route supersedes an earlier one, as at any time.
    @MainActor
    public func receive(connectionOptions: UIScene.ConnectionOptions) {
      for context in connectionOptions.urlContexts { receive(url: context.url) }
      for activity in connectionOptions.userActivities { receive(userActivity: activity) }
      if let item = connectionOptions.shortcutItem { receive(shortcutItem: item) }
    }
  }

  extension RouteShortcut {
    /// Makes the shortcuts offered under `conditions` the app's dynamic shortcuts (call it when a
    /// condition changes, such as a guest and a host profile).
    @MainActor
    public static func register<Condition: RawRepresentable>(_ shortcuts: [RouteShortcut], when conditions: Set<Condition>)
    where Condition.RawValue == String {
      UIApplication.shared.shortcutItems = offered(shortcuts, when: conditions).map {
        UIApplicationShortcutItem(type: $0.type, localizedTitle: $0.title)
      }
    }
  }
#endif
