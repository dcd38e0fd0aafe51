import UIKit

final class Cart: NSObject {
  @objc(cartTotal) var total: Double = 0
}

final class FeedViewController: UIViewController {
  @objc var selectedTab: String = "for-you"
  @objc var screenTitle: String?
  @objc var cart = Cart()

  @objc func onItemTapped(_ sender: UIButton) {}
}
