import UIKit

final class Cart: NSObject {
  @objc(cartTotal) var total: Double = 0
}

class FeedViewController: UIViewController {
  @objc var selectedTab: String = "for-you"
  @objc var screenTitle: String?
  @objc var cart = Cart()

  @objc func onItemTapped(_ sender: UIButton) {}
}

/// Overrides the mapped handler and calls `super`: its own implementation is replaced too.
final class PromoFeedViewController: FeedViewController {
  override func onItemTapped(_ sender: UIButton) {
    super.onItemTapped(sender)
  }
}

/// Inherits the handler: the superclass's replacement reports its calls.
final class ArchiveFeedViewController: FeedViewController {}

/// A table view's delegate method, called by UIKit by its Objective-C selector.
final class StoriesViewController: UITableViewController {
  override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}
}
