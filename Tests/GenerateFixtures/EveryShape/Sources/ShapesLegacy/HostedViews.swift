import ShapesObjCTracking
import SwiftUI
import UIKit

/// Shown by a hosting controller the app makes: under objc-runtime its appearance is the hosting
/// controller's, reported as this view's (the modifiers around it seen through).
struct HelpView: View {
  var body: some View { Text("Help") }
}

/// Shown in a sheet: no hosting controller of its own, so it reports itself.
struct FeedbackView: View {
  var body: some View { Text("Feedback").tracked(.feedbackView) }
}

final class HelpCoordinator {
  @MainActor func showHelp(from presenter: UIViewController) {
    presenter.present(UIHostingController(rootView: HelpView().environment(\.locale, .current)), animated: true)
  }
}

struct HelpMenu: View {
  @State private var showsFeedback = false

  var body: some View {
    Button("Feedback") { showsFeedback = true }
      .sheet(isPresented: $showsFeedback) { FeedbackView() }
  }
}
