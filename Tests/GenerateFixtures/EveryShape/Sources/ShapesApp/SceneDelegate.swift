import ShapesFeature
import ShapesTracking
import SwiftUI
import TrackcRuntime
import UIKit

/// The scene: what it is connected with at a cold start, links and shortcuts while it runs, and the
/// route consumed as it becomes active.
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
    guard let scene = scene as? UIWindowScene else { return }
    let window = UIWindow(windowScene: scene)
    window.rootViewController = UINavigationController(rootViewController: CatalogViewController())
    window.makeKeyAndVisible()
    self.window = window
    AppDelegate.pending.receive(connectionOptions: connectionOptions)
  }

  func scene(_ scene: UIScene, openURLContexts contexts: Set<UIOpenURLContext>) {
    for context in contexts { AppDelegate.pending.receive(url: context.url) }
  }

  func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {
    AppDelegate.pending.receive(userActivity: userActivity)
  }

  func windowScene(
    _ windowScene: UIWindowScene, performActionFor shortcutItem: UIApplicationShortcutItem, completionHandler: @escaping (Bool) -> Void
  ) {
    completionHandler(AppDelegate.pending.receive(shortcutItem: shortcutItem))
  }

  func sceneDidBecomeActive(_ scene: UIScene) {
    guard let route = AppDelegate.pending.consume(), let navigation = window?.rootViewController as? UINavigationController else { return }
    navigation.pushViewController(screen(for: route), animated: true)
  }

  /// Every route of the plan, and the screen it opens.
  func screen(for route: Tracking.Route) -> UIViewController {
    switch route {
    case .product(let id, let ref):
      return ProductViewController(id: id, ref: ref)
    case .order(let id, let tab):
      return CheckoutFlow.PaymentViewController(id: id, tab: CheckoutFlow.PaymentViewController.Tab(rawValue: tab.rawValue) ?? .items)
    case .archive(let year, let name):
      return UIHostingController(rootView: OrdersView(year: year, name: name))
    case .catalog:
      return CatalogViewController()
    case .files:
      return ProductListViewController(style: .plain)
    case .help:
      return accountScreen()
    case .cart:
      return UIHostingController(rootView: CartView(model: CartModel()))
    case .wishlist:
      if #available(iOS 17, *) {
        return UIHostingController(rootView: WishlistView())
      }
      return SettingsHostingController()
    }
  }
}
