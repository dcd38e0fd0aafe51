import Design
import UIKit

/// The third link, written with its superclass's module.
final class CatalogViewController: Design.DSListViewController {
  @objc func onFilterTapped(_ sender: Any) {}
}

/// A base class that is a framework's and not in the sources (`conventions.framework_classes`).
final class PromoViewController: VendorPromoViewController {}
