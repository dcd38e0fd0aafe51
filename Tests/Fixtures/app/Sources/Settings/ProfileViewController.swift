import AppCore

/// The profile section inside the settings.
class ProfileViewController: BaseViewController {
  @objc func onEditPressed(_ sender: Any) {}
}
