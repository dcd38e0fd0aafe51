import UIKit

/// A list of any kind of item: generic, so Swift cannot replace its methods dynamically.
class ListViewController<Item>: BaseViewController {
  var items: [Item] = []

  @objc func onRowSelected(_ sender: Any) {}
}

/// The list the app shows: under objc-runtime, the hooks reach the generic list's handler from here.
final class ProductListViewController: ListViewController<String> {}
