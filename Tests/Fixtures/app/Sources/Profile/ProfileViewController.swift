import AppCore

/// The public profile of another user.
class ProfileViewController: BaseViewController {
  @objc func onFollowPressed(_ sender: Any) {}
}
