import ShapesKit
import UIKit

/// A table view controller: UIKit's own subclass of UIViewController, with its own lifecycle overrides and
/// a table view delegate method as a handler.
public final class ProductListViewController: UITableViewController {
  var products: [Product] = []
  var lastSelectedRow: Int?

  override public func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
  }

  override public func viewDidDisappear(_ animated: Bool) {
    super.viewDidDisappear(animated)
  }

  override public func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
    lastSelectedRow = indexPath.row
  }
}
