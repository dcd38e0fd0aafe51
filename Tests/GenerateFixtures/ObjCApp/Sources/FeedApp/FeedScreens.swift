import GenerateFixtureTracking
import SwiftUI
import UIKit

/// Shown by a hosting controller the app makes: under objc-runtime its appearance is the hosting
/// controller's, reported as this view's.
struct ProfileView: View {
  var body: some View { Text("Profile") }
}

/// Shown by a hosting controller too, but it reports its own appearance with `.tracked(_:)`: the
/// registry keeps the hosting controller from reporting it a second time.
struct StoriesView: View {
  var body: some View { Text("Stories").tracked(.storiesView) }
}

@MainActor final class FeedCoordinator {
  func showProfile(from presenter: UIViewController) {
    presenter.present(UIHostingController(rootView: ProfileView().environment(\.locale, .current)), animated: true)
  }

  func showStories(from presenter: UIViewController) {
    let stories = UIHostingController(rootView: StoriesView())
    presenter.present(stories, animated: true)
  }
}
