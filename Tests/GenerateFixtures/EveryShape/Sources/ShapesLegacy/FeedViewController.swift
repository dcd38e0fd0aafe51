import ShapesKit
import UIKit

/// Under `interception: objc-runtime` (objc-runtime.yaml): the runtime's UIKit hooks report this view
/// controller's appearance and its target-action handlers, and read the bound values by key path from
/// the action's sender and the screen's `@objc` state.
final class FeedViewController: BaseViewController {
  @objc var selectedTab = "for-you"
  @objc var screenTitle: String?
  @objc var cart = FeedCart()

  @objc func onItemTapped(_ sender: UIButton) {}

  @IBAction func onRefresh(_ sender: UIRefreshControl) {}
}

final class FeedCart: NSObject {
  @objc(cartTotal) var total: Double = 0
  @objc var itemCount = 0
}

/// A table view controller, its row selection a target-action handler of its own.
final class StoriesTableViewController: UITableViewController {
  @objc func onStoryTapped(_ sender: UIControl) {}
}
