import UIKit

/// A list of any kind of item: generic, so Swift cannot replace its methods dynamically.
class ListViewController<Item>: BaseViewController {
  var items: [Item] = []

  @objc func onRowSelected(_ sender: Any) {}
}
