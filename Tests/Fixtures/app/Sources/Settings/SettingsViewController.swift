import AppCore

class SettingsViewController: BaseViewController {
  @objc func onLogoutPressed_UA(_ sender: Any) {}

  private func onDeleteAccount(_ sender: Any) {}
}
