import UIKit

/// The catalog: a table of products in a navigation stack. A row's selection is the table view's
/// delegate method, which UIKit calls by its Objective-C selector; the cart button is a bar button item,
/// the pull to refresh a control's action. None of them holds a tracking line: the plan maps them.
final class CatalogViewController: UITableViewController {
  private let catalog: Catalog

  init(catalog: Catalog) {
    self.catalog = catalog
    super.init(style: .insetGrouped)
    title = "Storefront"
  }

  required init?(coder: NSCoder) { fatalError("init(coder:) is not used") }

  override func viewDidLoad() {
    super.viewDidLoad()
    tableView.register(UITableViewCell.self, forCellReuseIdentifier: "product")
    navigationItem.rightBarButtonItem = UIBarButtonItem(
      image: UIImage(systemName: "cart"), style: .plain, target: self, action: #selector(showCart(_:)))
    refreshControl = UIRefreshControl()
    refreshControl?.addTarget(self, action: #selector(refresh(_:)), for: .valueChanged)
  }

  override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
    catalog.products.count
  }

  override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: "product", for: indexPath)
    var content = cell.defaultContentConfiguration()
    content.text = catalog.products[indexPath.row].name
    content.secondaryText = catalog.products[indexPath.row].price.formatted(.currency(code: "EUR"))
    cell.contentConfiguration = content
    cell.accessoryType = .disclosureIndicator
    return cell
  }

  /// Tracked (CTRL_CATALOG_SELECT, with the row).
  override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
    tableView.deselectRow(at: indexPath, animated: true)
    navigationController?.pushViewController(ProductViewController(product: catalog.products[indexPath.row], catalog: catalog), animated: true)
  }

  /// Tracked (CTRL_CATALOG_CART): the bar button item's action.
  @objc func showCart(_ sender: UIBarButtonItem) {
    navigationController?.pushViewController(CartViewController(catalog: catalog), animated: true)
  }

  /// Tracked (CTRL_CATALOG_REFRESH): the refresh control's action.
  @objc func refresh(_ sender: UIRefreshControl) {
    tableView.reloadData()
    sender.endRefreshing()
  }
}
