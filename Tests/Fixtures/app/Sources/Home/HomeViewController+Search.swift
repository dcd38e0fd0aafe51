import UIKit

extension HomeViewController {
  @objc func onSearchBtnPressed(_ sender: Any) {}

  /// The filters, shown over the home screen.
  final class FilterSheet: UIViewController {
    @objc func onApplyFilters_UA(_ sender: Any) {}
  }
}
