import AppCore

/// The public profile of another user.
class ProfileViewController: BaseViewController {
  @objc func onFollowPressed(_ sender: Any) {}
}

/// A phone number as the profile shows it (for the privacy fixture: a type that looks like personal data).
struct PhoneNumber: CustomStringConvertible {
  var description: String
}

extension ProfileViewController {
  /// Where the profile's owner can be called.
  var contactLine: PhoneNumber { PhoneNumber(description: "") }
}
