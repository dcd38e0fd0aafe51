import UIKit

/// The window: a navigation stack whose root is the catalog.
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
  var window: UIWindow?

  func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
    guard let scene = scene as? UIWindowScene else { return }
    let window = UIWindow(windowScene: scene)
    window.rootViewController = UINavigationController(rootViewController: CatalogViewController(catalog: .sample))
    window.makeKeyAndVisible()
    self.window = window
  }
}
