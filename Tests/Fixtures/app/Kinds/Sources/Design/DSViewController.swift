import UIKit

/// The design system's screens: the first two links of a chain of three in-app classes across two
/// modules (`Catalog.CatalogViewController` is the third).
open class DSViewController: UIViewController {
  @objc open func onHelpTapped(_ sender: Any) {}
}

open class DSListViewController: DSViewController {
  @objc open func onRowSelected(_ sender: Any) {}
}
